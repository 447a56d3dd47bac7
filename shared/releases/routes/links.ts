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
import { findReleasesOrNotFound } from './releases';
import { createLinkParams, linkIdParam, linkInput, linkListParams, updateLinkParams } from './releases.params';
import type { User } from '../../users';
import * as z from 'zod';

/** Internal: the project and the release of a tag (`404 Not found` without one). */
async function findReleaseOf(id: string, tag: string, user: User | null) {
  const subject = await findReleasesOrNotFound(id, user);
  const release = await getRelease(subject.project.id, tag);
  if (!release) throw new RecordNotFoundError();
  return { subject, release };
}

export const linkRoutes = {
  'GET /projects/:id/releases/:tag_name/assets/links': route({
    anonymous: true,
    params: linkListParams,
    handler: async ({ params, user, link }) => {
      const { subject, release } = await findReleaseOf(params.id, params.tag_name, user);
      const page = paginateArray(params, link, sortedLinks(release));
      return ok(page.items.map((item) => presentLink(item, release, subject)), page.headers);
    },
  }),

  'POST /projects/:id/releases/:tag_name/assets/links': route({
    params: createLinkParams,
    handler: async ({ params, user }) => {
      const { subject, release } = await findReleaseOf(params.id, params.tag_name, user);
      await authorizeReleaseWrite(user, 'create_release', subject, release.tag);
      return created(presentLink(await addLink(release, linkInput(params)), release, subject));
    },
  }),

  'GET /projects/:id/releases/:tag_name/assets/links/:link_id': route({
    anonymous: true,
    params: z.object(linkIdParam),
    handler: async ({ params, user }) => {
      const { subject, release } = await findReleaseOf(params.id, params.tag_name, user);
      return ok(presentLink(findLinkOrNotFound(release, params.link_id), release, subject));
    },
  }),

  'PUT /projects/:id/releases/:tag_name/assets/links/:link_id': route({
    params: updateLinkParams,
    handler: async ({ params, user }) => {
      if (params.name === undefined && params.url === undefined) throw new ParamError('name, url are missing, at least one parameter must be provided');
      const { subject, release } = await findReleaseOf(params.id, params.tag_name, user);
      const found = findLinkOrNotFound(release, params.link_id);
      await authorizeReleaseWrite(user, 'update_release', subject, release.tag);
      return ok(presentLink(await updateLink(release, found, linkInput(params)), release, subject));
    },
  }),

  'DELETE /projects/:id/releases/:tag_name/assets/links/:link_id': route({
    params: z.object(linkIdParam),
    handler: async ({ params, user }) => {
      const { subject, release } = await findReleaseOf(params.id, params.tag_name, user);
      const found = findLinkOrNotFound(release, params.link_id);
      await authorizeReleaseWrite(user, 'destroy_release', subject, release.tag);
      return ok(presentLink(await deleteLink(release, found), release, subject));
    },
  }),
} satisfies RoutesOf<typeof catalog.repository>;
