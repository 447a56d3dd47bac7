/**
 * The tags API (GitLab's `lib/api/tags.rb`): list, read, create (lightweight, or annotated with a
 * `message`) and delete. Reads need `download_code` (anonymous on public projects); writes need
 * `push_code` (GitLab's `admin_tag`, developers and above), and protected tags their protection's
 * levels (`commands/tags.ts`).
 */
import * as z from 'zod';
import { can, type ProjectSubject } from '../../auth';
import { paginateArray, paginationParams } from '../../platform/http/pagination';
import { idParam, p, required } from '../../platform/http/params';
import { created, noContent, ok } from '../../platform/http/response';
import { route, type RoutesOf } from '../../platform/http/route';
import type { catalog } from '../catalog';
import { createTag, deleteTag } from '../commands/tags';
import { presentTag } from '../presenters/tags';
import { TagRules } from '../queries/protection';
import { findTagOrNotFound, listTags, tagView } from '../queries/tags';
import { releasesOfTags } from '../tag-releases';
import type { User } from '../../users';
import { findRepositoryOrNotFound, projectWebUrl } from './access';

/** Internal: the releases of a page of tags (one batched read), `undefined` when the caller may not read releases. */
async function releasesFor(subject: ProjectSubject, user: User | null, tags: readonly string[]) {
  return can(user, 'read_release', subject) ? releasesOfTags(subject.project, tags) : undefined;
}

const tagNameParam = { tag_name: required(p.string()) };

export const tagRoutes = {
  'GET /projects/:id/repository/tags': route({
    anonymous: true,
    params: z.object({
      ...idParam,
      search: p.string(),
      order_by: p.oneOf(['name', 'updated', 'version']),
      sort: p.oneOf(['asc', 'desc']),
      ...paginationParams,
    }),
    handler: async ({ params, user, link }) => {
      const { subject, reader, webUrl } = await findRepositoryOrNotFound(params.id, user);
      const [tags, rules] = await Promise.all([listTags(reader, { search: params.search, orderBy: params.order_by, sort: params.sort }), TagRules.load(subject.project.id)]);
      const page = paginateArray(params, link, tags);
      const releases = await releasesFor(subject, user, page.items.map((tag) => tag.name));
      return ok(
        page.items.map((tag) => presentTag(tag, webUrl, rules, releases)),
        page.headers,
      );
    },
  }),

  'GET /projects/:id/repository/tags/:tag_name': route({
    anonymous: true,
    params: z.object({ ...idParam, ...tagNameParam }),
    handler: async ({ params, user }) => {
      const { subject, reader, webUrl } = await findRepositoryOrNotFound(params.id, user);
      const [tag, rules, releases] = await Promise.all([
        findTagOrNotFound(reader, params.tag_name).then((ref) => tagView(reader, ref)),
        TagRules.load(subject.project.id),
        releasesFor(subject, user, [params.tag_name]),
      ]);
      return ok(presentTag(tag, webUrl, rules, releases));
    },
  }),

  'POST /projects/:id/repository/tags': route({
    params: z.object({ ...idParam, tag_name: required(p.string()), ref: required(p.string()), message: p.string() }),
    handler: async ({ params, user }) => {
      const { subject } = await findRepositoryOrNotFound(params.id, user, 'push_code');
      const { ref, reader, rules } = await createTag(subject, user, params.tag_name, params.ref, params.message);
      const [tag, releases] = await Promise.all([tagView(reader, ref), releasesFor(subject, user, [params.tag_name])]);
      return created(presentTag(tag, projectWebUrl(subject), rules, releases));
    },
  }),

  'DELETE /projects/:id/repository/tags/:tag_name': route({
    params: z.object({ ...idParam, ...tagNameParam }),
    handler: async ({ params, user }) => {
      const { subject, reader } = await findRepositoryOrNotFound(params.id, user, 'push_code');
      await deleteTag(subject, user, await findTagOrNotFound(reader, params.tag_name));
      return noContent();
    },
  }),
} satisfies RoutesOf<typeof catalog.repository>;
