/**
 * The route definitions of every endpoint group, for the published OpenAPI document: its
 * parameters are the zod schemas the handlers validate with. Each Lambda entry
 * (`functions/<group>/handler.ts`) exports the routes it serves beside its handler; this module
 * only collects them, and the type requires every group of the catalog with exactly its routes.
 */
import type { GroupRouteTable } from '../functions/api';
import * as ciJobs from '../functions/ci_jobs/handler';
import * as ciRunners from '../functions/ci_runners/handler';
import * as groups from '../functions/groups/handler';
import * as hooks from '../functions/hooks/handler';
import * as issues from '../functions/issues/handler';
import * as labels from '../functions/labels/handler';
import * as members from '../functions/members/handler';
import * as mergeRequests from '../functions/merge_requests/handler';
import * as meta from '../functions/meta/handler';
import * as milestones from '../functions/milestones/handler';
import * as projects from '../functions/projects/handler';
import * as repository from '../functions/repository/handler';
import * as todos from '../functions/todos/handler';
import * as uploads from '../functions/uploads/handler';
import * as users from '../functions/users/handler';
import * as web from '../functions/web/handler';
import type { GroupName } from '../shared/catalog';

export const routeDefinitions: { readonly [G in GroupName]: GroupRouteTable<G> } = {
  meta: meta.routes,
  users: users.routes,
  groups: groups.routes,
  members: members.routes,
  projects: projects.routes,
  hooks: hooks.routes,
  milestones: milestones.routes,
  labels: labels.routes,
  issues: issues.routes,
  todos: todos.routes,
  merge_requests: mergeRequests.routes,
  uploads: uploads.routes,
  repository: repository.routes,
  ci_jobs: ciJobs.routes,
  ci_runners: ciRunners.routes,
  web: web.routes,
};
