/**
 * The protected branches API (GitLab's `lib/api/protected_branches.rb`): reads need
 * `download_code`; protecting, changing and unprotecting need `admin_protected_branches`
 * (maintainers). Names may be patterns (`release/*`); `:name` is the exact name or pattern.
 */
import * as z from 'zod';
import { authorize, MAINTAINER } from '../../auth';
import { paginateArray, paginationParams } from '../../platform/http/pagination';
import { idParam } from '../../platform/http/params';
import { created, noContent, ok } from '../../platform/http/response';
import { route, type RoutesOf } from '../../platform/http/route';
import { findProjectOrNotFound } from '../../projects';
import type { catalog } from '../catalog';
import { createProtectedBranch, editProtectedBranch, removeProtectedBranch } from '../commands/protected-branches';
import { presentProtectedBranch } from '../presenters/protected-refs';
import { findProtectedBranchOrNotFound, listProjectProtectedBranches } from '../queries/protected-branches';
import { protectedBranchCreateParams, protectedBranchListParams, protectedBranchUpdateParams, protectedNameParam } from './branches.params';


export const protectedBranchRoutes = {
  'GET /projects/:id/protected_branches': route({
    anonymous: true,
    params: z.object({ ...idParam, ...protectedBranchListParams, ...paginationParams }),
    handler: async ({ params, user, link }) => {
      const subject = await findProjectOrNotFound(params.id, user);
      authorize(user, 'download_code', subject);
      const page = paginateArray(params, link, await listProjectProtectedBranches(subject.project.id, params.search));
      return ok(page.items.map(presentProtectedBranch), page.headers);
    },
  }),

  'GET /projects/:id/protected_branches/:name': route({
    anonymous: true,
    params: z.object({ ...idParam, ...protectedNameParam }),
    handler: async ({ params, user }) => {
      const subject = await findProjectOrNotFound(params.id, user);
      authorize(user, 'download_code', subject);
      return ok(presentProtectedBranch(await findProtectedBranchOrNotFound(subject.project.id, params.name)));
    },
  }),

  'POST /projects/:id/protected_branches': route({
    params: z.object({ ...idParam, ...protectedBranchCreateParams }),
    handler: async ({ params, user }) => {
      const subject = await findProjectOrNotFound(params.id, user);
      authorize(user, 'admin_protected_branches', subject);
      const branch = await createProtectedBranch(subject.project.id, params.name, {
        pushAccessLevel: params.push_access_level ?? MAINTAINER,
        mergeAccessLevel: params.merge_access_level ?? MAINTAINER,
        allowForcePush: params.allow_force_push ?? false,
      });
      return created(presentProtectedBranch(branch));
    },
  }),

  'PATCH /projects/:id/protected_branches/:name': route({
    params: z.object({ ...idParam, ...protectedNameParam, ...protectedBranchUpdateParams }),
    handler: async ({ params, user }) => {
      const subject = await findProjectOrNotFound(params.id, user);
      const branch = await findProtectedBranchOrNotFound(subject.project.id, params.name);
      authorize(user, 'admin_protected_branches', subject);
      return ok(presentProtectedBranch(await editProtectedBranch(branch, { allowForcePush: params.allow_force_push })));
    },
  }),

  'DELETE /projects/:id/protected_branches/:name': route({
    params: z.object({ ...idParam, ...protectedNameParam }),
    handler: async ({ params, user }) => {
      const subject = await findProjectOrNotFound(params.id, user);
      const branch = await findProtectedBranchOrNotFound(subject.project.id, params.name);
      authorize(user, 'admin_protected_branches', subject);
      await removeProtectedBranch(subject.project.id, branch.name);
      return noContent();
    },
  }),
} satisfies RoutesOf<typeof catalog.repository>;
