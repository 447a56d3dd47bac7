/**
 * Linking issues (GitLab's `IssueLinks::CreateService`, `IssueLinks::DestroyService`): the routes
 * found both issues as the caller may read them; here GitLab's order of answers is kept: a pair
 * linked already (either direction) 409 `Issue(s) already assigned`, then the permission (the
 * right to link on both issues: `admin_issue_link`, guest and above since GitLab 17.0) 403, then
 * an issue linked to itself 422. Both issues get a system note in the link's transaction.
 */
import { can, type ProjectSubject } from '../../auth';
import { nextId } from '../../platform/dynamo/counters';
import { ApiError, ConflictError, NotFoundError } from '../../platform/http/errors';
import { projectFullPath } from '../../projects';
import type { User } from '../../users';
import { canReadIssue } from '../policy';
import { getLinkBetween, insertIssueLink, removeIssueLink, type IssueLink, type LinkType } from '../store/issue-links';
import { issueNoteable, type Issue } from '../store/issues';
import { issueSequences } from '../store/keys';
import { systemNotePuts } from './note-effects';

/** An issue with the project it is in, as the caller sees it. */
export interface SubjectIssue {
  subject: ProjectSubject;
  issue: Issue;
}

/** GitLab's refusal when the caller may not link on both sides (`IssueLinks::CreateService`). */
const NO_PERMISSION = "Couldn't link issues. You must have at least the Guest role in both projects.";

/** Internal: GitLab's `admin_issue_link` on one issue (a member of its project, guest and above, who can read it). */
const canLink = (user: User, { subject, issue }: SubjectIssue) => canReadIssue(user, subject, issue) && can(user, 'admin_issue_link', subject);

/** Internal: `#7` from the same project, `group/project#7` from another (GitLab's `to_reference`). */
const reference = (to: SubjectIssue, from: SubjectIssue) =>
  to.subject.project.id === from.subject.project.id ? `#${to.issue.iid}` : `${projectFullPath(to.subject.namespace, to.subject.project)}#${to.issue.iid}`;

/** Internal: `SystemNotes::IssuablesService#relate_issuable`'s wording, by the type seen from the noted issue. */
const relateNote = (type: LinkType, other: string) =>
  type === 'blocks' ? `marked this issue as blocking ${other}` : type === 'is_blocked_by' ? `marked this issue as blocked by ${other}` : `marked this issue as related to ${other}`;

const INVERSE: Record<LinkType, LinkType> = { relates_to: 'relates_to', blocks: 'is_blocked_by', is_blocked_by: 'blocks' };

/**
 * Links `source` to `target` with `linkType` (default `relates_to`).
 * @throws ConflictError when they are linked already; ApiError 403 without the right to link on
 *   either; ApiError 422 for an issue linked to itself; NotFoundError `Project` when a project went.
 */
export async function createIssueLink(user: User, source: SubjectIssue, target: SubjectIssue, linkType: LinkType = 'relates_to'): Promise<IssueLink> {
  const self = source.issue.id === target.issue.id;
  if (!self && (await getLinkBetween(source.issue.projectId, source.issue.iid, target.issue.projectId, target.issue.iid))) {
    throw new ConflictError('Issue(s) already assigned');
  }
  if (!canLink(user, source) || !canLink(user, target)) throw new ApiError(403, { message: NO_PERMISSION });
  if (self) throw new ApiError(422, { message: `${reference(target, source)} cannot be added: cannot be related to itself` });
  const now = new Date().toISOString();
  const link: IssueLink = {
    id: await nextId(issueSequences.issueLinks),
    sourceProjectId: source.issue.projectId,
    sourceIid: source.issue.iid,
    targetProjectId: target.issue.projectId,
    targetIid: target.issue.iid,
    linkType,
    createdAt: now,
    updatedAt: now,
  };
  const notes = (
    await Promise.all([
      systemNotePuts(issueNoteable(source.issue), user, [relateNote(linkType, reference(target, source))]),
      systemNotePuts(issueNoteable(target.issue), user, [relateNote(INVERSE[linkType], reference(source, target))]),
    ])
  ).flat();
  const failure = await insertIssueLink(link, notes);
  if (failure === 'project_gone') throw new NotFoundError('Project');
  if (failure === 'linked') throw new ConflictError('Issue(s) already assigned');
  return link;
}

/**
 * Removes a link between `source` and `target` (as stored); answers the link as it was.
 * @throws ApiError 404 `No Issue Link found` without the right to link on both issues (GitLab's
 *   `IssueLinks::DestroyService`), or when a racing request removed it first.
 */
export async function deleteIssueLink(user: User, link: IssueLink, source: SubjectIssue, target: SubjectIssue): Promise<IssueLink> {
  const notFound = new ApiError(404, { message: 'No Issue Link found' });
  if (!canLink(user, source) || !canLink(user, target)) throw notFound;
  const notes = (
    await Promise.all([
      systemNotePuts(issueNoteable(source.issue), user, [`removed the relation with ${reference(target, source)}`]),
      systemNotePuts(issueNoteable(target.issue), user, [`removed the relation with ${reference(source, target)}`]),
    ])
  ).flat();
  if ((await removeIssueLink(link, notes)) === 'gone') throw notFound;
  return link;
}
