/**
 * The route definitions of every endpoint group, for the published OpenAPI document: its
 * parameters are the zod schemas the handlers validate with. This is the one module outside
 * `functions/` that imports the features' HTTP slices (`shared/<feature>/routes`), by exception in
 * `.dependency-cruiser.cjs`; it pairs groups with features exactly as the `functions/<group>/handler.ts`
 * entries do, and the type requires every group of the catalog with exactly its routes.
 */
import type { GroupRouteTable } from '../functions/api';
import type { GroupName } from '../shared/catalog';
import { routes as groups } from '../shared/groups/routes';
import { routes as hooks } from '../shared/hooks/routes';
import { routes as issues } from '../shared/issues/routes';
import { routes as members } from '../shared/members/routes';
import { routes as meta } from '../shared/meta/routes';
import { routes as projects } from '../shared/projects/routes';
import { routes as users } from '../shared/users/routes';

export const routeDefinitions: { readonly [G in GroupName]: GroupRouteTable<G> } = {
  meta: meta.meta,
  users: users.users,
  groups: groups.groups,
  members: members.members,
  projects: projects.projects,
  hooks: hooks.hooks,
  milestones: issues.milestones,
  labels: issues.labels,
  issues: issues.issues,
  notes: issues.notes,
  issue_actions: issues.issue_actions,
  todos: issues.todos,
  uploads: projects.uploads,
  web: projects.web,
};
