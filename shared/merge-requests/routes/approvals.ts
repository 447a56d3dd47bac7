/**
 * Merge request approvals as GitLab Free has them (`API::MergeRequestApprovals`): the approvals
 * are read with the merge request (anonymously on a public project); `approve` (201; 409 when
 * `sha` is not the source head, 401 when already approved or merged) and `unapprove` (201; 404
 * when not approved or merged) need `approve_merge_request` (403). `approval_password` (GitLab
 * Premium's password rule) is accepted and ignored; `publish_review` publishes the caller's draft
 * notes first. `reset_approvals` (202) clears the approvals, for bot users only (401 otherwise).
 */
import * as z from 'zod';
import { p } from '../../platform/http/params';
import { ForbiddenError } from '../../platform/http/errors';
import { accepted, created, ok } from '../../platform/http/response';
import { route, type RoutesOf } from '../../platform/http/route';
import type { catalog } from '../catalog';
import { approveMergeRequest, resetApprovals, unapproveMergeRequest } from '../commands/approvals';
import { publishAllDraftNotes } from '../commands/draft-notes';
import { canUpdateMergeRequest } from '../policy';
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
      const { subject, mr, noteable } = await findMergeRequestOf(params, user);
      // `publish_review`: the caller's draft notes are published first (GitLab's bulk publish), once the caller may approve.
      if (params.publish_review) {
        if (!canUpdateMergeRequest(user, subject, mr)) throw new ForbiddenError();
        await publishAllDraftNotes(subject, user, mr, noteable);
      }
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

  'PUT /projects/:id/merge_requests/:merge_request_iid/reset_approvals': route({
    params: byMergeRequest,
    handler: async ({ params, user }) => {
      const { subject, mr } = await findMergeRequestOf(params, user);
      await resetApprovals(subject, user, mr);
      // GitLab's endpoint ends with `status :accepted`, whose value (202) Grape renders as the body.
      return accepted(202);
    },
  }),
} satisfies RoutesOf<typeof catalog.merge_requests>;
