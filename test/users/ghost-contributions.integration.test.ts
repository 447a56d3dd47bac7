/**
 * What becomes of a deleted user's contributions (GitLab's `Users::DestroyService` and
 * `Users::MigrateRecordsToGhostUserService`): without `hard_delete` its issues and merge requests
 * move to the ghost user — found by `author_id=<ghost>` with exact totals, no longer by the
 * deleted id, every count unchanged; with `hard_delete=true` they are
 * deleted, with its comments, and the counts drop. Deletion runs in the background: the tests
 * poll for its outcome. On the local runtime the deletion job is also run again (as a retry after
 * a crash would), which changes nothing more. Feed events, award emoji and system notes:
 * `deleted-user-records.integration.test.ts`.
 */
import { describe, expect, it } from 'vitest';
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { indexProjectNoteAuthors, removeAuthoredIssues } from '../../shared/issues';
import { noteableKeys } from '../../shared/issues/store/keys';
import { db, tableName } from '../../shared/platform/dynamo/client';
import { removeAuthoredMergeRequests } from '../../shared/merge-requests';
import { runUserDeletion } from '../../shared/users';
import { ensureGhostUser } from '../../shared/users/ghost';
import { getUserRecord } from '../../shared/users/store/users';
import { api, isLocalRuntime, rootToken } from '../support/api';
import { addMember, createProject, createUser, openIssue, openIssuesCount, unique, type TestUser } from '../support/fixtures';
import { eventually } from '../support/eventually';
import { commit, mrs, openMergeRequest } from '../merge-requests/helpers';
// The composition root declares the removal steps the job runs (loaded here for the re-runs).
import '../../functions/api';

const root = () => ({ token: rootToken() });

/** Deletions run in the background (the local runtime's worker), slower on a busy machine. */
const DELETION_TIMEOUT = { timeout: 180_000 };
const WAIT = 120_000;

interface Contributions {
  user: TestUser;
  assignee: TestUser;
  project: number;
  milestone: { id: number; title: string };
  label: string;
  /** The user's issues: one open with label, milestone and assignee; one closed. */
  labelled: number;
  closed: number;
  /** Root's issue, which the user commented on. */
  others: number;
  mergeRequest: number;
}

/**
 * A developer of a fresh public project of root's with two issues (one open with a label, a
 * milestone and an assignee; one closed), a merge request, and comments on its own issue, on
 * root's issue and on its merge request.
 */
async function contributions(): Promise<Contributions> {
  const [user, assignee] = await Promise.all([createUser(), createUser()]);
  const project = (await createProject(rootToken(), { visibility: 'public' })).id;
  await addMember('projects', project, user.id, 30);
  await addMember('projects', project, assignee.id, 30);
  const milestone = (await api(`/projects/${project}/milestones`, { ...root(), body: { title: unique('m') } })).body;
  const label = unique('bug');
  const labelled = (await openIssue(project, user.token, { labels: label, milestone_id: milestone.id, assignee_ids: [assignee.id] })).iid;
  const closed = (await openIssue(project, user.token)).iid;
  expect((await api(`/projects/${project}/issues/${closed}`, { token: user.token, method: 'PUT', body: { state_event: 'close' } })).status).toBe(200);
  const others = (await openIssue(project, rootToken())).iid;
  await commit(project, rootToken(), 'main', { 'README.md': '# readme\n' });
  await commit(project, rootToken(), 'feature', { 'feature.txt': 'feature\n' }, { start: 'main' });
  const mergeRequest = (await openMergeRequest(project, user.token, { source_branch: 'feature' })).iid;
  for (const path of [`/issues/${labelled}/notes`, `/issues/${others}/notes`, `/merge_requests/${mergeRequest}/notes`]) {
    expect((await api(`/projects/${project}${path}`, { token: user.token, body: { body: 'my comment' } })).status).toBe(201);
  }
  return { user, assignee, project, milestone, label, labelled, closed, others, mergeRequest };
}

/** The iids and `X-Total` of a project's issues (all states) under `query`, read as root. */
async function issues(project: number, query: Record<string, string | number> = {}): Promise<{ iids: number[]; total: string | null }> {
  const response = await api<Array<{ iid: number }>>(`/projects/${project}/issues`, { ...root(), query: { per_page: 100, ...query } });
  expect(response.status).toBe(200);
  return { iids: response.body.map((issue) => issue.iid).sort((a, b) => a - b), total: response.headers.get('x-total') };
}

/** The iids of a project's merge requests (all states) under `query`, read as root. */
async function mergeRequests(project: number, query: Record<string, string | number> = {}): Promise<number[]> {
  const response = await api<Array<{ iid: number }>>(mrs(project), { ...root(), query: { state: 'all', per_page: 100, ...query } });
  expect(response.status).toBe(200);
  return response.body.map((mr) => mr.iid);
}

/** A label's counts, as `GET /projects/:id/labels?with_counts=true` shows them. */
async function labelCounts(project: number, name: string): Promise<{ open_issues_count: number; closed_issues_count: number }> {
  const labels = await api<Array<{ name: string; open_issues_count: number; closed_issues_count: number }>>(`/projects/${project}/labels`, {
    ...root(),
    query: { with_counts: true },
  });
  const label = labels.body.find((candidate) => candidate.name === name)!;
  return { open_issues_count: label.open_issues_count, closed_issues_count: label.closed_issues_count };
}

/** The ghost user (made at the latest by the first deletion, in the background). */
function ghostUser(): Promise<{ id: number; username: string }> {
  return eventually(async () => {
    const found = await api<Array<{ id: number; username: string; name: string }>>('/users', { ...root(), query: { search: 'Ghost User', per_page: 100 } });
    const ghost = found.body.find((user) => user.name === 'Ghost User');
    expect(ghost).toBeDefined();
    return ghost!;
  }, WAIT);
}

/** Local runtime: waits until the deletion job has removed the user's record (its last step). */
const deletionFinished = (userId: number) => eventually(async () => expect(await getUserRecord(userId)).toBeUndefined(), WAIT);

/** Everything the tests compare before and after a deletion that moves the contributions. */
async function snapshot(c: Contributions, authorId: number) {
  return {
    byAuthor: await issues(c.project, { author_id: authorId }),
    all: await issues(c.project),
    opened: await issues(c.project, { state: 'opened' }),
    byLabel: await issues(c.project, { labels: c.label }),
    byMilestone: await issues(c.project, { milestone: c.milestone.title }),
    byAssignee: await issues(c.project, { assignee_id: c.assignee.id }),
    label: await labelCounts(c.project, c.label),
    openIssues: await openIssuesCount({ id: c.project }),
    mergeRequests: await mergeRequests(c.project, { author_id: authorId }),
  };
}

describe('DELETE /users/:id: the contributions move to the ghost user', DELETION_TIMEOUT, () => {
  it('moves its issues and merge requests, with exact totals and unchanged counts', async () => {
    // Arrange
    const c = await contributions();
    const before = await snapshot(c, c.user.id);
    expect(before.byAuthor).toEqual({ iids: [c.labelled, c.closed], total: '2' });

    // Act
    expect((await api(`/users/${c.user.id}`, { ...root(), method: 'DELETE' })).status).toBe(200);

    // Assert: found under the ghost (no other deleted user wrote in this project), not the old id.
    const ghost = await ghostUser();
    await eventually(async () => expect((await issues(c.project, { author_id: ghost.id })).total).toBe('2'), WAIT);
    await eventually(async () => expect(await mergeRequests(c.project, { author_id: ghost.id })).toEqual([c.mergeRequest]), WAIT);
    expect(await snapshot(c, ghost.id)).toEqual(before);
    expect(await issues(c.project, { author_id: c.user.id })).toEqual({ iids: [], total: '0' });
    expect(await mergeRequests(c.project, { author_id: c.user.id })).toEqual([]);
    // By username as well (GitLab's `author_username`): the ghost's finds them, the deleted one's nothing.
    expect((await issues(c.project, { author_username: ghost.username })).total).toBe('2');
    expect(await issues(c.project, { author_username: c.user.username })).toEqual({ iids: [], total: '0' });
    const issue = await api(`/projects/${c.project}/issues/${c.labelled}`, root());
    expect(issue.body).toMatchObject({ author: { id: ghost.id, username: ghost.username }, labels: [c.label], milestone: { id: c.milestone.id }, user_notes_count: 1 });
    // Its comments stay, shown under the ghost once its record is gone (the job's last step).
    await eventually(async () => {
      const notes = await api<Array<{ body: string; system: boolean; author: { id: number } }>>(`/projects/${c.project}/issues/${c.others}/notes`, root());
      expect(notes.body.filter((note) => !note.system)).toEqual([expect.objectContaining({ body: 'my comment', author: expect.objectContaining({ id: ghost.id }) })]);
    }, WAIT);
  });

  it.runIf(isLocalRuntime())('finishes a run interrupted after the issues moved, and a run again changes nothing', async () => {
    // Arrange: a first run that moved the issues, then stopped (the user is still there).
    const c = await contributions();
    const before = await snapshot(c, c.user.id);
    const ghost = await ensureGhostUser();
    const record = (await getUserRecord(c.user.id))!;
    await removeAuthoredIssues(record, {}, { ghost });

    // Act: the job runs (again), then once more after it finished.
    expect((await api(`/users/${c.user.id}`, { ...root(), method: 'DELETE' })).status).toBe(200);
    await deletionFinished(c.user.id);
    await runUserDeletion(c.user.id);
    await expect(removeAuthoredIssues(record, {}, { ghost })).resolves.toBe(0);

    // Assert: every count as before, every contribution the ghost's once.
    expect(await snapshot(c, ghost.id)).toEqual(before);
    expect(await issues(c.project, { author_id: c.user.id })).toEqual({ iids: [], total: '0' });
  });
});

describe('DELETE /users/:id: a deleted reviewer reviews nothing', DELETION_TIMEOUT, () => {
  it('takes the user off the merge requests it was asked to review, in every index', async () => {
    // Arrange: root's merge request, reviewed by the user.
    const reviewer = await createUser();
    const project = (await createProject(rootToken(), { visibility: 'public' })).id;
    await addMember('projects', project, reviewer.id, 30);
    await commit(project, rootToken(), 'main', { 'README.md': '# readme\n' });
    await commit(project, rootToken(), 'review', { 'review.txt': 'r\n' }, { start: 'main' });
    const mr = await openMergeRequest(project, rootToken(), { source_branch: 'review', reviewer_ids: [reviewer.id] });
    expect(await mergeRequests(project, { reviewer_id: 'Any' })).toEqual([mr.iid]);

    // Act
    expect((await api(`/users/${reviewer.id}`, { ...root(), method: 'DELETE' })).status).toBe(200);

    // Assert: GitLab's reviewer rows go with their user.
    await eventually(async () => expect(await mergeRequests(project, { reviewer_id: 'Any' })).toEqual([]), WAIT);
    expect((await api(mrs(project, `/${mr.iid}`), root())).body.reviewers).toEqual([]);
    expect(await mergeRequests(project, { reviewer_id: 'None' })).toEqual([mr.iid]);
  });
});

describe('DELETE /users/:id?hard_delete=true: the contributions go with the user', DELETION_TIMEOUT, () => {
  it('deletes its issues, merge requests and comments, and the counts drop', async () => {
    // Arrange
    const c = await contributions();
    const openBefore = await openIssuesCount({ id: c.project });

    // Act
    expect((await api(`/users/${c.user.id}`, { ...root(), method: 'DELETE', query: { hard_delete: true } })).status).toBe(200);

    // Assert
    await eventually(async () => expect((await api(`/projects/${c.project}/issues/${c.labelled}`, root())).status).toBe(404), WAIT);
    await eventually(async () => expect((await api(mrs(c.project, `/${c.mergeRequest}`), root())).status).toBe(404), WAIT);
    await eventually(async () => {
      const others = await api(`/projects/${c.project}/issues/${c.others}`, root());
      expect(others.body.user_notes_count).toBe(0);
    }, WAIT);
    expect((await api(`/projects/${c.project}/issues/${c.closed}`, root())).status).toBe(404);
    expect(await issues(c.project)).toEqual({ iids: [c.others], total: '1' });
    expect(await issues(c.project, { labels: c.label })).toEqual({ iids: [], total: '0' });
    expect(await issues(c.project, { milestone: c.milestone.title })).toEqual({ iids: [], total: '0' });
    expect(await labelCounts(c.project, c.label)).toEqual({ open_issues_count: 0, closed_issues_count: 0 });
    expect(await openIssuesCount({ id: c.project })).toBe(openBefore - 1);
    expect(await mergeRequests(c.project)).toEqual([]);
    const notes = await api<Array<{ system: boolean }>>(`/projects/${c.project}/issues/${c.others}/notes`, root());
    expect(notes.body.filter((note) => !note.system)).toEqual([]);
    const ghost = await ghostUser();
    expect(await issues(c.project, { author_id: ghost.id })).toEqual({ iids: [], total: '0' });
  });

  it.runIf(isLocalRuntime())('run again, deletes nothing more', async () => {
    // Arrange: a user whose issues, merge request and comments were deleted with it.
    const c = await contributions();
    const record = (await getUserRecord(c.user.id))!;
    expect((await api(`/users/${c.user.id}`, { ...root(), method: 'DELETE', query: { hard_delete: true } })).status).toBe(200);
    await deletionFinished(c.user.id);
    const after = await issues(c.project);

    // Act: the job again, and its steps again (the user record is gone, so the job stops early).
    await runUserDeletion(c.user.id, { hardDelete: true });
    const ghost = await ensureGhostUser();
    await expect(removeAuthoredIssues(record, { hardDelete: true }, { ghost })).resolves.toBe(0);
    await expect(removeAuthoredMergeRequests(record, { hardDelete: true }, { ghost })).resolves.toBe(0);

    // Assert
    expect(await issues(c.project)).toEqual(after);
    expect(after).toEqual({ iids: [c.others], total: '1' });
    expect(await openIssuesCount({ id: c.project })).toBe(1);
  });

  it.runIf(isLocalRuntime())('deletes a comment written before the author index once the data migration indexed it', async () => {
    // Arrange: the user's comment on root's issue as written before the index (no GSI2 attributes).
    const c = await contributions();
    const notes = await api<Array<{ id: number; system: boolean }>>(`/projects/${c.project}/issues/${c.others}/notes`, root());
    const comment = notes.body.find((note) => !note.system)!;
    const key = noteableKeys.note({ type: 'Issue', projectId: c.project, iid: c.others }, comment.id);
    await db().send(new UpdateCommand({ TableName: tableName(), Key: key, UpdateExpression: 'REMOVE GSI2PK, GSI2SK' }));

    // Act
    const indexed = await indexProjectNoteAuthors(c.project);
    expect((await api(`/users/${c.user.id}`, { ...root(), method: 'DELETE', query: { hard_delete: true } })).status).toBe(200);
    await deletionFinished(c.user.id);

    // Assert: only that note lacked its entry; it went with the user, and a second migration finds nothing.
    expect(indexed).toBe(1);
    expect((await api(`/projects/${c.project}/issues/${c.others}/notes/${comment.id}`, root())).status).toBe(404);
    expect((await api(`/projects/${c.project}/issues/${c.others}`, root())).body.user_notes_count).toBe(0);
    expect(await indexProjectNoteAuthors(c.project)).toBe(0);
  });
});
