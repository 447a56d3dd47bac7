/** The per-issue rules: GitLab's `read_issue` and `update_issue` on one issue, built from the project abilities. */
import { can, type ProjectSubject } from '../auth';
import type { Caller } from '../platform/http/context';

/** The people an issue involves. */
export interface IssueParties {
  confidential: boolean;
  authorId: number;
  assigneeIds: number[];
}

const involved = (user: Caller | null, issue: IssueParties) =>
  user !== null && (issue.authorId === user.id || issue.assigneeIds.includes(user.id));

/**
 * GitLab's `read_issue` on one issue: a confidential issue only for its author, its assignees,
 * reporters and above, and admins.
 */
export function canReadIssue(user: Caller | null, subject: ProjectSubject, issue: IssueParties): boolean {
  if (!can(user, 'read_issue', subject)) return false;
  return !issue.confidential || involved(user, issue) || can(user, 'read_confidential_issues', subject);
}

/** GitLab's `update_issue`: the author, an assignee, or reporter and above (admins included). */
export function canUpdateIssue(user: Caller | null, subject: ProjectSubject, issue: IssueParties): boolean {
  return canReadIssue(user, subject, issue) && (involved(user, issue) || can(user, 'admin_issue', subject));
}
