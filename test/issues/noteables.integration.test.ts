/**
 * Notes, subscriptions, todos and time tracking on a noteable other than an issue, and closing an
 * issue from a merge request, against DynamoDB Local: the store and commands are called directly
 * in the test process, on a stand-in for a merge request's item (the merge-requests feature owns
 * the real one; here an item under a key no feature uses, in a project made through the API), and
 * the API shows what an issue's reader sees. The merge request routes are tested by that feature.
 */
import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { beforeAll, describe, expect, it } from 'vitest';
import { closeIssueFromMergeRequest } from '../../shared/issues/commands/issues';
import { markTodo, subscribe, trackTime, unsubscribe } from '../../shared/issues/commands/noteable-actions';
import { createNote, createSystemNote, deleteNote, updateNote } from '../../shared/issues/commands/notes';
import { markTodoDoneById } from '../../shared/issues/commands/todos';
import { presentNotes } from '../../shared/issues/presenters/notes';
import { presentTodos } from '../../shared/issues/presenters/todos';
import { findIssue, projectSubjects } from '../../shared/issues/queries/issues';
import { findNoteOrNotFound, noteableNotes } from '../../shared/issues/queries/notes';
import { todoStream, type TodoTarget } from '../../shared/issues/queries/todos';
import { issueNoteable, type Issue } from '../../shared/issues/store/issues';
import { noteableKeys } from '../../shared/issues/store/keys';
import type { Noteable } from '../../shared/issues/store/noteables';
import { listNotes, type Note } from '../../shared/issues/store/notes';
import { isSubscribedTo } from '../../shared/issues/subscriptions';
import { registerTodoTargets } from '../../shared/issues/todo-targets';
import { db, tableName } from '../../shared/platform/dynamo/client';
import { pad } from '../../shared/platform/dynamo/keys';
import { queryAll } from '../../shared/platform/dynamo/query';
import { getUser, type User } from '../../shared/users/store/users';
import { api, isLocalRuntime } from '../support/api';
import { createProject, newMember, openIssue, ownedProject, type OwnedProject } from '../support/fixtures';

const REPORTER = 20;

/** Internal: the signed-in user record of a test user. */
async function userOf(id: number): Promise<User> {
  const user = await getUser(id);
  if (!user) throw new Error(`no user ${id}`);
  return user;
}

/** What the stand-in item records: what the merge-requests feature's item would. */
interface StandIn {
  id: number;
  iid: number;
  version: number;
  updatedAt: string;
  userNotesCount?: number;
  timeEstimate?: number;
  totalTimeSpent?: number;
  sortedAt?: string;
}

/** Internal: a merge request stand-in (`iid`, by `authorId`) in the project: its item, and the noteable describing it. */
async function standIn(projectId: number, iid: number, authorId: number): Promise<Noteable> {
  const key = { PK: `PROJECT#${projectId}`, SK: `TEST_NOTEABLE#${pad(iid)}` };
  const id = 900_000 + projectId * 10 + iid;
  await db().send(new PutCommand({ TableName: tableName(), Item: { ...key, type: 'TestNoteable', id, iid, version: 1, updatedAt: '2026-01-01T00:00:00.000Z' } }));
  return { type: 'MergeRequest', projectId, iid, id, authorId, assigneeIds: [], item: { key, touched: (at) => ({ sortedAt: at }) } };
}

/** Internal: the stand-in item as stored now. */
async function itemOf(noteable: Noteable): Promise<StandIn> {
  const { Item } = await db().send(new GetCommand({ TableName: tableName(), Key: noteable.item.key, ConsistentRead: true }));
  return Item as StandIn;
}

/** Internal: an issue as stored now. */
async function issueOf(projectId: number, iid: number): Promise<Issue> {
  const issue = await findIssue(projectId, iid);
  if (!issue) throw new Error(`no issue ${iid}`);
  return issue;
}

describe.skipIf(!isLocalRuntime())('notes on a merge request', () => {
  let project: OwnedProject;
  let owner: User;
  let issue: Issue;
  let mergeRequest: Noteable;
  let projectSubject: Parameters<typeof updateNote>[0];

  beforeAll(async () => {
    project = await ownedProject();
    owner = await userOf(project.owner.id);
    projectSubject = (await projectSubjects(owner, [project.id])).get(project.id)!;
    // An issue and a merge request of the same iid: their ranges must stay apart.
    const opened = await openIssue(project.id, project.owner.token);
    issue = await issueOf(project.id, opened.iid);
    mergeRequest = await standIn(project.id, opened.iid, owner.id);
  });

  it('counts a comment on the merge request item, stamps it, and keeps it out of the issue of the same iid', async () => {
    // Act
    const note = await createNote(mergeRequest, owner, 'Looks good');

    // Assess
    const item = await itemOf(mergeRequest);
    expect(item).toMatchObject({ userNotesCount: 1, version: 2, updatedAt: note.createdAt, sortedAt: note.createdAt });
    expect((await listNotes(mergeRequest)).map((n) => n.id)).toEqual([note.id]);
    const [presented] = await presentNotes([note]);
    expect(presented).toMatchObject({
      id: note.id,
      body: 'Looks good',
      author: { id: owner.id, username: owner.username },
      system: false,
      noteable_id: mergeRequest.id,
      noteable_type: 'MergeRequest',
      noteable_iid: mergeRequest.iid,
    });
    expect(await findNoteOrNotFound(mergeRequest, note.id)).toEqual(note);
    await expect(findNoteOrNotFound(issueNoteable(issue), note.id)).rejects.toMatchObject({ statusCode: 404, body: { message: '404 Note Not Found' } });
    const issueNotes = await api(`/projects/${project.id}/issues/${issue.iid}/notes`, { token: project.owner.token });
    expect(issueNotes.body).toEqual([]);
    const shown = await api(`/projects/${project.id}/issues/${issue.iid}`, { token: project.owner.token });
    expect(shown.body).toMatchObject({ user_notes_count: 0, updated_at: issue.updatedAt });
  });

  it('lists by creation (a Query of its range, paged) and by update, edits and deletes, keeping the count exact', async () => {
    // Prepare
    const noteable = await standIn(project.id, 50, owner.id);
    const first = await createNote(noteable, owner, 'first');
    const second = await createNote(noteable, owner, 'second');
    const system = await createSystemNote(noteable, owner, 'merged');

    // Act
    const edited = await updateNote(projectSubject, owner, first, 'first, edited');
    const byCreation = await noteableNotes(noteable, { orderBy: 'created_at', sort: 'desc' });
    const range = byCreation as Exclude<typeof byCreation, Note[]>;
    const created = (await queryAll(range.collection, range.ascending)).map((item) => item.id);
    const byUpdate = await noteableNotes(noteable, { orderBy: 'updated_at', sort: 'desc' });
    await deleteNote(projectSubject, owner, noteable, second);

    // Assess
    expect(Array.isArray(byCreation)).toBe(false);
    expect(created).toEqual([system.id, second.id, first.id]);
    expect((byUpdate as Note[]).map((n) => n.id)).toEqual([first.id, system.id, second.id]);
    expect(edited).toMatchObject({ id: first.id, body: 'first, edited', noteableType: 'MergeRequest' });
    // Two comments, one deleted; the system note never counted.
    expect(await itemOf(noteable)).toMatchObject({ userNotesCount: 1 });
    expect((await listNotes(noteable)).map((n) => [n.id, n.system])).toEqual([
      [first.id, false],
      [system.id, true],
    ]);
    await expect(updateNote(projectSubject, owner, system, 'no')).rejects.toMatchObject({ statusCode: 403 });
  });

  it('refuses a comment on a merge request item that is gone: 404 Merge Request Not Found', async () => {
    const gone = { ...mergeRequest, iid: 77, item: { ...mergeRequest.item, key: { PK: `PROJECT#${project.id}`, SK: `TEST_NOTEABLE#${pad(77)}` } } };
    await expect(createNote(gone, owner, 'hello?')).rejects.toMatchObject({ statusCode: 404, body: { message: '404 Merge Request Not Found' } });
    expect(await listNotes(gone)).toEqual([]);
  });
});

describe.skipIf(!isLocalRuntime())('subscriptions, todos and time tracking on a merge request', () => {
  let project: OwnedProject;
  let owner: User;
  let reporter: User;
  let issue: Issue;
  let mergeRequest: Noteable;

  beforeAll(async () => {
    project = await ownedProject();
    owner = await userOf(project.owner.id);
    reporter = await userOf((await newMember(project, REPORTER)).id);
    const opened = await openIssue(project.id, project.owner.token);
    issue = await issueOf(project.id, opened.iid);
    mergeRequest = await standIn(project.id, opened.iid, owner.id);
  });

  it('subscribes and unsubscribes apart from the issue of the same iid, answering whether anything changed', async () => {
    expect(await isSubscribedTo(mergeRequest, reporter.id)).toBe(false);
    expect(await subscribe(mergeRequest, reporter)).toBe(true);
    expect(await subscribe(mergeRequest, reporter)).toBe(false);
    expect(await isSubscribedTo(mergeRequest, reporter.id)).toBe(true);
    expect(await isSubscribedTo(issueNoteable(issue), reporter.id)).toBe(false);
    // The author is subscribed without a record, and may unsubscribe.
    expect(await subscribe(mergeRequest, owner)).toBe(false);
    expect(await unsubscribe(mergeRequest, owner)).toBe(true);
    expect(await unsubscribe(mergeRequest, owner)).toBe(false);
    expect(await isSubscribedTo(issueNoteable(issue), owner.id)).toBe(true);
    const item = await db().send(new GetCommand({ TableName: tableName(), Key: noteableKeys.subscription(mergeRequest, owner.id), ConsistentRead: true }));
    expect(item.Item).toMatchObject({ type: 'MergeRequestSubscription', subscribed: false });
  });

  it('marks one pending todo per user; without a registered resolver GET /todos leaves it out, with one it shows the target', async () => {
    // Prepare
    const issueTodo = await api(`/projects/${project.id}/issues/${issue.iid}/todo`, { method: 'POST', token: project.owner.token });
    expect(issueTodo.status).toBe(201);

    // Act
    const todo = await markTodo(mergeRequest, owner);
    const again = await markTodo(mergeRequest, owner);

    // Assess
    expect(todo).toMatchObject({ targetType: 'MergeRequest', targetIid: mergeRequest.iid, targetId: mergeRequest.id, state: 'pending' });
    expect(again).toBeUndefined();
    // The service registers no resolver that knows this stand-in: the merge request todo is left out.
    const listed = await api('/todos', { token: project.owner.token });
    expect(listed.body.map((t: { id: number }) => t.id)).toEqual([issueTodo.body.id]);
    expect((await api('/todos', { token: project.owner.token, query: { type: 'MergeRequest' } })).body).toEqual([]);

    // With a resolver registered (here, in this process), the list shows it with its target.
    registerTodoTargets<{ iid: number; title: string }>('MergeRequest', {
      async load(user, todos, subjects) {
        return new Map(todos.filter((t) => subjects.has(t.projectId) && user.id === owner.id).map((t) => [t.id, { iid: t.targetIid, title: 'Add the parser' }]));
      },
      async present(entries, _viewer, options) {
        return entries.map(({ target, subject }) => ({
          entity: { iid: target.iid, title: target.title, single: options.single ?? false },
          url: `https://example.test/${subject.project.path}/merge_requests/${target.iid}`,
          body: target.title,
        }));
      },
    });
    const read = async (filters: Parameters<typeof todoStream>[1]) => {
      const entries: TodoTarget[] = [];
      for await (const entry of (await todoStream(owner, filters)).read(undefined, 20)) if (entry.value) entries.push(entry.value);
      return entries;
    };
    const all = await read({ state: 'pending' });
    expect(all.map((entry) => entry.todo.id)).toEqual([todo!.id, issueTodo.body.id]);
    const presented = await presentTodos(all, owner);
    expect(presented[0]).toMatchObject({
      id: todo!.id,
      target_type: 'MergeRequest',
      target: { iid: mergeRequest.iid, title: 'Add the parser', single: false },
      target_url: expect.stringMatching(new RegExp(`/merge_requests/${mergeRequest.iid}$`)),
      body: 'Add the parser',
      action_name: 'marked',
      state: 'pending',
      project: { id: project.id },
    });
    expect(presented[1]).toEqual(listed.body[0]);
    expect((await read({ state: 'pending', type: 'MergeRequest' })).map((entry) => entry.todo.id)).toEqual([todo!.id]);
    expect((await read({ state: 'pending', type: 'Issue' })).map((entry) => entry.todo.id)).toEqual([issueTodo.body.id]);

    // Marked done by id, it moves to the done list and may be marked again.
    const done = await markTodoDoneById(owner, todo!.id);
    expect(done.todo.state).toBe('done');
    expect((await presentTodos([done], owner, { single: true }))[0]).toMatchObject({ state: 'done', target: { single: true } });
    expect((await read({ state: 'done', type: 'MergeRequest' })).map((entry) => entry.todo.id)).toEqual([todo!.id]);
    expect(await markTodo(mergeRequest, owner)).toMatchObject({ state: 'pending' });
  });

  it('tracks time on the merge request item as on an issue: totals, version, updated_at, a system note', async () => {
    // Prepare
    const noteable = await standIn(project.id, 60, owner.id);
    const record = async () => ({ ...(await itemOf(noteable)) });
    const options = { noteable: () => noteable, reread: record };

    // Act
    const estimated = await trackTime(await record(), owner, { kind: 'estimate', duration: '1d 2h' }, options);
    const spent = await trackTime(estimated, owner, { kind: 'spend', duration: '90m' }, options);
    // A stale record loses the race, re-reads and applies again: both spends count.
    const again = await trackTime(estimated, owner, { kind: 'spend', duration: '30m' }, options);

    // Assess
    expect(estimated).toMatchObject({ timeEstimate: 36000, version: 2 });
    expect(spent).toMatchObject({ timeEstimate: 36000, totalTimeSpent: 5400, version: 3 });
    expect(again).toMatchObject({ totalTimeSpent: 7200, version: 4 });
    expect(await itemOf(noteable)).toMatchObject({ timeEstimate: 36000, totalTimeSpent: 7200, version: 4, updatedAt: again.updatedAt, sortedAt: again.updatedAt });
    expect((await listNotes(noteable)).map((n) => n.body)).toEqual(['changed time estimate to 1d 2h', 'added 1h 30m of time spent', 'added 30m of time spent']);
    await expect(trackTime(again, owner, { kind: 'spend', duration: '-3h' }, options)).rejects.toMatchObject({ statusCode: 400 });
    await expect(trackTime(again, owner, { kind: 'estimate', duration: 'later' }, options)).rejects.toMatchObject({
      statusCode: 400,
      body: { message: { time_estimate: ['has an invalid format'] } },
    });
  });
});

describe.skipIf(!isLocalRuntime())('closing an issue from a merge request', () => {
  let project: OwnedProject;
  let owner: User;

  beforeAll(async () => {
    project = await ownedProject();
    owner = await userOf(project.owner.id);
  });

  it('closes it as PUT state_event=close would, with the note "closed via merge request !N"', async () => {
    // Prepare
    const opened = await openIssue(project.id, project.owner.token);
    const issue = await issueOf(project.id, opened.iid);

    // Act
    const closed = await closeIssueFromMergeRequest(issue, owner, { projectId: project.id, iid: 4, reference: `${project.fullPath}!4` });

    // Assess
    expect(closed).toMatchObject({ state: 'closed', version: issue.version + 1 });
    const shown = await api(`/projects/${project.id}/issues/${issue.iid}`, { token: project.owner.token });
    expect(shown.body).toMatchObject({ state: 'closed', closed_at: closed.closedAt, updated_at: closed.updatedAt });
    const notes = await api(`/projects/${project.id}/issues/${issue.iid}/notes`, { token: project.owner.token });
    expect(notes.body.map((n: { body: string; system: boolean }) => [n.body, n.system])).toEqual([['closed via merge request !4', true]]);
    const events = await api(`/projects/${project.id}/events`, { token: project.owner.token });
    expect(events.body[0]).toMatchObject({ action_name: 'closed', target_type: 'Issue', target_id: issue.id });
    const counts = await api(`/projects/${project.id}`, { token: project.owner.token });
    expect(counts.body.open_issues_count).toBe(0);
  });

  it('names a merge request of another project by its full reference, and leaves a closed issue alone', async () => {
    // Prepare
    const opened = await openIssue(project.id, project.owner.token);
    const issue = await issueOf(project.id, opened.iid);
    const other = await createProject(project.owner.token);

    // Act
    const closed = await closeIssueFromMergeRequest(issue, owner, { projectId: other.id, iid: 2, reference: `${other.fullPath}!2` });
    const again = await closeIssueFromMergeRequest(issue, owner, { projectId: other.id, iid: 3, reference: `${other.fullPath}!3` });

    // Assess
    expect(closed.state).toBe('closed');
    expect(again).toEqual(closed);
    const notes = await api(`/projects/${project.id}/issues/${issue.iid}/notes`, { token: project.owner.token });
    expect(notes.body.map((n: { body: string }) => n.body)).toEqual([`closed via merge request ${other.fullPath}!2`]);
  });

  it('leaves the issue open when the merging user may not update it', async () => {
    // Prepare
    const opened = await openIssue(project.id, project.owner.token);
    const issue = await issueOf(project.id, opened.iid);
    const outsider = await ownedProject();

    // Act
    const result = await closeIssueFromMergeRequest(issue, await userOf(outsider.owner.id), { projectId: project.id, iid: 5, reference: `${project.fullPath}!5` });

    // Assess
    expect(result).toEqual(issue);
    expect(await issueOf(project.id, issue.iid)).toMatchObject({ state: 'opened', version: issue.version });
  });

  it('finds a live issue by project and iid, and nothing for a deleted or unknown one', async () => {
    const opened = await openIssue(project.id, project.owner.token);
    expect(await findIssue(project.id, opened.iid)).toMatchObject({ id: opened.id, iid: opened.iid });
    expect(await findIssue(project.id, 999_999)).toBeUndefined();
    expect((await api(`/projects/${project.id}/issues/${opened.iid}`, { method: 'DELETE', token: project.owner.token })).status).toBe(204);
    expect(await findIssue(project.id, opened.iid)).toBeUndefined();
  });
});
