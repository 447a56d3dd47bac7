/**
 * Todos for the users a commit note mentions (GitLab's `TodoService#new_note`): a comment, a
 * discussion's first note or a reply mentioning `@user` gives that user a `mentioned` todo on the
 * commit, `directly_addressed` when the mention opens the note; none for the note's author, none
 * for users who cannot read the project's code (a guest or a stranger of a private project), and
 * no second pending todo for the same commit. `GET /todos` shows them with `target_type: Commit`,
 * the Commit entity as `target`, the commit's page (anchored at the note) as `target_url` and the
 * note as `body`; they are marked done one by one or all at once. A refused note writes no todo.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { api } from '../support/api';
import { createUser, newMember, ownedProject, type OwnedProject, type TestUser } from '../support/fixtures';
import { commit, GUEST, REPORTER } from '../merge-requests/helpers';
import { listTodos, type Todo } from '../support/todos';

let project: OwnedProject;
let webUrl: string;
let sha: string;
/** The Commit entity of `sha` as the commits list shows it. */
let commitEntity: Record<string, unknown>;

const commitUrl = (rest: string, at = sha) => `/projects/${project.id}/repository/commits/${at}${rest}`;

/** Comments on the commit as `token` (201 asserted); answers the comment and the id of its note (read from the discussions). */
async function comment(token: string, note: string): Promise<{ noteId: number }> {
  const response = await api(commitUrl('/comments'), { token, body: { note } });
  expect(response.status, JSON.stringify(response.body)).toBe(201);
  const discussions = await api<Array<{ notes: Array<{ id: number; body: string }> }>>(commitUrl('/discussions?per_page=100'), { token: project.owner.token });
  const found = discussions.body.flatMap((d) => d.notes).filter((n) => n.body === note);
  expect(found).toHaveLength(1);
  return { noteId: found[0].id };
}

/** Starts a discussion as `token` (201 asserted). */
async function discuss(token: string, body: string): Promise<{ id: string; notes: Array<{ id: number }> }> {
  const response = await api(commitUrl('/discussions'), { token, body: { body } });
  expect(response.status, JSON.stringify(response.body)).toBe(201);
  return response.body;
}

/** `GET /todos` as `token` (200 asserted), with filters. */
const todos = (token: string, query: Record<string, string> = {}) => listTodos<Record<string, unknown>>(token, query);

const commitTodos = async (user: TestUser, query: Record<string, string> = {}) => (await todos(user.token, query)).filter((todo) => todo.target_type === 'Commit');

beforeAll(async () => {
  project = await ownedProject('private');
  await commit(project.id, project.owner.token, 'main', { 'README.md': 'hello\n' });
  const changed = await commit(project.id, project.owner.token, 'main', { 'README.md': 'hello, world\n' }, { update: true, message: 'Greet the world\n\nLouder.' });
  sha = changed.id;
  const [shown, listed] = await Promise.all([
    api(`/projects/${project.id}`, { token: project.owner.token }),
    api<Array<Record<string, unknown>>>(`/projects/${project.id}/repository/commits`, { token: project.owner.token, query: { ref_name: 'main' } }),
  ]);
  webUrl = shown.body.web_url;
  commitEntity = listed.body.find((entry) => entry.id === sha)!;
  expect(commitEntity).toBeDefined();
});

describe('mention todos of commit notes', () => {
  it('gives a mentioned member a `mentioned` todo on the commit, listed with the commit as target', async () => {
    // Arrange
    const reporter = await newMember(project, REPORTER);
    const note = `Looks right to me, cc @${reporter.username}`;

    // Act
    const { noteId } = await comment(project.owner.token, note);
    const listed = await todos(reporter.token);

    // Assert
    expect(listed).toHaveLength(1);
    expect(listed[0]).toMatchObject({
      project: { id: project.id },
      author: { id: project.owner.id },
      action_name: 'mentioned',
      target_type: 'Commit',
      target: commitEntity,
      target_url: `${webUrl}/-/commit/${sha}#note_${noteId}`,
      body: note,
      state: 'pending',
    });
    expect(await commitTodos(reporter, { type: 'Commit' })).toHaveLength(1);
    expect(await todos(reporter.token, { type: 'Issue' })).toEqual([]);
    expect(await todos(reporter.token, { action: 'mentioned' })).toHaveLength(1);
    expect(await todos(reporter.token, { action: 'marked' })).toEqual([]);
  });

  it('gives users whose mention opens the note a `directly_addressed` todo, the others `mentioned`', async () => {
    // Arrange
    const [first, second, later] = await Promise.all([newMember(project, REPORTER), newMember(project, REPORTER), newMember(project, REPORTER)]);

    // Act
    const started = await discuss(project.owner.token, `@${first.username} @${second.username} what do you think? cc @${later.username}`);

    // Assert
    const [a, b, c] = await Promise.all([commitTodos(first), commitTodos(second), commitTodos(later)]);
    expect(a.map((todo) => todo.action_name)).toEqual(['directly_addressed']);
    expect(b.map((todo) => todo.action_name)).toEqual(['directly_addressed']);
    expect(c.map((todo) => todo.action_name)).toEqual(['mentioned']);
    expect(a[0].target_url).toBe(`${webUrl}/-/commit/${sha}#note_${started.notes[0].id}`);
    expect(await todos(first.token, { action: 'directly_addressed', type: 'Commit' })).toHaveLength(1);
  });

  it('creates todos from a reply, but none for its author or for users who cannot read the code', async () => {
    // Arrange
    const [author, guest, stranger] = await Promise.all([newMember(project, REPORTER), newMember(project, GUEST), createUser()]);
    const started = await discuss(project.owner.token, 'A thread');
    const ownerBefore = (await commitTodos(project.owner)).length;

    // Act
    const response = await api(commitUrl(`/discussions/${started.id}/notes`), {
      token: author.token,
      body: { body: `@${project.owner.username} see this, also @${author.username} @${guest.username} @${stranger.username} @nosuchuser${Date.now()}` },
    });

    // Assert
    expect(response.status, JSON.stringify(response.body)).toBe(201);
    const ownerTodos = await commitTodos(project.owner);
    expect(ownerTodos).toHaveLength(ownerBefore + 1);
    expect(ownerTodos[0]).toMatchObject({ action_name: 'directly_addressed', author: { id: author.id }, target_url: `${webUrl}/-/commit/${sha}#note_${response.body.id}` });
    expect(await todos(author.token)).toEqual([]);
    expect(await todos(guest.token)).toEqual([]);
    expect(await todos(stranger.token)).toEqual([]);
  });

  it('ignores mentions inside code and email addresses', async () => {
    // Arrange
    const [inline, fenced, mailed] = await Promise.all([newMember(project, REPORTER), newMember(project, REPORTER), newMember(project, REPORTER)]);

    // Act
    await comment(project.owner.token, `Run \`notify @${inline.username}\`, or write to x@${mailed.username}\n\n\`\`\`\n@${fenced.username}\n\`\`\``);

    // Assert
    expect(await todos(inline.token)).toEqual([]);
    expect(await todos(fenced.token)).toEqual([]);
    expect(await todos(mailed.token)).toEqual([]);
  });

  it('gives no second pending todo for the same commit', async () => {
    // Arrange
    const reporter = await newMember(project, REPORTER);
    await comment(project.owner.token, `First ping @${reporter.username}`);

    // Act
    await comment(project.owner.token, `@${reporter.username} second ping`);

    // Assert
    const listed = await commitTodos(reporter);
    expect(listed.map((todo) => [todo.action_name, todo.body])).toEqual([['mentioned', `First ping @${reporter.username}`]]);
  });

  it('marks a commit todo done, then all of them', async () => {
    // Arrange
    const reporter = await newMember(project, REPORTER);
    await comment(project.owner.token, `One for @${reporter.username}`);
    const [todo] = await commitTodos(reporter);

    // Act
    const done = await api<Todo<Record<string, unknown>>>(`/todos/${todo.id}/mark_as_done`, { method: 'POST', token: reporter.token });

    // Assert
    expect(done.status, JSON.stringify(done.body)).toBe(201);
    expect(done.body).toMatchObject({ id: todo.id, state: 'done', target_type: 'Commit', target: commitEntity, body: todo.body });
    expect(await todos(reporter.token)).toEqual([]);
    expect((await todos(reporter.token, { state: 'done' })).map((t) => t.id)).toEqual([todo.id]);
    // Another user cannot mark it.
    expect((await api(`/todos/${todo.id}/mark_as_done`, { method: 'POST', token: project.owner.token })).status).toBe(404);

    // Arrange: a new mention after it was done gives a new pending todo.
    await comment(project.owner.token, `Two for @${reporter.username}`);
    expect(await todos(reporter.token)).toHaveLength(1);

    // Act
    const all = await api('/todos/mark_as_done', { method: 'POST', token: reporter.token });

    // Assert
    expect(all.status).toBe(204);
    expect(await todos(reporter.token)).toEqual([]);
    expect(await todos(reporter.token, { state: 'done' })).toHaveLength(2);
  });

  it('writes no todo when the note is refused', async () => {
    // Arrange
    const reporter = await newMember(project, REPORTER);
    const stranger = await createUser();

    // Act
    const tooLong = await api(commitUrl('/discussions'), { token: project.owner.token, body: { body: `@${reporter.username} ${'x'.repeat(400_000)}` } });
    const unknownCommit = await api(commitUrl('/comments', 'f'.repeat(40)), { token: project.owner.token, body: { note: `@${reporter.username} hi` } });
    const byStranger = await api(commitUrl('/comments'), { token: stranger.token, body: { note: `@${reporter.username} hi` } });
    const badPosition = await api(commitUrl('/discussions'), {
      token: project.owner.token,
      body: { body: `@${reporter.username} here`, position: { position_type: 'text', base_sha: sha, start_sha: sha, head_sha: sha, new_path: 'README.md', old_path: 'README.md', new_line: 1 } },
    });

    // Assert
    expect(tooLong.status).toBe(400);
    expect(unknownCommit.status).toBe(404);
    expect(byStranger.status).toBe(404);
    expect(byStranger.body).toEqual({ message: '404 Project Not Found' });
    expect(badPosition.status).toBe(400);
    expect(await todos(reporter.token)).toEqual([]);
  });
});
