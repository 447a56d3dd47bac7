/**
 * An issue's related merge requests (GitLab's `Issue#related_merge_requests` via
 * `ReferencedMergeRequestsService`): those that mention it in their title or description and those
 * that close it, as recorded (`MR_MENTIONED#`, `MR_CLOSING#`: one range each in the issue's
 * partition), the caller may read; and the issues a merge request's texts mention, to record.
 */
import { can, type ProjectSubject } from '../../auth';
import { config } from '../../platform/config';
import { getMany } from '../../platform/dynamo/batch';
import { ApiError } from '../../platform/http/errors';
import { findProjectOrNotFound } from '../../projects';
import type { User } from '../../users';
import { mentionedReferences } from '../closing-issues';
import { canReadIssue, findIssue, type Issue } from '../issuables';
import { mergeRequestKeys } from '../store/keys';
import { closedByRefs, mergeRequestFromItem, type MergeRequest } from '../store/merge-requests';
import { MAX_MENTIONS, mentionedByRefs, type IssuableRef } from '../store/related';
import { projectSubjects } from './merge-requests';

/**
 * The merge requests related to `issue` that `user` may read (not deleted, `read_merge_request`
 * on their target project), oldest first, with the subjects of their projects.
 */
export async function relatedMergeRequests(user: User, issue: Pick<Issue, 'projectId' | 'iid'>): Promise<{ mergeRequests: MergeRequest[]; subjects: Map<number, ProjectSubject> }> {
  const [mentioned, closing] = await Promise.all([mentionedByRefs(issue.projectId, issue.iid), closedByRefs(issue.projectId, issue.iid)]);
  const refs = [...new Map([...mentioned, ...closing].map((ref) => [`${ref.projectId}#${ref.iid}`, ref])).values()];
  const mrs = (await getMany(refs.map((ref) => mergeRequestKeys.mergeRequest(ref.projectId, ref.iid)))).map(mergeRequestFromItem).filter((mr) => !mr.deletedAt);
  const subjects = await projectSubjects(user, [...new Set(mrs.map((mr) => mr.projectId))]);
  const readable = mrs.filter((mr) => subjects.has(mr.projectId) && can(user, 'read_merge_request', subjects.get(mr.projectId)!));
  return { mergeRequests: readable.sort((a, b) => a.id - b.id), subjects };
}

/**
 * The issues `texts` (a merge request's title and description) mention, in `target` or another
 * project (`group/project#n`), that `user` can read, each once, at most {@link MAX_MENTIONS}: what
 * a merge request write records (`mentionEntries`).
 */
export async function mentionedIssues(target: ProjectSubject, user: User, texts: string[]): Promise<IssuableRef[]> {
  return (await readableMentions(target, user, texts, MAX_MENTIONS)).map(({ issue }) => ({ projectId: issue.projectId, iid: issue.iid }));
}

/** The most issues `related_issues` lists (its texts are read whole; each reference costs a read). */
export const MAX_RELATED_ISSUES = 100;

/**
 * A merge request's related issues (GitLab's `MergeRequest#related_issues`): those its title,
 * description, commit messages (the latest version's) and comments reference, closing or not,
 * that `user` can read, each once in the order they are first referenced, at most
 * {@link MAX_RELATED_ISSUES}; with their projects as `user` sees them.
 */
export const relatedIssues = (target: ProjectSubject, user: User | null, texts: string[]): Promise<Array<{ issue: Issue; subject: ProjectSubject }>> =>
  readableMentions(target, user, texts, MAX_RELATED_ISSUES);

/** Internal: the issues `texts` reference that `user` can read, each once, at most `limit`. */
async function readableMentions(target: ProjectSubject, user: User | null, texts: string[], limit: number): Promise<Array<{ issue: Issue; subject: ProjectSubject }>> {
  const references = mentionedReferences(texts.filter(Boolean).join('\n'), config().externalUrl);
  const subjects = new Map<string, ProjectSubject | null>();
  const found: Array<{ issue: Issue; subject: ProjectSubject }> = [];
  for (const reference of references) {
    if (found.length >= limit) break;
    let subject: ProjectSubject | null | undefined = reference.path === undefined ? target : subjects.get(reference.path);
    if (subject === undefined) {
      subject = await findProjectOrNotFound(reference.path!, user).catch((error: unknown) => {
        if (error instanceof ApiError && error.statusCode === 404) return null;
        throw error;
      });
      subjects.set(reference.path!, subject);
    }
    if (!subject) continue;
    const issue = await findIssue(subject.project.id, reference.iid);
    if (issue && canReadIssue(user, subject, issue) && !found.some((f) => f.issue.id === issue.id)) found.push({ issue, subject });
  }
  return found;
}
