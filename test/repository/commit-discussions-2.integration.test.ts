/**
 * Commit discussions, continued (GitLab's discussions API for commits): reading, editing and
 * deleting one note (the author or a maintainer: `admin_note`; the last note takes its discussion
 * with it), diff notes on a position of the commit's own diff (`DiffNote`, GitLab's 400 for a
 * position that does not resolve), the `commented on` feed event of a commit note, and note ids
 * drawn from the one sequence of every note. Bad input writes nothing; a private project is 404
 * to strangers.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { api, isLocalRuntime } from '../support/api';
import { WebhookReceiver } from '../support/webhooks';
import { createUser, newMember, openIssue, ownedProject, type OwnedProject, type TestUser } from '../support/fixtures';
import { commit } from '../merge-requests/helpers';

const GUEST = 10;
const REPORTER = 20;
const MAINTAINER = 40;

let project: OwnedProject;
let reporter: TestUser;
let otherReporter: TestUser;
let maintainer: TestUser;
let sha: string;
let parent: string;

type Note = { id: number; body: string; type: string | null; updated_at: string; position?: Record<string, unknown> } & Record<string, unknown>;
type Discussion = { id: string; individual_note: boolean; notes: Note[] };

const url = (rest: string, at = sha) => `/projects/${project.id}/repository/commits/${at}${rest}`;
const noteUrl = (discussion: string, note: number) => url(`/discussions/${discussion}/notes/${note}`);

/** Starts a discussion (201 asserted). */
async function discuss(token: string, body: string, position?: Record<string, unknown>): Promise<Discussion> {
  const response = await api(url('/discussions'), { token, body: { body, ...(position ? { position } : {}) } });
  expect(response.status, JSON.stringify(response.body)).toBe(201);
  return response.body as Discussion;
}

/** Replies in a discussion (201 asserted). */
async function reply(token: string, discussion: string, body: string): Promise<Note> {
  const response = await api(url(`/discussions/${discussion}/notes`), { token, body: { body } });
  expect(response.status, JSON.stringify(response.body)).toBe(201);
  return response.body as Note;
}

const discussion = async (id: string) => api(url(`/discussions/${id}`), { token: project.owner.token });
const allNotes = async () => ((await api(url('/comments?per_page=100'), { token: project.owner.token })).body as Array<{ note: string }>).map((c) => c.note);

/** A text position on the commit's own diff (`base_sha` and `start_sha` its parent). */
const textPosition = (lines: { new_line?: number; old_line?: number }, refs: Partial<Record<'base_sha' | 'start_sha' | 'head_sha', string>> = {}) => ({
  position_type: 'text',
  base_sha: parent,
  start_sha: parent,
  head_sha: sha,
  old_path: 'app.rb',
  new_path: 'app.rb',
  ...refs,
  ...lines,
});

beforeAll(async () => {
  project = await ownedProject('private');
  await commit(project.id, project.owner.token, 'main', { 'app.rb': 'one\ntwo\nthree\nfive\nsix\nseven\neight\nnine\nten\n' });
  // The commit discussed: `two` becomes `zwei` (old 2, new 2), `four` added after `three` (new 4).
  const changed = await commit(project.id, project.owner.token, 'main', { 'app.rb': 'one\nzwei\nthree\nfour\nfive\nsix\nseven\neight\nnine\nten\n' }, { update: true, message: 'Count to four\n\nIn German, partly.' });
  sha = changed.id;
  parent = changed.parent_ids[0];
  [reporter, otherReporter, maintainer] = await Promise.all([newMember(project, REPORTER), newMember(project, REPORTER), newMember(project, MAINTAINER)]);
});

describe('GET, PUT, DELETE …/commits/:sha/discussions/:discussion_id/notes/:note_id', () => {
  it('reads one note and the notes of a discussion; the author edits it', async () => {
    // Arrange
    const started = await discuss(reporter.token, 'First thought');
    const answer = await reply(project.owner.token, started.id, 'An answer');

    // Act
    const one = await api(noteUrl(started.id, answer.id), { token: reporter.token });
    const notes = await api(url(`/discussions/${started.id}/notes`), { token: reporter.token });
    const edited = await api(noteUrl(started.id, started.notes[0].id), { method: 'PUT', token: reporter.token, body: { body: 'Second thought' } });

    // Assert
    expect(one).toMatchObject({ status: 200, body: answer });
    expect(notes.status).toBe(200);
    expect(notes.body).toEqual([started.notes[0], answer]);
    expect(edited.status, JSON.stringify(edited.body)).toBe(200);
    expect(edited.body).toEqual({ ...started.notes[0], body: 'Second thought', updated_at: expect.any(String) });
    expect(Date.parse(edited.body.updated_at)).toBeGreaterThanOrEqual(Date.parse(started.notes[0].updated_at));
    expect((await discussion(started.id)).body.notes.map((n: Note) => n.body)).toEqual(['Second thought', 'An answer']);
    expect(await allNotes()).toContain('Second thought');
  });

  it('lets a maintainer edit and delete anyone’s note (`admin_note`), and denies other members', async () => {
    // Arrange
    const started = await discuss(reporter.token, 'Mine');
    const noteId = started.notes[0].id;

    // Act
    const byOther = await api(noteUrl(started.id, noteId), { method: 'PUT', token: otherReporter.token, body: { body: 'Hijacked' } });
    const deleteByOther = await api(noteUrl(started.id, noteId), { method: 'DELETE', token: otherReporter.token });
    const unchanged = await discussion(started.id);
    const byMaintainer = await api(noteUrl(started.id, noteId), { method: 'PUT', token: maintainer.token, body: { body: 'Moderated' } });
    const deleteByMaintainer = await api(noteUrl(started.id, noteId), { method: 'DELETE', token: maintainer.token });

    // Assert
    expect(byOther).toMatchObject({ status: 403, body: { message: '403 Forbidden' } });
    expect(deleteByOther.status).toBe(403);
    expect(unchanged.body.notes).toEqual(started.notes);
    expect(byMaintainer).toMatchObject({ status: 200, body: { body: 'Moderated', author: { id: reporter.id } } });
    expect(deleteByMaintainer.status).toBe(204);
  });

  it('deletes a note; the last one takes the discussion with it', async () => {
    // Arrange
    const started = await discuss(reporter.token, 'Opening');
    const answer = await reply(otherReporter.token, started.id, 'Closing');

    // Act: the first note goes first; the discussion stays with its reply, which can still be answered.
    const first = await api(noteUrl(started.id, started.notes[0].id), { method: 'DELETE', token: reporter.token });
    const remaining = await discussion(started.id);
    const again = await reply(reporter.token, started.id, 'Still here');
    const second = await api(noteUrl(started.id, answer.id), { method: 'DELETE', token: otherReporter.token });
    const third = await api(noteUrl(started.id, again.id), { method: 'DELETE', token: reporter.token });

    // Assert
    expect(first.status).toBe(204);
    expect(first.body === '' || first.body === undefined || first.body === null).toBe(true);
    expect(remaining).toMatchObject({ status: 200, body: { id: started.id, individual_note: false, notes: [answer] } });
    expect(again.type).toBe('DiscussionNote');
    expect(second.status).toBe(204);
    expect(third.status).toBe(204);
    expect(await discussion(started.id)).toMatchObject({ status: 404, body: { message: '404 Discussion Not Found' } });
    expect(await api(noteUrl(started.id, again.id), { token: reporter.token })).toMatchObject({ status: 404, body: { message: '404 Discussion Not Found' } });
    expect(await allNotes()).not.toEqual(expect.arrayContaining(['Opening']));
    const listed = (await api(url('/discussions?per_page=100'), { token: reporter.token })).body as Discussion[];
    expect(listed.map((d) => d.id)).not.toContain(started.id);
  });

  it('removes the discussion when its last two notes are deleted at once', async () => {
    // Arrange
    const started = await discuss(reporter.token, 'Race one');
    const answer = await reply(reporter.token, started.id, 'Race two');

    // Act
    const results = await Promise.all([started.notes[0].id, answer.id].map((id) => api(noteUrl(started.id, id), { method: 'DELETE', token: reporter.token })));

    // Assert
    expect(results.map((r) => r.status)).toEqual([204, 204]);
    expect((await discussion(started.id)).status).toBe(404);
  });

  it('refuses bad input and unknown notes, writing nothing', async () => {
    // Arrange
    const started = await discuss(reporter.token, 'Keep me');
    const other = await discuss(reporter.token, 'Elsewhere');
    const noteId = started.notes[0].id;

    // Act
    const noBody = await api(noteUrl(started.id, noteId), { method: 'PUT', token: reporter.token, body: {} });
    const blank = await api(noteUrl(started.id, noteId), { method: 'PUT', token: reporter.token, body: { body: '   ' } });
    const both = await api(noteUrl(started.id, noteId), { method: 'PUT', token: reporter.token, body: { body: 'x', resolved: true } });
    const resolve = await api(noteUrl(started.id, noteId), { method: 'PUT', token: reporter.token, body: { resolved: true } });
    const badId = await api(url(`/discussions/${started.id}/notes/abc`), { method: 'PUT', token: reporter.token, body: { body: 'x' } });
    const unknownNote = await api(noteUrl(started.id, 999_999_999), { method: 'PUT', token: reporter.token, body: { body: 'x' } });
    const wrongDiscussion = await api(noteUrl(other.id, noteId), { method: 'DELETE', token: reporter.token });
    const unknownDiscussion = await api(noteUrl('c'.repeat(40), noteId), { method: 'DELETE', token: reporter.token });
    const unknownSha = await api(noteUrl(started.id, noteId).replace(sha, 'd'.repeat(40)), { token: reporter.token });
    const notesOfUnknown = await api(url(`/discussions/${'c'.repeat(40)}/notes`), { token: reporter.token });

    // Assert
    expect(noBody).toMatchObject({ status: 400, body: { error: 'body, resolved are missing, exactly one parameter must be provided' } });
    expect(blank.status).toBe(400);
    expect(both).toMatchObject({ status: 400, body: { error: 'body, resolved are mutually exclusive' } });
    expect(resolve).toMatchObject({ status: 400, body: { message: '400 Bad request - Note is not resolvable' } });
    expect(badId).toMatchObject({ status: 400, body: { error: 'note_id is invalid' } });
    expect(unknownNote).toMatchObject({ status: 404, body: { message: '404 Note Not Found' } });
    expect(wrongDiscussion).toMatchObject({ status: 404, body: { message: '404 Note Not Found' } });
    expect(unknownDiscussion).toMatchObject({ status: 404, body: { message: '404 Discussion Not Found' } });
    expect(unknownSha).toMatchObject({ status: 404, body: { message: '404 Commit Not Found' } });
    expect(notesOfUnknown.status).toBe(404);
    expect((await discussion(started.id)).body.notes).toEqual(started.notes);
    expect((await discussion(other.id)).body.notes).toEqual(other.notes);
  });

  it('is 404 to strangers and anonymous callers of a private project, 403 to a guest', async () => {
    // Arrange
    const started = await discuss(reporter.token, 'Private talk');
    const noteId = started.notes[0].id;
    const [stranger, guest] = await Promise.all([createUser(), newMember(project, GUEST)]);

    // Act
    const read = await api(noteUrl(started.id, noteId), { token: stranger.token });
    const edit = await api(noteUrl(started.id, noteId), { method: 'PUT', token: stranger.token, body: { body: 'x' } });
    const remove = await api(noteUrl(started.id, noteId), { method: 'DELETE', token: stranger.token });
    const anonymous = await api(noteUrl(started.id, noteId));
    const byGuest = await api(noteUrl(started.id, noteId), { method: 'DELETE', token: guest.token });

    // Assert
    for (const response of [read, edit, remove, anonymous]) expect(response).toMatchObject({ status: 404, body: { message: '404 Project Not Found' } });
    expect(byGuest.status).toBe(403);
    expect((await discussion(started.id)).body.notes).toEqual(started.notes);
  });
});

describe('POST …/commits/:sha/discussions with a position (DiffNote)', () => {
  it('starts a diff discussion on a line of the commit’s diff; replies carry its position', async () => {
    // Act
    const added = await discuss(reporter.token, 'Why four?', textPosition({ new_line: 4 }));
    const removed = await discuss(reporter.token, 'Bye two', textPosition({ old_line: 2 }));
    // An unchanged line outside the hunks (expanded context): old 9 is new 10.
    const unfolded = await discuss(reporter.token, 'Far below', textPosition({ old_line: 9, new_line: 10 }));
    const answer = await reply(otherReporter.token, added.id, 'Because');

    // Assert
    expect(added.individual_note).toBe(false);
    const position = { base_sha: parent, start_sha: parent, head_sha: sha, old_path: 'app.rb', new_path: 'app.rb', position_type: 'text', old_line: null, new_line: 4, line_range: null };
    expect(added.notes).toEqual([expect.objectContaining({ type: 'DiffNote', body: 'Why four?', noteable_type: 'Commit', commit_id: sha, position })]);
    expect(removed.notes[0]).toMatchObject({ type: 'DiffNote', position: { old_line: 2, new_line: null } });
    expect(unfolded.notes[0]).toMatchObject({ type: 'DiffNote', position: { old_line: 9, new_line: 10 } });
    expect(answer).toMatchObject({ type: 'DiffNote', body: 'Because', position });
    // The comments API shows a diff note's line.
    const comments = (await api(url('/comments?per_page=100'), { token: reporter.token })).body as Array<Record<string, unknown>>;
    expect(comments.find((c) => c.note === 'Why four?')).toMatchObject({ path: 'app.rb', line: 4, line_type: 'new' });
    expect(comments.find((c) => c.note === 'Bye two')).toMatchObject({ path: 'app.rb', line: 2, line_type: 'old' });
  });

  it('takes the position as form fields too', async () => {
    // Arrange
    const form = new URLSearchParams({ body: 'From a form' });
    for (const [name, value] of Object.entries(textPosition({ new_line: 4 }))) form.set(`position[${name}]`, String(value));

    // Act
    const response = await api(url('/discussions'), { method: 'POST', token: reporter.token, form });

    // Assert
    expect(response.status, JSON.stringify(response.body)).toBe(201);
    expect(response.body.notes[0]).toMatchObject({ type: 'DiffNote', position: { new_line: 4, head_sha: sha } });
  });

  it('refuses a position that does not resolve in the commit’s diff, writing nothing', async () => {
    // Arrange
    const before = await allNotes();
    const note = (errors: string) => `400 Bad request - Note {${errors}}`;

    // Act
    const contextLine = await api(url('/discussions'), { token: reporter.token, body: { body: 'x', position: textPosition({ new_line: 1 }) } });
    const beyond = await api(url('/discussions'), { token: reporter.token, body: { body: 'x', position: textPosition({ new_line: 400 }) } });
    const otherRefs = await api(url('/discussions'), { token: reporter.token, body: { body: 'x', position: textPosition({ new_line: 4 }, { head_sha: parent }) } });
    const otherFile = await api(url('/discussions'), { token: reporter.token, body: { body: 'x', position: { ...textPosition({ new_line: 4 }), old_path: 'nope.rb', new_path: 'nope.rb' } } });
    const noLine = await api(url('/discussions'), { token: reporter.token, body: { body: 'x', position: textPosition({}) } });
    const missingSha = await api(url('/discussions'), { token: reporter.token, body: { body: 'x', position: { ...textPosition({ new_line: 4 }), base_sha: undefined } } });
    const badType = await api(url('/discussions'), { token: reporter.token, body: { body: 'x', position: { ...textPosition({ new_line: 4 }), position_type: 'line' } } });

    // Assert
    const noLineCode = `:line_code=>["can't be blank", "must be a valid line code"]`;
    expect(contextLine).toMatchObject({ status: 400, body: { message: note(noLineCode) } });
    expect(beyond).toMatchObject({ status: 400, body: { message: note(noLineCode) } });
    expect(otherRefs).toMatchObject({ status: 400, body: { message: note(`${noLineCode}, :commit_id=>["does not match the diff refs"]`) } });
    expect(otherFile).toMatchObject({ status: 400, body: { message: note(noLineCode) } });
    expect(noLine).toMatchObject({ status: 400, body: { message: note(`${noLineCode}, :position=>["is incomplete"]`) } });
    expect(missingSha).toMatchObject({ status: 400, body: { error: 'position[base_sha] is missing' } });
    expect(badType).toMatchObject({ status: 400, body: { error: 'position[position_type] does not have a valid value' } });
    expect(await allNotes()).toEqual(before);
  });
});

describe('what a commit note records', () => {
  it('a "commented on" event in the project feed, `Note` or `DiffNote`, its note on the commit', async () => {
    // Act
    const plain = await discuss(reporter.token, 'For the feed');
    const onLine = await discuss(reporter.token, 'Diff for the feed', textPosition({ new_line: 4 }));

    // Assert
    const events = (await api(`/projects/${project.id}/events?per_page=100`, { token: project.owner.token })).body as Array<Record<string, unknown>>;
    const eventOf = (id: number) => events.find((e) => e.target_id === id);
    expect(eventOf(plain.notes[0].id)).toMatchObject({
      action_name: 'commented on',
      target_type: 'Note',
      target_title: 'Count to four',
      author_id: reporter.id,
      note: { id: plain.notes[0].id, body: 'For the feed', system: false, noteable_id: null, noteable_type: 'Commit', author: { id: reporter.id } },
    });
    expect(eventOf(onLine.notes[0].id)).toMatchObject({ action_name: 'commented on', target_type: 'DiffNote', note: { body: 'Diff for the feed', noteable_type: 'Commit' } });
  });

  it.skipIf(!isLocalRuntime())('a Note Hook to hooks with note_events, with the commit it is on', async () => {
    // Arrange: a receiver only the local runtime may reach (deployed, private addresses are refused).
    const receiver = await WebhookReceiver.start();
    try {
      const hook = await api(`/projects/${project.id}/hooks`, { token: project.owner.token, body: { url: receiver.url('/notes'), note_events: true, push_events: false } });
      expect(hook.status).toBe(201);

      // Act
      const started = await discuss(reporter.token, 'Hooked on a commit', textPosition({ new_line: 4 }));

      // Assert
      const [delivery] = await receiver.received('/notes', (d) => d.body.object_attributes?.id === started.notes[0].id);
      expect(delivery, 'no delivery arrived').toBeDefined();
      expect(delivery.headers['x-gitlab-event']).toBe('Note Hook');
      expect(delivery.body).toMatchObject({
        object_kind: 'note',
        user: { id: reporter.id },
        project: { id: project.id },
        object_attributes: { note: 'Hooked on a commit', noteable_type: 'Commit', commit_id: sha, noteable_id: null, type: 'DiffNote', discussion_id: started.id },
        commit: { id: sha, title: 'Count to four', message: 'Count to four\n\nIn German, partly.' },
      });
      await api(`/projects/${project.id}/hooks/${hook.body.id}`, { method: 'DELETE', token: project.owner.token });
    } finally {
      await receiver.close();
    }
  });

  it('note ids from the one sequence of every note: a commit note’s id lies between the issue notes around it', async () => {
    // Arrange
    const issue = await openIssue(project.id, project.owner.token);
    const comment = async () => {
      const response = await api(`/projects/${project.id}/issues/${issue.iid}/notes`, { token: project.owner.token, body: { body: 'issue note' } });
      expect(response.status).toBe(201);
      return response.body.id as number;
    };

    // Act
    const before = await comment();
    const onCommit = (await discuss(reporter.token, 'In between')).notes[0].id;
    const after = await comment();

    // Assert
    expect(onCommit).toBeGreaterThan(before);
    expect(after).toBeGreaterThan(onCommit);
  });
});
