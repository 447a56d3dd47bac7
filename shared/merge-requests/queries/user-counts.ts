/**
 * `GET /user_counts` (GitLab's `API::UserCounts`, entity `UserCounts`): the caller's open issues
 * assigned to them and pending todos (the issues feature's counts) and their open merge requests
 * assigned to them or awaiting their review (this feature's), each kept exact by the writes that
 * change it, so the answer is one BatchGetItem of three items whatever the caller's data.
 */
import { getIssueUserCounts } from '../../issues';
import { getMergeRequestUserCounts } from '../store/merge-requests';

/** GitLab's `UserCounts` entity. */
export interface UserCounts {
  /** Deprecated in GitLab 13.8: the same as `assigned_merge_requests`. */
  merge_requests: number;
  assigned_issues: number;
  assigned_merge_requests: number;
  review_requested_merge_requests: number;
  todos: number;
}

/** The counts of `userId`, read in one turn (one BatchGetItem). */
export async function userCounts(userId: number): Promise<UserCounts> {
  const [issues, mergeRequests] = await Promise.all([getIssueUserCounts(userId), getMergeRequestUserCounts(userId)]);
  return {
    merge_requests: mergeRequests.assignedOpen,
    assigned_issues: issues.assignedOpenIssues,
    assigned_merge_requests: mergeRequests.assignedOpen,
    review_requested_merge_requests: mergeRequests.reviewRequestedOpen,
    todos: issues.pendingTodos,
  };
}
