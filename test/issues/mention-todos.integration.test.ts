/**
 * Todos for the users an issue's text or a note mentions (GitLab's `TodoService#new_issue`,
 * `#update_issue` and `#new_note` → `create_mention_todos`): `directly_addressed` when the mention
 * opens a paragraph, `mentioned` otherwise; never for the author, only for users who can read the
 * target (a guest does not see a confidential issue), one pending todo per user and target, none
 * from system notes; an edited description gives todos only to the users it newly mentions.
 * `GET /todos` lists them with the issue or merge request as target; they are marked done as any
 * todo.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { api, rootToken } from '../support/api';
import { addMember, createUser, newMember, openIssue, ownedProject, type OwnedProject, type TestUser } from '../support/fixtures';
import { commit, GUEST, mrs, openMergeRequest, REPORTER } from '../merge-requests/helpers';
import { listTodos, type Todo } from '../support/todos';

let project: OwnedProject;

/** `GET /todos` as `user` (200 asserted), with filters. */
const todos = (user: TestUser, query: Record<string, string> = {}) => listTodos(user.token, query);

/** Comments on the issue as `user` (201 asserted); answers the note. */
async function comment(iid: number, user: TestUser, body: string): Promise<{ id: number }> {
  const response = await api(`/projects/${project.id}/issues/${iid}/notes`, { token: user.token, body: { body } });
  expect(response.status, JSON.stringify(response.body)).toBe(201);
  return response.body;
}

/** Edits the issue as `user` (200 asserted). */
async function edit(iid: number, user: TestUser, body: Record<string, unknown>): Promise<void> {
  const response = await api(`/projects/${project.id}/issues/${iid}`, { method: 'PUT', token: user.token, body });
  expect(response.status, JSON.stringify(response.body)).toBe(200);
}

const actions = (listed: Todo[]) => listed.map((todo) => [todo.target_type, todo.target.iid, todo.action_name]);

beforeAll(async () => {
  project = await ownedProject('private');
});

describe('todos of mentions in notes', () => {
  it('gives a member mentioned in a note on an issue a `mentioned` todo, listed with the issue as target', async () => {
    // Arrange
    const reporter = await newMember(project, REPORTER);
    const issue = await openIssue(project.id, project.owner.token);

    // Act
    const note = await comment(issue.iid, project.owner, `Reproduced, cc @${reporter.username}`);

    // Assert: the note is the todo's body, and its URL points at the note.
    const listed = await todos(reporter);
    expect(listed).toHaveLength(1);
    expect(listed[0]).toMatchObject({
      project: { id: project.id },
      author: { id: project.owner.id },
      action_name: 'mentioned',
      target_type: 'Issue',
      target: { id: issue.id, iid: issue.iid, title: issue.title },
      target_url: `${issue.web_url}#note_${note.id}`,
      body: `Reproduced, cc @${reporter.username}`,
      state: 'pending',
    });
    expect(await todos(reporter, { action: 'mentioned', type: 'Issue' })).toHaveLength(1);
    expect(await todos(reporter, { action: 'directly_addressed' })).toEqual([]);
  });

  it('gives users whose mention opens the note a `directly_addressed` todo, the others `mentioned`', async () => {
    // Arrange
    const [first, second, later] = await Promise.all([newMember(project, REPORTER), newMember(project, REPORTER), newMember(project, REPORTER)]);
    const issue = await openIssue(project.id, project.owner.token);

    // Act
    await comment(issue.iid, project.owner, `@${first.username} @${second.username} what do you think?\n\ncc @${later.username}`);

    // Assert
    expect(actions(await todos(first))).toEqual([['Issue', issue.iid, 'directly_addressed']]);
    expect(actions(await todos(second))).toEqual([['Issue', issue.iid, 'directly_addressed']]);
    expect(actions(await todos(later))).toEqual([['Issue', issue.iid, 'mentioned']]);
    expect(await todos(first, { action: 'mentioned' })).toEqual([]);
  });

  it('gives no todo to the note author, nor to a guest who cannot read the confidential issue', async () => {
    // Arrange
    const [author, guest, stranger, reporter] = await Promise.all([
      newMember(project, REPORTER),
      newMember(project, GUEST),
      createUser(),
      newMember(project, REPORTER),
    ]);
    const issue = await openIssue(project.id, project.owner.token, { confidential: true });

    // Act
    await comment(issue.iid, author, `@${author.username} @${guest.username} @${stranger.username} @${reporter.username} please check`);

    // Assert
    expect(await todos(author)).toEqual([]);
    expect(await todos(guest)).toEqual([]);
    expect(await todos(stranger)).toEqual([]);
    // A reporter reads confidential issues.
    expect(actions(await todos(reporter))).toEqual([['Issue', issue.iid, 'directly_addressed']]);
    // None was written for them: promoted to reporter, the guest still has none.
    const promoted = await api(`/projects/${project.id}/members/${guest.id}`, { method: 'PUT', token: rootToken(), body: { access_level: REPORTER } });
    expect(promoted.status, JSON.stringify(promoted.body)).toBe(200);
    await addMember('projects', project.id, stranger.id, REPORTER);
    expect(await todos(guest)).toEqual([]);
    expect(await todos(stranger)).toEqual([]);
  });

  it('gives no todo from a system note that names a user', async () => {
    // Arrange
    const reporter = await newMember(project, REPORTER);
    const issue = await openIssue(project.id, project.owner.token);

    // Act: the assignment writes the system note `assigned to @<reporter>`.
    await edit(issue.iid, project.owner, { assignee_ids: [reporter.id] });

    // Assert
    const notes = await api<Array<{ body: string; system: boolean }>>(`/projects/${project.id}/issues/${issue.iid}/notes`, { token: project.owner.token });
    expect(notes.body.filter((note) => note.system).map((note) => note.body)).toEqual([`assigned to @${reporter.username}`]);
    expect(await todos(reporter, { action: 'mentioned' })).toEqual([]);
    expect(await todos(reporter, { action: 'directly_addressed' })).toEqual([]);
  });

  it('gives no second pending todo on the same issue, but a new one once the first is done', async () => {
    // Arrange
    const reporter = await newMember(project, REPORTER);
    const issue = await openIssue(project.id, project.owner.token);
    await comment(issue.iid, project.owner, `First ping @${reporter.username}`);

    // Act
    await comment(issue.iid, project.owner, `@${reporter.username} second ping`);

    // Assert
    const listed = await todos(reporter);
    expect(actions(listed)).toEqual([['Issue', issue.iid, 'mentioned']]);

    // Act: marked done, a new mention gives a new pending todo.
    const done = await api<Todo>(`/todos/${listed[0].id}/mark_as_done`, { method: 'POST', token: reporter.token });
    await comment(issue.iid, project.owner, `Third ping @${reporter.username}`);

    // Assert
    expect(done.status, JSON.stringify(done.body)).toBe(201);
    expect(done.body).toMatchObject({ id: listed[0].id, state: 'done', action_name: 'mentioned' });
    const again = await todos(reporter);
    expect(again).toHaveLength(1);
    expect(again[0].id).not.toBe(listed[0].id);
  });

  it('gives a member mentioned in a merge request note a todo on the merge request', async () => {
    // Arrange
    const reporter = await newMember(project, REPORTER);
    await commit(project.id, project.owner.token, 'main', { 'README.md': 'hello\n' });
    const branch = `feature-${Date.now()}`;
    await commit(project.id, project.owner.token, branch, { 'feature.txt': 'new\n' }, { start: 'main' });
    const mr = await openMergeRequest(project.id, project.owner.token, { source_branch: branch });

    // Act
    const response = await api(mrs(project.id, `/${mr.iid}/notes`), { token: project.owner.token, body: { body: `@${reporter.username} please review` } });

    // Assert
    expect(response.status, JSON.stringify(response.body)).toBe(201);
    const listed = await todos(reporter);
    expect(actions(listed)).toEqual([['MergeRequest', mr.iid, 'directly_addressed']]);
    expect(listed[0]).toMatchObject({ author: { id: project.owner.id }, target: { id: mr.id, title: mr.title }, body: `@${reporter.username} please review` });
  });
});

describe('todos of mentions in issue descriptions', () => {
  it('gives the members a new issue description mentions a todo with the issue title as body', async () => {
    // Arrange
    const [addressed, mentioned] = await Promise.all([newMember(project, REPORTER), newMember(project, REPORTER)]);

    // Act
    const issue = await openIssue(project.id, project.owner.token, { description: `@${addressed.username} this one is yours\n\nAlso see @${mentioned.username}` });

    // Assert
    const [first, second] = await Promise.all([todos(addressed), todos(mentioned)]);
    expect(actions(first)).toEqual([['Issue', issue.iid, 'directly_addressed']]);
    expect(actions(second)).toEqual([['Issue', issue.iid, 'mentioned']]);
    expect(first[0]).toMatchObject({ author: { id: project.owner.id }, body: issue.title, target_url: issue.web_url });
    expect(await todos(project.owner)).toEqual([]);
  });

  it('gives a todo on an edit only to the users the description newly mentions', async () => {
    // Arrange
    const [before, added] = await Promise.all([newMember(project, REPORTER), newMember(project, REPORTER)]);
    const issue = await openIssue(project.id, project.owner.token, { description: `cc @${before.username}` });
    const [old] = await todos(before);
    await api(`/todos/${old.id}/mark_as_done`, { method: 'POST', token: before.token });

    // Act
    await edit(issue.iid, project.owner, { description: `cc @${before.username} @${added.username}` });

    // Assert
    expect(actions(await todos(added))).toEqual([['Issue', issue.iid, 'mentioned']]);
    // Mentioned before the edit: no new todo, though their first one is done.
    expect(await todos(before)).toEqual([]);
  });

  it('gives no todo for a mention that an edit not touching the description keeps', async () => {
    // Arrange
    const reporter = await newMember(project, REPORTER);
    const issue = await openIssue(project.id, project.owner.token, { description: `cc @${reporter.username}` });
    const [todo] = await todos(reporter);
    await api(`/todos/${todo.id}/mark_as_done`, { method: 'POST', token: reporter.token });

    // Act
    await edit(issue.iid, project.owner, { title: 'Renamed', labels: 'bug' });

    // Assert
    expect(await todos(reporter)).toEqual([]);
  });
});
