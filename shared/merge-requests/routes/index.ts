/** The merge-requests feature's HTTP slice, by endpoint group (for the Lambda entries in `functions/`). */
import { mergeRequestActionRoutes } from './actions';
import { mergeRequestApprovalRoutes } from './approvals';
import { mergeRequestAwardRoutes } from './award-emoji';
import { mergeRequestResourceEventRoutes } from './resource-events';
import { closedByRoutes } from './closed-by';
import { commitMergeRequestRoutes } from './commits';
import { deploymentMergeRequestRoutes } from './deployments';
import { mergeRequestDiscussionRoutes } from './discussions';
import { mergeRequestDraftNoteRoutes } from './draft-notes';
import { mergeRequestRoutes } from './merge-requests';
import { mergeRequestNoteRoutes } from './notes';

export const routes = {
  merge_requests: { ...mergeRequestRoutes, ...mergeRequestActionRoutes, ...mergeRequestNoteRoutes, ...mergeRequestDiscussionRoutes, ...mergeRequestDraftNoteRoutes, ...mergeRequestAwardRoutes, ...mergeRequestResourceEventRoutes, ...mergeRequestApprovalRoutes },
  /** `GET /projects/:id/issues/:issue_iid/closed_by`, served by the `issues` group. */
  issues: closedByRoutes,
  /** `GET /projects/:id/deployments/:deployment_id/merge_requests`, served by the `ci_jobs` group. */
  ci_jobs: deploymentMergeRequestRoutes,
  /** `GET /projects/:id/repository/commits/:sha/merge_requests`, served by the `repository` group. */
  repository: commitMergeRequestRoutes,
};
