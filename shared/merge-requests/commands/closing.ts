/**
 * The issues a merge request closes (GitLab's `MergeRequest#closes_issues`): when it targets the
 * project's default branch, the issues its title, description and commit messages reference with
 * the closing pattern (`closing-issues.ts`), in this project or another (`group/project#n`), that
 * the user can read.
 */
import type { ProjectSubject } from '../../auth';
import { config } from '../../platform/config';
import { ApiError } from '../../platform/http/errors';
import { findProjectOrNotFound } from '../../projects';
import type { User } from '../../users';
import { closingReferences } from '../closing-issues';
import { canReadIssue, findIssue, type Issue } from '../issuables';
import type { ClosingRef, MergeRequest } from '../store/merge-requests';

/** An issue a merge request closes, with its project as the user sees it. */
export interface ClosedIssue {
  issue: Issue;
  subject: ProjectSubject;
}

/** The issues `texts` close for `mr` (in `target`), as `user` may read them. */
export async function closingIssues(mr: Pick<MergeRequest, 'targetBranch'>, target: ProjectSubject, user: User | null, texts: string[]): Promise<ClosedIssue[]> {
  if (mr.targetBranch !== target.project.defaultBranch) return [];
  const references = closingReferences(texts.filter(Boolean).join('\n'), config().externalUrl);
  const subjects = new Map<string, ProjectSubject | null>();
  const found: ClosedIssue[] = [];
  for (const reference of references) {
    const path = reference.path;
    let subject: ProjectSubject | null | undefined = path === undefined ? target : subjects.get(path);
    if (subject === undefined) {
      try {
        subject = await findProjectOrNotFound(path!, user);
      } catch (error) {
        if (!(error instanceof ApiError) || error.statusCode !== 404) throw error;
        subject = null;
      }
      subjects.set(path!, subject);
    }
    if (!subject) continue;
    const issue = await findIssue(subject.project.id, reference.iid);
    if (issue && canReadIssue(user, subject, issue) && !found.some((f) => f.issue.id === issue.id)) found.push({ issue, subject });
  }
  return found;
}

export const refsOf = (issues: ClosedIssue[]): ClosingRef[] => issues.map(({ issue }) => ({ projectId: issue.projectId, iid: issue.iid }));
