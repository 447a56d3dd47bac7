/**
 * The samples of a project hook's tests (GitLab's `TestHooks::ProjectService`): `issues_events`
 * and `confidential_issues_events` send the project's first issue (lowest iid) as opened;
 * `note_events` a comment of the project's issues (the first issue with one, its first). Each is one
 * Query of the project's partition, read until the first match. Loaded on first use by the hooks
 * function's composition root.
 */
import type { HookEvent, HookTestSample } from '../../hooks';
import { queryCollection } from '../../platform/dynamo/query';
import type { Project } from '../../projects';
import type { User } from '../../users';
import { getIssue, issueFromItem } from '../store/issues';
import { issueCollections } from '../store/keys';
import { noteFromItem, type IssueNote } from '../store/notes';
import './events';

const common = (project: Project, user: User, kind: string, action: string) => ({ id: 0, projectId: project.id, actorId: user.id, kind, action, createdAt: new Date().toISOString() });

/** The project's first issue (not deleted), as opened. */
export async function issueTestSample(project: Project, user: User): Promise<HookTestSample> {
  for await (const item of queryCollection(issueCollections.projectIssueItems(project.id), { pageSize: 10 })) {
    const issue = issueFromItem(item);
    if (issue.deletedAt) continue;
    return { event: { ...common(project, user, 'issue', 'open'), issue, previous: null } as unknown as HookEvent };
  }
  return { error: 'Ensure the project has issues.' };
}

/** A comment of the project's issues (not a system note), with its issue. */
export async function noteTestSample(project: Project, user: User): Promise<HookTestSample> {
  for await (const item of queryCollection(issueCollections.projectIssueNotes(project.id), { pageSize: 20 })) {
    const note = noteFromItem(item) as IssueNote;
    if (note.system) continue;
    const issue = await getIssue(project.id, note.issueIid);
    if (!issue || issue.deletedAt) continue;
    return { event: { ...common(project, user, 'note', 'create'), note, issue } as unknown as HookEvent };
  }
  return { error: 'Ensure the project has notes.' };
}
