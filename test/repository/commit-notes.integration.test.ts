/**
 * Comments and discussions on commits (GitLab's `GET/POST …/repository/commits/:sha/comments` and
 * the commit part of the discussions API): one set of notes, `noteable_type: Commit`. A comment
 * with `path` and `line` on an added or removed line is a `LegacyDiffNote` with that line; on
 * another line it is a plain comment. Reads need the code (anonymous on public projects);
 * writing needs a token too; bad input writes nothing; a private project is 404 to strangers.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { api } from '../support/api';
import { createUser, newMember, ownedProject, type OwnedProject, type TestUser } from '../support/fixtures';
import { commit } from '../merge-requests/helpers';

const GUEST = 10;
const REPORTER = 20;

let project: OwnedProject;
let publicProject: OwnedProject;
let reporter: TestUser;
let sha: string;
let publicSha: string;

const url = (p: { id: number }, rest: string, at = sha) => `/projects/${p.id}/repository/commits/${at}${rest}`;
const comments = async (token = project.owner.token) => (await api(url(project, '/comments'), { token })).body as Array<Record<string, unknown>>;

beforeAll(async () => {
  [project, publicProject] = await Promise.all([ownedProject('private'), ownedProject('public')]);
  await commit(project.id, project.owner.token, 'main', { 'app.rb': 'one\ntwo\nthree\n' });
  // The commit commented on: `two` removed, `zwei` and `four` added (`@@ -1,3 +1,4 @@`).
  const changed = await commit(project.id, project.owner.token, 'main', { 'app.rb': 'one\nzwei\nthree\nfour\n' }, { update: true });
  sha = changed.id;
  publicSha = (await commit(publicProject.id, publicProject.owner.token, 'main', { 'README.md': '# public\n' })).id;
  reporter = await newMember(project, REPORTER);
});

describe('POST /projects/:id/repository/commits/:sha/comments', () => {
  it('comments on the commit, and on an added line of its diff (a LegacyDiffNote with its line)', async () => {
    // Act
    const plain = await api(url(project, '/comments'), { token: reporter.token, body: { note: 'Nice commit' } });
    const onLine = await api(url(project, '/comments'), { token: reporter.token, body: { note: 'Why four?', path: 'app.rb', line: 4, line_type: 'new' } });
    const onRemoved = await api(url(project, '/comments'), { token: reporter.token, body: { note: 'Bye two', path: 'app.rb', line: 2, line_type: 'old' } });
    const offDiff = await api(url(project, '/comments'), { token: reporter.token, body: { note: 'Line one', path: 'app.rb', line: 1 } });

    // Assert
    expect(plain.status, JSON.stringify(plain.body)).toBe(201);
    const author = { id: reporter.id, username: reporter.username, state: 'active' };
    expect(plain.body).toEqual({ note: 'Nice commit', path: null, line: null, line_type: null, author: expect.objectContaining(author), created_at: expect.any(String) });
    expect(onLine.body).toMatchObject({ note: 'Why four?', path: 'app.rb', line: 4, line_type: 'new' });
    expect(onRemoved.body).toMatchObject({ note: 'Bye two', path: 'app.rb', line: 2, line_type: 'old' });
    // Line 1 is context, not a changed line: a plain comment, as GitLab makes it.
    expect(offDiff.status).toBe(201);
    expect(offDiff.body).toMatchObject({ note: 'Line one', path: null, line: null, line_type: null });

    const listed = await comments(reporter.token);
    expect(listed.map((c) => c.note)).toEqual(expect.arrayContaining(['Nice commit', 'Why four?', 'Bye two', 'Line one']));
    expect(listed.find((c) => c.note === 'Why four?')).toEqual(onLine.body);
    // By a branch name, the same commit's notes.
    const byBranch = await api(url(project, '/comments', 'main'), { token: reporter.token });
    expect(byBranch.body).toEqual(listed);
  });

  it('refuses bad input with Grape’s messages, writing nothing', async () => {
    // Arrange
    const before = (await comments()).length;

    // Act
    const missing = await api(url(project, '/comments'), { token: reporter.token, body: {} });
    const blank = await api(url(project, '/comments'), { token: reporter.token, body: { note: '   ' } });
    const noLine = await api(url(project, '/comments'), { token: reporter.token, body: { note: 'x', path: 'app.rb' } });
    const badType = await api(url(project, '/comments'), { token: reporter.token, body: { note: 'x', path: 'app.rb', line: 2, line_type: 'both' } });
    const unknownSha = await api(url(project, '/comments', 'f'.repeat(40)), { token: reporter.token, body: { note: 'x' } });

    // Assert
    expect(missing).toMatchObject({ status: 400, body: { error: 'note is missing' } });
    expect(blank).toMatchObject({ status: 400, body: { error: 'note is missing' } });
    expect(noLine).toMatchObject({ status: 400, body: { error: 'line is missing' } });
    expect(badType).toMatchObject({ status: 400, body: { error: 'line_type does not have a valid value' } });
    expect(unknownSha).toMatchObject({ status: 404, body: { message: '404 Commit Not Found' } });
    expect((await comments()).length).toBe(before);
  });

  it('denies those who may not read the code: a guest of a private project 403, a stranger 404, anonymous 401', async () => {
    // Arrange
    const [guest, stranger] = await Promise.all([newMember(project, GUEST), createUser()]);
    const before = (await comments()).length;

    // Act
    const byGuest = await api(url(project, '/comments'), { token: guest.token, body: { note: 'x' } });
    const guestList = await api(url(project, '/comments'), { token: guest.token });
    const byStranger = await api(url(project, '/comments'), { token: stranger.token, body: { note: 'x' } });
    const strangerList = await api(url(project, '/comments'), { token: stranger.token });
    const anonymous = await api(url(publicProject, '/comments', publicSha), { body: { note: 'x' } });

    // Assert
    expect(byGuest.status).toBe(403);
    expect(guestList.status).toBe(403);
    expect(byStranger).toMatchObject({ status: 404, body: { message: '404 Project Not Found' } });
    expect(strangerList.status).toBe(404);
    expect(anonymous.status).toBe(401);
    expect((await comments()).length).toBe(before);
  });

  it('on a public project: anyone reads, any signed-in user comments', async () => {
    // Arrange
    const someone = await createUser();

    // Act
    const posted = await api(url(publicProject, '/comments', publicSha), { token: someone.token, body: { note: 'From outside' } });
    const read = await api(url(publicProject, '/comments', publicSha));

    // Assert
    expect(posted.status).toBe(201);
    expect(read.status).toBe(200);
    expect(read.body).toEqual([posted.body]);
  });
});

describe('commit discussions', () => {
  it('starts a discussion, replies to it, and lists it with the comments (individual notes too)', async () => {
    // Act
    const started = await api(url(project, '/discussions'), { token: reporter.token, body: { body: 'Let us talk' } });
    const reply = await api(url(project, `/discussions/${started.body.id}/notes`), { token: project.owner.token, body: { body: 'Sure' } });
    const single = await api(url(project, `/discussions/${started.body.id}`), { token: reporter.token });
    const listed = await api(url(project, '/discussions'), { token: reporter.token });

    // Assert
    expect(started.status, JSON.stringify(started.body)).toBe(201);
    expect(started.body).toMatchObject({ id: expect.stringMatching(/^[0-9a-f]{40}$/), individual_note: false });
    expect(started.body.notes).toEqual([
      expect.objectContaining({
        type: 'DiscussionNote',
        body: 'Let us talk',
        author: expect.objectContaining({ id: reporter.id }),
        system: false,
        noteable_id: null,
        noteable_type: 'Commit',
        commit_id: sha,
        noteable_iid: null,
        project_id: project.id,
        resolvable: false,
      }),
    ]);
    expect(reply.status).toBe(201);
    expect(reply.body).toMatchObject({ type: 'DiscussionNote', body: 'Sure', noteable_type: 'Commit', commit_id: sha });
    expect(single.body).toEqual({ ...started.body, notes: [started.body.notes[0], reply.body] });
    expect(listed.body.find((d: { id: string }) => d.id === started.body.id)).toEqual(single.body);
    // The plain comments of the first test are individual notes among the discussions.
    const individual = listed.body.find((d: { notes: Array<{ body: string }> }) => d.notes[0].body === 'Nice commit');
    expect(individual).toMatchObject({ individual_note: true, notes: [{ type: null, body: 'Nice commit' }] });
    // Discussions' notes are comments too.
    expect((await comments()).map((c) => c.note)).toEqual(expect.arrayContaining(['Let us talk', 'Sure']));
  });

  it('a reply to a plain comment makes it a discussion', async () => {
    // Arrange
    await api(url(project, '/comments'), { token: reporter.token, body: { note: 'Alone' } });
    const alone = (await api(url(project, '/discussions'), { token: reporter.token })).body.find((d: { notes: Array<{ body: string }> }) => d.notes[0].body === 'Alone');
    expect(alone.individual_note).toBe(true);

    // Act
    const reply = await api(url(project, `/discussions/${alone.id}/notes`), { token: reporter.token, body: { body: 'Not anymore' } });
    const after = await api(url(project, `/discussions/${alone.id}`), { token: reporter.token });

    // Assert
    expect(reply.status).toBe(201);
    expect(after.body).toMatchObject({ individual_note: false, notes: [{ type: 'DiscussionNote', body: 'Alone' }, { type: 'DiscussionNote', body: 'Not anymore' }] });
  });

  it('refuses bad input and unknown discussions, writing nothing; denies as the comments do', async () => {
    // Arrange
    const guest = await newMember(project, GUEST);
    const before = (await comments()).length;
    const started = await api(url(project, '/discussions'), { token: reporter.token, body: { body: 'Base' } });

    // Act
    const noBody = await api(url(project, '/discussions'), { token: reporter.token, body: {} });
    const unknown = await api(url(project, `/discussions/${'a'.repeat(40)}/notes`), { token: reporter.token, body: { body: 'x' } });
    const otherCommit = await api(url(publicProject, `/discussions/${started.body.id}`, publicSha), { token: publicProject.owner.token });
    const unknownGet = await api(url(project, `/discussions/${'b'.repeat(40)}`), { token: reporter.token });
    const emptyReply = await api(url(project, `/discussions/${started.body.id}/notes`), { token: reporter.token, body: { body: '' } });
    const byGuest = await api(url(project, '/discussions'), { token: guest.token, body: { body: 'x' } });
    const unknownSha = await api(url(project, '/discussions', 'e'.repeat(40)), { token: reporter.token });

    // Assert
    expect(noBody).toMatchObject({ status: 400, body: { error: 'body is missing' } });
    expect(unknown).toMatchObject({ status: 404, body: { message: '404 Discussion Not Found' } });
    expect(otherCommit.status).toBe(404);
    expect(unknownGet.status).toBe(404);
    expect(emptyReply).toMatchObject({ status: 400, body: { error: 'body is missing' } });
    expect(byGuest.status).toBe(403);
    expect(unknownSha).toMatchObject({ status: 404, body: { message: '404 Commit Not Found' } });
    expect((await comments()).length).toBe(before + 1);
  });
});
