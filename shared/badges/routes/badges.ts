/**
 * Project and group badges (GitLab's `lib/api/badges.rb`): list, read, add, edit, delete, and a
 * preview of how a badge's URLs render. Reading needs read access to the project or group (404
 * otherwise; anonymous callers read public ones); writing and previewing need `admin_project`
 * (maintainer or above) or `admin_group` (owner), or an admin (403 otherwise). A project's list
 * holds its groups' badges too (`kind: group`), rendered for the project; reading, editing or
 * deleting by id reaches only the project's own badges, as in GitLab. A group's badges are
 * rendered for the group's newest project the caller may read.
 */
import { authorize, type GroupSubject, type ProjectSubject } from '../../auth';
import { findGroupOrNotFound } from '../../namespaces';
import { findProjectOrNotFound } from '../../projects';
import type { User } from '../../users';
import { paginate } from '../../platform/http/pagination';
import { created, noContent, ok } from '../../platform/http/response';
import { route, type RoutesOf } from '../../platform/http/route';
import type { catalog } from '../catalog';
import { addBadge, editBadge, removeBadge } from '../commands';
import { presentBadge, presentBadgeDetails } from '../presenters/badges';
import { badgeList, findBadgeOrNotFound, placeholderValues, renderingProjectOf } from '../queries';
import type { Badge, BadgeFields } from '../store/badges';
import type { BadgeSource } from '../store/keys';
import { badgeChanges, badgeParams, createParams, listParams, newBadgeFields, renderParams, updateParams } from './badges.params';

/** Where a route's badges are: the source, and the project its URLs render with (if any). */
interface BadgeScope {
  source: BadgeSource;
  subject: ProjectSubject | GroupSubject;
  rendering: () => Promise<ProjectSubject | undefined>;
}

/** Internal: the project or group of `:id` the caller may read (404 otherwise), as a scope. */
async function findScope(kind: BadgeSource['kind'], idOrPath: string, user: User | null): Promise<BadgeScope> {
  if (kind === 'project') {
    const subject = await findProjectOrNotFound(idOrPath, user);
    return { source: { kind, id: subject.project.id }, subject, rendering: async () => subject };
  }
  const subject = await findGroupOrNotFound(idOrPath, user);
  return { source: { kind, id: subject.group.id }, subject, rendering: () => renderingProjectOf(subject.group, user) };
}

/** Internal: {@link findScope}, then 403 unless the caller may administer it. */
async function findAdministeredScope(kind: BadgeSource['kind'], idOrPath: string, user: User): Promise<BadgeScope> {
  const scope = await findScope(kind, idOrPath, user);
  if (scope.subject.kind === 'project') authorize(user, 'admin_project', scope.subject);
  else authorize(user, 'admin_group', scope.subject);
  return scope;
}

/** Internal: badges presented as rendered for the scope (placeholder values read once). */
async function present(scope: BadgeScope, badges: Badge[]) {
  const urls = badges.flatMap((badge) => [badge.linkUrl, badge.imageUrl]);
  const values = await placeholderValues(urls.some((url) => url.includes('%{')) ? await scope.rendering() : undefined, urls);
  return badges.map((badge) => presentBadge(badge, values));
}

/** The routes of one kind of source: `/projects/:id/badges…` or `/groups/:id/badges…`. */
function badgeRoutes(kind: BadgeSource['kind']) {
  return {
    list: route({
      params: listParams,
      anonymous: true,
      handler: async ({ params, user, link }) => {
        const scope = await findScope(kind, params.id, user);
        const namespace = scope.subject.kind === 'project' ? scope.subject.namespace : undefined;
        const page = await paginate(params, link, badgeList(scope.source, namespace, params.name));
        return ok(await present(scope, page.items), page.headers);
      },
    }),

    show: route({
      params: badgeParams,
      anonymous: true,
      handler: async ({ params, user }) => {
        const scope = await findScope(kind, params.id, user);
        const [badge] = await present(scope, [await findBadgeOrNotFound(scope.source, params.badge_id)]);
        return ok(badge);
      },
    }),

    render: route({
      params: renderParams,
      handler: async ({ params, user }) => {
        const scope = await findAdministeredScope(kind, params.id, user);
        const fields: BadgeFields = { ...newBadgeFields(params), name: null };
        const values = await placeholderValues(await scope.rendering(), [fields.linkUrl, fields.imageUrl]);
        return ok(presentBadgeDetails(fields, values));
      },
    }),

    create: route({
      params: createParams,
      handler: async ({ params, user }) => {
        const scope = await findAdministeredScope(kind, params.id, user);
        const [badge] = await present(scope, [await addBadge(scope.source, newBadgeFields(params))]);
        return created(badge);
      },
    }),

    update: route({
      params: updateParams,
      handler: async ({ params, user }) => {
        const scope = await findAdministeredScope(kind, params.id, user);
        const badge = await findBadgeOrNotFound(scope.source, params.badge_id);
        const [edited] = await present(scope, [await editBadge(badge, badgeChanges(params))]);
        return ok(edited);
      },
    }),

    remove: route({
      params: badgeParams,
      handler: async ({ params, user }) => {
        const scope = await findAdministeredScope(kind, params.id, user);
        await removeBadge(await findBadgeOrNotFound(scope.source, params.badge_id));
        return noContent();
      },
    }),
  };
}

const project = badgeRoutes('project');
const group = badgeRoutes('group');

export const projectBadgeRoutes = {
  'GET /projects/:id/badges': project.list,
  'POST /projects/:id/badges': project.create,
  'GET /projects/:id/badges/render': project.render,
  'GET /projects/:id/badges/:badge_id': project.show,
  'PUT /projects/:id/badges/:badge_id': project.update,
  'DELETE /projects/:id/badges/:badge_id': project.remove,
} satisfies RoutesOf<typeof catalog.projects>;

export const groupBadgeRoutes = {
  'GET /groups/:id/badges': group.list,
  'POST /groups/:id/badges': group.create,
  'GET /groups/:id/badges/render': group.render,
  'GET /groups/:id/badges/:badge_id': group.show,
  'PUT /groups/:id/badges/:badge_id': group.update,
  'DELETE /groups/:id/badges/:badge_id': group.remove,
} satisfies RoutesOf<typeof catalog.groups>;
