/**
 * Reads of issue links: an issue's linked issues as the caller may read them (GitLab's
 * `Issue#related_issues(current_user)`), and one link of an issue by id with both its issues.
 */
import type { ProjectSubject } from '../../auth';
import { NotFoundError, RecordNotFoundError } from '../../platform/http/errors';
import type { User } from '../../users';
import type { SubjectIssue } from '../commands/issue-links';
import { canReadIssue } from '../policy';
import { findIssueLink, listIssueLinks, type IssueLink, type LinkSide } from '../store/issue-links';
import { getIssues, type Issue } from '../store/issues';
import { projectSubjects } from './issues';

/** A linked issue the caller can read, with the link seen from the issue it was listed for. */
export interface LinkedIssue {
  side: LinkSide;
  issue: Issue;
  subject: ProjectSubject;
}

/**
 * The issues linked to `issue` that `user` can read (not deleted, in a project they can read the
 * issues of, confidential ones only as `read_issue` allows), oldest link first. One Query of the
 * issue's links, one BatchGetItem of the other issues, one of their projects.
 */
export async function linkedIssues(user: User, issue: Issue): Promise<LinkedIssue[]> {
  const sides = await listIssueLinks(issue.projectId, issue.iid);
  if (sides.length === 0) return [];
  const [issueOf, subjects] = await Promise.all([
    getIssues(sides.map((side) => ({ projectId: side.otherProjectId, iid: side.otherIid }))),
    projectSubjects(user, [...new Set(sides.map((side) => side.otherProjectId))]),
  ]);
  return sides.flatMap((side) => {
    const other = issueOf(side.otherProjectId, side.otherIid);
    const subject = subjects.get(side.otherProjectId);
    if (!other || other.deletedAt || !subject || subject.namespace.deleting || !canReadIssue(user, subject, other)) return [];
    return [{ side, issue: other, subject }];
  });
}

/** A link with its source and target issues, both readable by the caller. */
export interface FoundLink {
  link: IssueLink;
  source: SubjectIssue;
  target: SubjectIssue;
}

/**
 * One link of `issue` (found by the caller in `subject`) by id, either direction, with both
 * issues. GitLab's `IssueLink.for_source_or_target(issue).find(id)`, then the link's other issue as
 * the caller may read it.
 * @throws RecordNotFoundError (`404 Not found`) when the issue has no such link; NotFoundError
 *   `Issue` when the other issue is gone or not readable.
 */
export async function findLinkOrNotFound(subject: ProjectSubject, user: User, issue: Issue, linkId: number): Promise<FoundLink> {
  const side = await findIssueLink(issue.projectId, issue.iid, linkId);
  if (!side) throw new RecordNotFoundError();
  const [issueOf, subjects] = await Promise.all([
    getIssues([{ projectId: side.otherProjectId, iid: side.otherIid }]),
    side.otherProjectId === subject.project.id ? new Map([[subject.project.id, subject]]) : projectSubjects(user, [side.otherProjectId]),
  ]);
  const other = issueOf(side.otherProjectId, side.otherIid);
  const otherSubject = subjects.get(side.otherProjectId);
  if (!otherSubject || otherSubject.namespace.deleting) throw new NotFoundError('Project');
  if (!other || other.deletedAt || !canReadIssue(user, otherSubject, other)) throw new NotFoundError('Issue');
  const here: SubjectIssue = { subject, issue };
  const there: SubjectIssue = { subject: otherSubject, issue: other };
  const isSource = side.link.sourceProjectId === issue.projectId && side.link.sourceIid === issue.iid;
  return { link: side.link, source: isSource ? here : there, target: isSource ? there : here };
}
