/**
 * The last records of a deleted user (GitLab's `Users::DestroyService` and
 * `Users::MigrateRecordsToGhostUserService`): its contribution events leave every feed (GitLab's
 * `events.author_id` cascades), with or without `hard_delete`; its award emoji move to the ghost
 * user (the votes stay; an award the ghost already holds on that awardable is deleted, as GitLab's
 * unique index would refuse it) or, with `hard_delete`, are deleted with their votes (on issues and
 * on merge requests); with
 * `hard_delete` its system notes go with its comments. Deletion runs in the background: the tests
 * poll for its outcome. On the local runtime the removal steps are run again after the job
 * finished (as a retry after a crash would), which changes nothing more.
 */
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import { deleteUserAwards, indexProjectAwardUsers, indexProjectNoteAuthors, reassignUserAwards } from '../../shared/issues';
import { issueKeys, noteableKeys } from '../../shared/issues/store/keys';
import { db, tableName } from '../../shared/platform/dynamo/client';
import { getItem } from '../../shared/platform/dynamo/query';
import { deleteUserEvents, recordEvent } from '../../shared/projects';
import { ensureGhostUser } from '../../shared/users/ghost';
import { getUserRecord } from '../../shared/users/store/users';
import { api, isLocalRuntime, rootToken } from '../support/api';
import { eventually } from '../support/eventually';
import { addMember, createProject, createUser, openIssue, type TestUser } from '../support/fixtures';
import { commit, openMergeRequest } from '../merge-requests/helpers';

const root = () => ({ token: rootToken() });

/** Deletions run in the background (the local runtime's worker), slower on a busy machine. */
const DELETION_TIMEOUT = { timeout: 180_000 };
const WAIT = 120_000;

interface FeedEvent {
  id: number;
  author_id: number;
  action_name: string;
}

/** A project's feed as root reads it: the events and `X-Total`. */
async function projectFeed(project: number): Promise<{ events: FeedEvent[]; total: string | null }> {
  const response = await api<FeedEvent[]>(`/projects/${project}/events`, { ...root(), query: { per_page: 100 } });
  expect(response.status).toBe(200);
  return { events: response.body, total: response.headers.get('x-total') };
}

/** Deletes a user (as root) and waits for the job to finish: the user's record gone, or `GET /users/:id` 404 on a stage. */
async function deleteUser(user: TestUser, hardDelete = false): Promise<void> {
  const response = await api(`/users/${user.id}`, { ...root(), method: 'DELETE', query: hardDelete ? { hard_delete: true } : {} });
  expect(response.status).toBe(200);
  await eventually(async () => {
    if (isLocalRuntime()) expect(await getUserRecord(user.id)).toBeUndefined();
    else expect((await api(`/users/${user.id}`, root())).status).toBe(404);
  }, WAIT);
}

/** Root's user id. */
async function rootId(): Promise<number> {
  return (await api('/user', root())).body.id;
}

/** A developer of a fresh public project of root's, with root's issue and root's comment on it. */
async function setting() {
  const user = await createUser();
  const project = (await createProject(rootToken(), { visibility: 'public' })).id;
  await addMember('projects', project, user.id, 30);
  const issue = (await openIssue(project, rootToken())).iid as number;
  const note = await api(`/projects/${project}/issues/${issue}/notes`, { ...root(), body: { body: 'root comments' } });
  expect(note.status).toBe(201);
  return { user, project, issue, note: note.body.id as number };
}

/** Awards `name` on an issue (or one of its notes) as `token`'s user (201 asserted). */
async function award(project: number, issue: number, token: string, name: string, note?: number) {
  const path = note === undefined ? `/projects/${project}/issues/${issue}/award_emoji` : `/projects/${project}/issues/${issue}/notes/${note}/award_emoji`;
  const response = await api(path, { token, body: { name } });
  expect(response.status, JSON.stringify(response.body)).toBe(201);
  return response.body as { id: number };
}

/** The awards of an issue (or of one of its notes) as root reads them: name and user id, and `X-Total`. */
async function awards(project: number, issue: number, note?: number): Promise<{ awards: Array<{ name: string; user: number }>; total: string | null }> {
  const path = note === undefined ? `/projects/${project}/issues/${issue}/award_emoji` : `/projects/${project}/issues/${issue}/notes/${note}/award_emoji`;
  const response = await api<Array<{ name: string; user: { id: number } }>>(path, root());
  expect(response.status).toBe(200);
  return { awards: response.body.map((entry) => ({ name: entry.name, user: entry.user.id })), total: response.headers.get('x-total') };
}

/** An issue's vote counters as root reads them. */
async function votes(project: number, issue: number): Promise<{ upvotes: number; downvotes: number }> {
  const { upvotes, downvotes } = (await api(`/projects/${project}/issues/${issue}`, root())).body;
  return { upvotes, downvotes };
}

describe('DELETE /users/:id: the user leaves every feed', DELETION_TIMEOUT, () => {
  it.each([false, true])('deletes its events from the project feed (hard_delete=%s), with an exact X-Total', async (hardDelete) => {
    // Arrange: the user joined (root added it), opened an issue and commented on root's.
    const { user, project, issue } = await setting();
    await openIssue(project, user.token);
    expect((await api(`/projects/${project}/issues/${issue}/notes`, { token: user.token, body: { body: 'mine' } })).status).toBe(201);
    const before = await projectFeed(project);
    const others = before.events.filter((event) => event.author_id !== user.id);
    expect(before.events.filter((event) => event.author_id === user.id).map((event) => event.action_name).sort()).toEqual(['commented on', 'joined', 'opened']);

    // Act
    await deleteUser(user, hardDelete);

    // Assert: root's own events stay, in the project feed and in root's feeds.
    const after = await projectFeed(project);
    expect(after.events.map((event) => event.id)).toEqual(others.map((event) => event.id));
    expect(after.total).toBe(String(others.length));
    const rootFeed = await api<FeedEvent[]>('/events', { ...root(), query: { per_page: 100 } });
    expect(rootFeed.body.some((event) => event.author_id === user.id)).toBe(false);
    expect((await api(`/users/${user.id}/events`, root())).status).toBe(404);
  });

  it.runIf(isLocalRuntime())('run again, deletes nothing more, and an event the deleted user would record is refused', async () => {
    // Arrange
    const { user, project } = await setting();
    await openIssue(project, user.token);
    await deleteUser(user);
    const after = await projectFeed(project);

    // Act
    const again = await deleteUserEvents(user.id);
    const late = await recordEvent({ projectId: project, authorId: user.id, actionName: 'left' });

    // Assert
    expect(again).toBe(0);
    expect(late).toBeUndefined();
    expect(await projectFeed(project)).toEqual(after);
  });
});

describe('DELETE /users/:id: the award emoji move to the ghost user', DELETION_TIMEOUT, () => {
  it('moves its awards with their votes, and deletes one the ghost already holds there', async () => {
    // Arrange: two users vote up root's issue; one also reacts to root's comment.
    const { user, project, issue, note } = await setting();
    const second = await createUser();
    await addMember('projects', project, second.id, 30);
    await award(project, issue, user.token, 'thumbsup');
    await award(project, issue, second.token, 'thumbsup');
    await award(project, issue, user.token, 'tada');
    await award(project, issue, rootToken(), 'thumbsdown');
    await award(project, issue, user.token, 'smile', note);
    expect(await votes(project, issue)).toEqual({ upvotes: 2, downvotes: 1 });

    const admin = await rootId();

    // Act: the first user goes, then the second (whose thumbsup the ghost then already holds).
    await deleteUser(user);
    const ghost = await ensureGhostUserOverHttp();
    const afterFirst = await awards(project, issue);
    await deleteUser(second);

    // Assert
    expect(afterFirst.awards.sort(byName)).toEqual([
      { name: 'tada', user: ghost },
      { name: 'thumbsdown', user: admin },
      { name: 'thumbsup', user: ghost },
      { name: 'thumbsup', user: second.id },
    ].sort(byName));
    const after = await awards(project, issue);
    expect(after.awards.sort(byName)).toEqual([
      { name: 'tada', user: ghost },
      { name: 'thumbsdown', user: admin },
      { name: 'thumbsup', user: ghost },
    ]);
    expect(after.total).toBe('3');
    expect(await votes(project, issue)).toEqual({ upvotes: 1, downvotes: 1 });
    expect(await awards(project, issue, note)).toEqual({ awards: [{ name: 'smile', user: ghost }], total: '1' });
    // The ghost's claim is the one held: the ghost's awards stay one per name.
    if (isLocalRuntime()) {
      const keyed = { type: 'Issue' as const, projectId: project, localId: issue };
      expect(await getItem(issueKeys.awardName(keyed, user.id, 'thumbsup'))).toBeUndefined();
      expect(await getItem(issueKeys.awardName(keyed, second.id, 'thumbsup'))).toBeUndefined();
      expect(await getItem(issueKeys.awardName(keyed, ghost, 'thumbsup'))).toBeDefined();
      // Run again: nothing more moves.
      const ghostUser = await ensureGhostUser();
      expect(await reassignUserAwards(user.id, ghostUser.id)).toBe(0);
      expect(await reassignUserAwards(second.id, ghostUser.id)).toBe(0);
      expect(await votes(project, issue)).toEqual({ upvotes: 1, downvotes: 1 });
    }
  });
});

describe('DELETE /users/:id?hard_delete=true: the award emoji and system notes go with the user', DELETION_TIMEOUT, () => {
  it('deletes its awards with their votes', async () => {
    // Arrange
    const { user, project, issue, note } = await setting();
    await award(project, issue, user.token, 'thumbsup');
    await award(project, issue, user.token, 'thumbsdown');
    await award(project, issue, rootToken(), 'thumbsup');
    await award(project, issue, user.token, 'smile', note);
    expect(await votes(project, issue)).toEqual({ upvotes: 2, downvotes: 1 });
    const admin = await rootId();

    // Act
    await deleteUser(user, true);

    // Assert
    expect(await awards(project, issue)).toEqual({ awards: [{ name: 'thumbsup', user: admin }], total: '1' });
    expect(await votes(project, issue)).toEqual({ upvotes: 1, downvotes: 0 });
    expect(await awards(project, issue, note)).toEqual({ awards: [], total: '0' });
    if (isLocalRuntime()) {
      expect(await getItem(issueKeys.awardName({ type: 'Issue', projectId: project, localId: issue }, user.id, 'thumbsup'))).toBeUndefined();
      // Run again: nothing more goes.
      expect(await deleteUserAwards(user.id)).toBe(0);
      expect(await votes(project, issue)).toEqual({ upvotes: 1, downvotes: 0 });
    }
  });

  it("deletes its awards on merge requests and their notes, and takes a merge request's votes back; moving keeps them", async () => {
    // Arrange: a merge request of root's in the project, the user's votes and a note award on it.
    const { user, project } = await setting();
    const kept = await createUser();
    await addMember('projects', project, kept.id, 30);
    await commit(project, rootToken(), 'main', { 'README.md': '# r\n' });
    await commit(project, rootToken(), 'topic', { 'topic.txt': 't\n' }, { start: 'main' });
    const mr = await openMergeRequest(project, rootToken(), { source_branch: 'topic' });
    const awardsOf = `/projects/${project}/merge_requests/${mr.iid}/award_emoji`;
    const note = (await api(`/projects/${project}/merge_requests/${mr.iid}/notes`, { ...root(), body: { body: 'root comments' } })).body;
    for (const [who, name] of [[user, 'thumbsup'], [user, 'thumbsdown'], [kept, 'thumbsup']] as const) {
      expect((await api(awardsOf, { token: who.token, body: { name } })).status).toBe(201);
    }
    expect((await api(`/projects/${project}/merge_requests/${mr.iid}/notes/${note.id}/award_emoji`, { token: user.token, body: { name: 'smile' } })).status).toBe(201);
    const mrVotes = async () => {
      const { upvotes, downvotes } = (await api(`/projects/${project}/merge_requests/${mr.iid}`, root())).body;
      return { upvotes, downvotes };
    };
    expect(await mrVotes()).toEqual({ upvotes: 2, downvotes: 1 });

    // Act: the user with hard_delete, the other without.
    await deleteUser(user, true);
    await deleteUser(kept);

    // Assert: the first's awards and votes are gone; the other's moved to the ghost, its vote kept.
    const ghost = await ensureGhostUserOverHttp();
    const left = (await api(awardsOf, root())).body as Array<{ name: string; user: { id: number } }>;
    expect(left.map((entry) => [entry.name, entry.user.id])).toEqual([['thumbsup', ghost]]);
    expect(await mrVotes()).toEqual({ upvotes: 1, downvotes: 0 });
    expect((await api(`/projects/${project}/merge_requests/${mr.iid}/notes/${note.id}/award_emoji`, root())).body).toEqual([]);
  });

  it.runIf(isLocalRuntime())('deletes an award and a system note written before their indexes once the data migrations indexed them', async () => {
    // Arrange: the user's award and system note as written before the indexes (no GSI2 attributes).
    const { user, project, issue } = await setting();
    const given = await award(project, issue, user.token, 'thumbsup');
    expect((await api(`/projects/${project}/issues/${issue}`, { token: user.token, method: 'PUT', body: { description: 'by the user' } })).status).toBe(200);
    const system = (await issueNotes(project, issue)).find((entry) => entry.system && entry.author === user.id)!;
    // An award of then also lacked the key of the issue its vote counts on (`noteableKey`).
    const unindex = (Key: Record<string, string>) =>
      db().send(new UpdateCommand({ TableName: tableName(), Key, UpdateExpression: 'REMOVE GSI2PK, GSI2SK, noteableKey', ConditionExpression: 'attribute_exists(PK)' }));
    await unindex(issueKeys.award({ type: 'Issue', projectId: project, localId: issue }, given.id));
    await unindex(noteableKeys.note({ type: 'Issue', projectId: project, iid: issue }, system.id));

    // Act
    const awardsIndexed = await indexProjectAwardUsers(project);
    const notesIndexed = await indexProjectNoteAuthors(project);
    await deleteUser(user, true);

    // Assert: only those lacked their entries; both went with the user, and the vote with the award.
    expect([awardsIndexed, notesIndexed]).toEqual([1, 1]);
    expect(await awards(project, issue)).toEqual({ awards: [], total: '0' });
    expect(await votes(project, issue)).toEqual({ upvotes: 0, downvotes: 0 });
    expect((await issueNotes(project, issue)).some((entry) => entry.id === system.id)).toBe(false);
    expect([await indexProjectAwardUsers(project), await indexProjectNoteAuthors(project)]).toEqual([0, 0]);
  });

  it("deletes the system notes it authored on others' issues, and keeps root's", async () => {
    // Arrange: the user edits root's issue's description (a system note of its own) and closes it.
    const { user, project, issue } = await setting();
    const edited = await api(`/projects/${project}/issues/${issue}`, { token: user.token, method: 'PUT', body: { description: 'edited by the user' } });
    expect(edited.status).toBe(200);
    expect((await api(`/projects/${project}/issues/${issue}`, { token: user.token, method: 'PUT', body: { state_event: 'close' } })).status).toBe(200);
    expect((await api(`/projects/${project}/issues/${issue}`, { ...root(), method: 'PUT', body: { state_event: 'reopen' } })).status).toBe(200);
    const before = await issueNotes(project, issue);
    expect(before.filter((entry) => entry.system && entry.author === user.id).length).toBeGreaterThanOrEqual(2);

    // Act
    await deleteUser(user, true);

    // Assert: only root's notes are left (its comment and its "reopened").
    const after = await issueNotes(project, issue);
    expect(after).toEqual(before.filter((entry) => entry.author !== user.id));
    expect(after.some((entry) => entry.system)).toBe(true);
    expect((await api(`/projects/${project}/issues/${issue}`, root())).body.user_notes_count).toBe(1);
  });
});

/** The notes of an issue as root reads them: id, system, author id. */
async function issueNotes(project: number, issue: number): Promise<Array<{ id: number; system: boolean; author: number }>> {
  const response = await api<Array<{ id: number; system: boolean; author: { id: number } }>>(`/projects/${project}/issues/${issue}/notes`, {
    ...root(),
    query: { per_page: 100, sort: 'asc', order_by: 'created_at' },
  });
  expect(response.status).toBe(200);
  return response.body.map((entry) => ({ id: entry.id, system: entry.system, author: entry.author.id }));
}

/** The ghost user's id, as `GET /users` finds it. */
async function ensureGhostUserOverHttp(): Promise<number> {
  return eventually(async () => {
    const found = await api<Array<{ id: number; name: string }>>('/users', { ...root(), query: { search: 'Ghost User', per_page: 100 } });
    const ghost = found.body.find((entry) => entry.name === 'Ghost User');
    expect(ghost).toBeDefined();
    return ghost!.id;
  }, WAIT);
}

const byName = (a: { name: string; user: number }, b: { name: string; user: number }) => a.name.localeCompare(b.name) || a.user - b.user;
