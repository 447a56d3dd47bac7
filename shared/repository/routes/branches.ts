/**
 * The branches API (GitLab's `lib/api/branches.rb`): list, read, create, delete, delete the merged
 * ones, and the legacy protect / unprotect. Reads need `download_code` (anonymous on public
 * projects); writes need `push_code`; protecting needs `admin_protected_branches` (maintainers).
 */
import * as z from 'zod';
import { can } from '../../auth';
import { RouteNotFoundError } from '../../platform/http/errors';
import { paginateArray, paginationParams } from '../../platform/http/pagination';
import { idParam, p, required } from '../../platform/http/params';
import { created, noContent, ok, type HttpResult } from '../../platform/http/response';
import { route, type RoutesOf } from '../../platform/http/route';
import type { User } from '../../users';
import type { catalog } from '../catalog';
import { createBranch, deleteBranch, deleteMergedBranches, protectBranch, unprotectBranch } from '../commands/branches';
import { presentBranch } from '../presenters/branches';
import { branchViews, findBranchOrNotFound, listBranchRefs } from '../queries/branches';
import { BranchRules } from '../queries/protection';
import { findRepositoryOrNotFound, type RepositoryAccess } from './access';
import { branchCreateParams, branchListParams, branchParam, protectParams } from './branches.params';

/** Internal: one branch as the `Branch` entity shows it to the caller. */
async function presentOne({ subject, reader, webUrl }: RepositoryAccess, user: User | null, name: string) {
  const ref = await findBranchOrNotFound(reader, name);
  const [view] = await branchViews(reader, subject, user, [ref], await BranchRules.load(subject.project.id));
  return presentBranch(view, webUrl);
}

export const branchRoutes = {
  'GET /projects/:id/repository/branches': route({
    anonymous: true,
    params: z.object({ ...idParam, ...branchListParams, ...paginationParams }),
    handler: async ({ params, user, link }) => {
      const { subject, reader, webUrl } = await findRepositoryOrNotFound(params.id, user);
      const page = paginateArray(params, link, await listBranchRefs(reader, params));
      const views = await branchViews(reader, subject, user, page.items, await BranchRules.load(subject.project.id));
      return ok(
        views.map((view) => presentBranch(view, webUrl)),
        page.headers,
      );
    },
  }),

  'GET /projects/:id/repository/branches/:branch': route({
    anonymous: true,
    params: z.object({ ...idParam, ...branchParam }),
    handler: async ({ params, user }) => ok(await presentOne(await findRepositoryOrNotFound(params.id, user), user, params.branch)),
  }),

  'POST /projects/:id/repository/branches': route({
    params: z.object({ ...idParam, ...branchCreateParams }),
    handler: async ({ params, user }) => {
      const { subject, webUrl } = await findRepositoryOrNotFound(params.id, user, 'push_code');
      const { name, commit, reader, rules } = await createBranch(subject, user, params.branch, params.ref);
      const [view] = await branchViews(reader, subject, user, [{ name: `refs/heads/${name}`, oid: commit.id }], rules);
      return created(presentBranch(view, webUrl));
    },
  }),

  'DELETE /projects/:id/repository/branches/:branch': route({
    params: z.object({ ...idParam, ...branchParam }),
    handler: async ({ params, user }) => {
      const { subject, reader } = await findRepositoryOrNotFound(params.id, user, 'push_code');
      const ref = await findBranchOrNotFound(reader, params.branch);
      await deleteBranch(subject, user, params.branch, ref.oid);
      return noContent();
    },
  }),

  'DELETE /projects/:id/repository/merged_branches': route({
    params: z.object({ ...idParam }),
    handler: async ({ params, user }): Promise<HttpResult<{ message: string }>> => {
      const { subject } = await findRepositoryOrNotFound(params.id, user);
      // GitLab answers 202 and deletes them in a worker, which does nothing for a caller who may not push.
      await deleteMergedBranches(subject, user, can(user, 'push_code', subject));
      return { statusCode: 202, body: { message: '202 Accepted' } };
    },
  }),

  /** The spec's `PUT …/protect` and `…/unprotect` (one resource for both; any other action is an unknown route). */
  'PUT /projects/:id/repository/branches/:branch/:action': route({
    params: z.object({ ...idParam, ...branchParam, ...protectParams, action: required(p.string()) }),
    handler: async ({ params, user }) => {
      if (params.action !== 'protect' && params.action !== 'unprotect') throw new RouteNotFoundError();
      const access = await findRepositoryOrNotFound(params.id, user, 'admin_protected_branches');
      await findBranchOrNotFound(access.reader, params.branch);
      if (params.action === 'protect') {
        await protectBranch(access.subject.project.id, params.branch, {
          developersCanPush: params.developers_can_push,
          developersCanMerge: params.developers_can_merge,
        });
      } else {
        await unprotectBranch(access.subject.project.id, params.branch);
      }
      return ok(await presentOne(access, user, params.branch));
    },
  }),
} satisfies RoutesOf<typeof catalog.repository>;
