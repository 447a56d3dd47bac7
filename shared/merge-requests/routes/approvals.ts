/**
 * Merge request approvals as GitLab Free has them (`API::MergeRequestApprovals`): the approvals
 * are read with the merge request (anonymously on a public project); `approve` (201; 409 when
 * `sha` is not the source head, 401 when already approved or merged) and `unapprove` (201; 404
 * when not approved or merged) need `approve_merge_request` (403). `approval_password` and
 * `publish_review` (GitLab Premium's password rule, draft notes) are accepted and ignored.
 */
import * as z from 'zod';
import { p } from '../../platform/http/params';
import { created, ok } from '../../platform/http/response';
import { route, type RoutesOf } from '../../platform/http/route';
import type { catalog } from '../catalog';
import { approveMergeRequest, unapproveMergeRequest } from '../commands/approvals';
import { presentApprovals } from '../presenters/approvals';
import { mergeRequestPathParams } from './merge-requests.params';
import { findMergeRequestOf } from './find';

const byMergeRequest = z.object(mergeRequestPathParams);
const approveParams = z.object({ ...mergeRequestPathParams, sha: p.string(), approval_password: p.string(), publish_review: p.bool() });

export const mergeRequestApprovalRoutes = {
  'GET /projects/:id/merge_requests/:merge_request_iid/approvals': route({
    params: byMergeRequest,
    anonymous: true,
    handler: async ({ params, user }) => {
      const { subject, mr } = await findMergeRequestOf(params, user);
      return ok(await presentApprovals(mr, subject, user));
    },
  }),

  'POST /projects/:id/merge_requests/:merge_request_iid/approve': route({
    params: approveParams,
    handler: async ({ params, user }) => {
      const { subject, mr } = await findMergeRequestOf(params, user);
      return created(await presentApprovals(await approveMergeRequest(subject, user, mr, params.sha), subject, user));
    },
  }),

  'POST /projects/:id/merge_requests/:merge_request_iid/unapprove': route({
    params: byMergeRequest,
    handler: async ({ params, user }) => {
      const { subject, mr } = await findMergeRequestOf(params, user);
      return created(await presentApprovals(await unapproveMergeRequest(subject, user, mr), subject, user));
    },
  }),
} satisfies RoutesOf<typeof catalog.merge_requests>;
