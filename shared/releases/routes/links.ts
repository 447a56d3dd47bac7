/**
 * Release links (GitLab's `lib/api/release/links.rb`): a release's asset links, listed, read,
 * added, edited and deleted. The project needs `read_release` (404/403 before anything); an
 * unknown release or link is `404 Not found` (GitLab's `find_by_tag!`, `find`); writes need the
 * release's `create_release`, `update_release` or `destroy_release` (403 otherwise).
 */
import { authorizeReleaseWrite } from '../policy';
import { paginateArray } from '../../platform/http/pagination';
import { ParamError, RecordNotFoundError } from '../../platform/http/errors';
import { created, ok } from '../../platform/http/response';
import { route, type RoutesOf } from '../../platform/http/route';
import type { catalog } from '../catalog';
import { addLink, deleteLink, findLinkOrNotFound, updateLink } from '../commands/releases';
import { presentLink, sortedLinks } from '../presenters/releases';
import { getRelease } from '../store/releases';
import { findReleasesOrNotFound, JOB_TOKEN_ALLOWED } from './releases';
import type { Authentication } from '../../platform/http/context';
import { createLinkParams, linkIdParam, linkInput, linkListParams, updateLinkParams } from './releases.params';
import type { User } from '../../users';
import * as z from 'zod';

/** Internal: the project and the release of a tag (`404 Not found` without one). */
async function findReleaseOf(id: string, tag: string, user: User | null, auth: Authentication | null) {
  const subject = await findReleasesOrNotFound(id, user, auth);
  const release = await getRelease(subject.project.id, tag);
  if (!release) throw new RecordNotFoundError();
  return { subject, release };
}

export const linkRoutes = {
  'GET /projects/:id/releases/:tag_name/assets/links': route({
    authentication: JOB_TOKEN_ALLOWED,
    anonymous: true,
    params: linkListParams,
    handler: async ({ params, user, auth, link }) => {
      const { subject, release } = await findReleaseOf(params.id, params.tag_name, user, auth);
      const page = paginateArray(params, link, sortedLinks(release));
      return ok(page.items.map((item) => presentLink(item, release, subject)), page.headers);
    },
  }),

  'POST /projects/:id/releases/:tag_name/assets/links': route({
    authentication: JOB_TOKEN_ALLOWED,
    params: createLinkParams,
    handler: async ({ params, user, auth }) => {
      const { subject, release } = await findReleaseOf(params.id, params.tag_name, user, auth);
      await authorizeReleaseWrite(user, 'create_release', subject, release.tag);
      return created(presentLink(await addLink(release, linkInput(params)), release, subject));
    },
  }),

  'GET /projects/:id/releases/:tag_name/assets/links/:link_id': route({
    authentication: JOB_TOKEN_ALLOWED,
    anonymous: true,
    params: z.object(linkIdParam),
    handler: async ({ params, user, auth }) => {
      const { subject, release } = await findReleaseOf(params.id, params.tag_name, user, auth);
      return ok(presentLink(findLinkOrNotFound(release, params.link_id), release, subject));
    },
  }),

  'PUT /projects/:id/releases/:tag_name/assets/links/:link_id': route({
    authentication: JOB_TOKEN_ALLOWED,
    params: updateLinkParams,
    handler: async ({ params, user, auth }) => {
      if (params.name === undefined && params.url === undefined) throw new ParamError('name, url are missing, at least one parameter must be provided');
      const { subject, release } = await findReleaseOf(params.id, params.tag_name, user, auth);
      const found = findLinkOrNotFound(release, params.link_id);
      await authorizeReleaseWrite(user, 'update_release', subject, release.tag);
      return ok(presentLink(await updateLink(release, found, linkInput(params)), release, subject));
    },
  }),

  'DELETE /projects/:id/releases/:tag_name/assets/links/:link_id': route({
    authentication: JOB_TOKEN_ALLOWED,
    params: z.object(linkIdParam),
    handler: async ({ params, user, auth }) => {
      const { subject, release } = await findReleaseOf(params.id, params.tag_name, user, auth);
      const found = findLinkOrNotFound(release, params.link_id);
      await authorizeReleaseWrite(user, 'destroy_release', subject, release.tag);
      return ok(presentLink(await deleteLink(release, found), release, subject));
    },
  }),
} satisfies RoutesOf<typeof catalog.repository>;
