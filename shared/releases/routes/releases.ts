/**
 * The releases API (GitLab's `lib/api/releases.rb`): list, read, create, edit and delete a
 * project's releases, by tag name (URL-encoded when it holds slashes). Every route reads the
 * project as the caller may (404 otherwise) and needs `read_release`; reading one release also
 * needs `download_code` (`authorize_read_code!`). Editing or deleting a tag without a release is
 * 403, as GitLab authorizes against the release it did not find.
 */
import { authorize, can, type ProjectSubject } from '../../auth';
import { paginate } from '../../platform/http/pagination';
import { created, ok } from '../../platform/http/response';
import { route, type RoutesOf } from '../../platform/http/route';
import { ForbiddenError } from '../../platform/http/errors';
import { findProjectForJobOrNotFound } from '../../projects';
import type { Authentication } from '../../platform/http/context';
import type { User } from '../../users';
import type { catalog } from '../catalog';
import { createRelease, deleteRelease, updateRelease } from '../commands/releases';
import { presentRelease } from '../presenters/releases';
import { findReleaseOrNotFound, releaseDetails, releaseList } from '../queries/releases';
import { getRelease, type Release } from '../store/releases';
import { authorizeReleaseWrite } from '../policy';
import { createParams, listParams, showParams, tagNameParam, updateParams } from './releases.params';
import * as z from 'zod';

/**
 * The project, readable by the caller with its releases (404, then 403/401); a CI job's token
 * (every releases route takes one, as GitLab's `job_token_allowed`: release-cli's credential)
 * reaches its own project only.
 */
export async function findReleasesOrNotFound(id: string, user: User | null, auth: Authentication | null): Promise<ProjectSubject> {
  const subject = await findProjectForJobOrNotFound(id, user, auth);
  authorize(user, 'read_release', subject);
  return subject;
}

/** Internal: releases presented with what they show besides themselves, loaded for all at once. */
async function present(subject: ProjectSubject, user: User | null, releases: Release[], includeHtmlDescription?: boolean) {
  const details = await releaseDetails(subject, releases, can(user, 'download_code', subject));
  return releases.map((release) => presentRelease(release, { subject, user, details, includeHtmlDescription }));
}

/** Internal: the release a write names, authorized as GitLab does (`authorize! ability, release`: 403 without a release). */
async function releaseToChange(subject: ProjectSubject, user: User, tag: string, ability: 'update_release' | 'destroy_release'): Promise<Release> {
  const release = await getRelease(subject.project.id, tag);
  if (!release) throw new ForbiddenError();
  await authorizeReleaseWrite(user, ability, subject, tag);
  return release;
}

/** GitLab's `job_token_allowed` on the releases API: a running job's `JOB-TOKEN` (release-cli's credential) authenticates too. */
export const JOB_TOKEN_ALLOWED = { jobToken: true } as const;

export const releaseRoutes = {
  'GET /projects/:id/releases': route({
    authentication: JOB_TOKEN_ALLOWED,
    anonymous: true,
    params: listParams,
    handler: async ({ params, user, auth, link }) => {
      const subject = await findReleasesOrNotFound(params.id, user, auth);
      const page = await paginate(params, link, releaseList(subject.project.id, { orderBy: params.order_by, sort: params.sort }));
      return ok(await present(subject, user, page.items, params.include_html_description), page.headers);
    },
  }),

  'GET /projects/:id/releases/:tag_name': route({
    authentication: JOB_TOKEN_ALLOWED,
    anonymous: true,
    params: showParams,
    handler: async ({ params, user, auth }) => {
      const subject = await findReleasesOrNotFound(params.id, user, auth);
      authorize(user, 'download_code', subject);
      const release = await findReleaseOrNotFound(subject.project.id, params.tag_name);
      return ok((await present(subject, user, [release], params.include_html_description))[0]);
    },
  }),

  'POST /projects/:id/releases': route({
    authentication: JOB_TOKEN_ALLOWED,
    params: createParams,
    handler: async ({ params, user, auth }) => {
      const subject = await findReleasesOrNotFound(params.id, user, auth);
      const protections = await authorizeReleaseWrite(user, 'create_release', subject, params.tag_name);
      const release = await createRelease(subject, user, {
        tag: params.tag_name,
        protections,
        name: params.name,
        description: params.description,
        ref: params.ref,
        tagMessage: params.tag_message,
        releasedAt: params.released_at,
        milestones: params.milestones,
        links: (params.assets?.links ?? []).map((link) => ({ name: link.name, url: link.url, filepath: link.direct_asset_path ?? link.filepath, linkType: link.link_type })),
      });
      return created((await present(subject, user, [release]))[0]);
    },
  }),

  'PUT /projects/:id/releases/:tag_name': route({
    authentication: JOB_TOKEN_ALLOWED,
    params: updateParams,
    handler: async ({ params, user, auth }) => {
      const subject = await findReleasesOrNotFound(params.id, user, auth);
      const release = await releaseToChange(subject, user, params.tag_name, 'update_release');
      const updated = await updateRelease(subject, release, { name: params.name, description: params.description, releasedAt: params.released_at, milestones: params.milestones });
      return ok((await present(subject, user, [updated]))[0]);
    },
  }),

  'DELETE /projects/:id/releases/:tag_name': route({
    authentication: JOB_TOKEN_ALLOWED,
    params: z.object(tagNameParam),
    handler: async ({ params, user, auth }) => {
      const subject = await findReleasesOrNotFound(params.id, user, auth);
      const release = await releaseToChange(subject, user, params.tag_name, 'destroy_release');
      return ok((await present(subject, user, [await deleteRelease(subject, release)]))[0]);
    },
  }),
} satisfies RoutesOf<typeof catalog.repository>;
