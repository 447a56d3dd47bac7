/**
 * A user's memberships, for admins (`GET /users/:id/memberships`, in the users endpoint group):
 * every group and project the user is a direct member of, with the source's name (GitLab's
 * `Entities::Membership`).
 */
import * as z from 'zod';
import { authorize, membershipCollections, membershipFromItem, type Membership } from '../../auth';
import { getNamespaces } from '../../namespaces';
import { paginate, paginationParams } from '../../platform/http/pagination';
import { p, required } from '../../platform/http/params';
import { ok } from '../../platform/http/response';
import { route, type RoutesOf } from '../../platform/http/route';
import { getProjects } from '../../projects';
import { findUserOrNotFound } from '../../users';
import type { catalog } from '../catalog';

/** GitLab's names of the two kinds of source. */
const SOURCE_TYPES = { Namespace: 'group', Project: 'project' } as const;

/** The page's memberships with their sources' names; a source deleted meanwhile (or under a group being deleted) is left out. */
async function presentMemberships(memberships: Membership[]) {
  const ids = (kind: Membership['sourceKind']) => memberships.filter((m) => m.sourceKind === kind).map((m) => m.sourceId);
  const [groups, found] = await Promise.all([getNamespaces(ids('group')), getProjects(ids('project'))]);
  const liveNamespaces = new Set((await getNamespaces([...new Set(found.map((project) => project.namespaceId))])).map((namespace) => namespace.id));
  const projects = found.filter((project) => liveNamespaces.has(project.namespaceId));
  const names = new Map([...groups.map((g) => [`group#${g.id}`, g.name] as const), ...projects.map((p) => [`project#${p.id}`, p.name] as const)]);
  return memberships.flatMap((m) => {
    const name = names.get(`${m.sourceKind}#${m.sourceId}`);
    if (name === undefined) return [];
    return [{ source_id: m.sourceId, source_name: name, source_type: m.sourceKind === 'group' ? 'Namespace' : 'Project', access_level: m.accessLevel }];
  });
}

export const membershipRoutes = {
  'GET /users/:id/memberships': route({
    params: z.object({ id: required(p.int()), ...paginationParams, type: p.oneOf(['Project', 'Namespace']) }),
    handler: async ({ params, user, link }) => {
      authorize(user, 'admin_users');
      const member = await findUserOrNotFound(params.id);
      const kind = params.type && SOURCE_TYPES[params.type];
      const page = await paginate(params, link, {
        collection: membershipCollections.userMemberships(member.id, kind),
        ascending: true,
        select: membershipFromItem,
      });
      return ok(await presentMemberships(page.items), page.headers);
    },
  }),
} satisfies RoutesOf<typeof catalog.users>;
