/**
 * Diff notes (GitLab's `POST /projects/:id/merge_requests/:iid/discussions` with `position`): a
 * discussion on a line of the merge request's diff, a `DiffNote` with its position, resolvable,
 * listed in the discussions and the notes; a line that is not in the diff of the version the
 * position's shas name is refused with GitLab's model errors, writing nothing.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, isLocalRuntime } from '../support/api';
import { WebhookReceiver } from '../support/webhooks';
import { createUser, newMember, ownedProject, type OwnedProject, type TestUser } from '../support/fixtures';
import { commit, mrs, openMergeRequest, REPORTER } from './helpers';

const FILE = 'app.rb';
const LINE_CODE_ERROR = '400 Bad request - Note {:line_code=>["can\'t be blank", "must be a valid line code"]}';

let project: OwnedProject;
let reporter: TestUser;
let mr: { iid: number; id: number; diff_refs: { base_sha: string; start_sha: string; head_sha: string } };

const discussionsUrl = () => mrs(project.id, `/${mr.iid}/discussions`);
const textPosition = (lines: { old_line?: number; new_line?: number }) => ({ ...mr.diff_refs, position_type: 'text', old_path: FILE, new_path: FILE, ...lines });
const discussionCount = async () => (await api(discussionsUrl(), { token: project.owner.token })).body.length as number;

beforeAll(async () => {
  project = await ownedProject('private');
  await commit(project.id, project.owner.token, 'main', { [FILE]: 'line1\nline2\nline3\nline4\nline5\n' });
  // The diff: line 3 changed, line 6 added (`@@ -1,5 +1,6 @@`).
  await commit(project.id, project.owner.token, 'topic', { [FILE]: 'line1\nline2\nchanged\nline4\nline5\nline6\n' }, { start: 'main', update: true });
  reporter = await newMember(project, REPORTER);
  const opened = await openMergeRequest(project.id, project.owner.token, { source_branch: 'topic' });
  const single = await api(mrs(project.id, `/${opened.iid}`), { token: project.owner.token });
  expect(single.status).toBe(200);
  mr = single.body;
  expect(mr.diff_refs.head_sha).toMatch(/^[0-9a-f]{40}$/);
});

describe('POST /projects/:id/merge_requests/:merge_request_iid/discussions with position', () => {
  it('starts a diff discussion on an added line: a resolvable DiffNote with its position', async () => {
    // Act
    const response = await api(discussionsUrl(), { token: reporter.token, body: { body: 'Why changed?', position: textPosition({ new_line: 3 }) } });

    // Assert
    expect(response.status, JSON.stringify(response.body)).toBe(201);
    expect(response.body).toMatchObject({ individual_note: false, notes: [{ body: 'Why changed?' }] });
    const [note] = response.body.notes;
    expect(note).toMatchObject({
      type: 'DiffNote',
      noteable_type: 'MergeRequest',
      noteable_iid: mr.iid,
      commit_id: null,
      resolvable: true,
      resolved: false,
      position: { ...mr.diff_refs, position_type: 'text', old_path: FILE, new_path: FILE, old_line: null, new_line: 3, line_range: null },
    });
    // Listed in the discussions and in the merge request's notes, as created.
    const listed = (await api(discussionsUrl(), { token: reporter.token })).body.find((d: { id: string }) => d.id === response.body.id);
    expect(listed.notes[0]).toEqual(note);
    const notes = await api(mrs(project.id, `/${mr.iid}/notes`), { token: reporter.token });
    expect(notes.body.find((n: { id: number }) => n.id === note.id)).toEqual(note);
    // A reply is a diff note at the same position (GitLab's `reply_attributes`).
    const reply = await api(`${discussionsUrl()}/${response.body.id}/notes`, { token: project.owner.token, body: { body: 'A typo' } });
    expect(reply.status).toBe(201);
    expect(reply.body).toMatchObject({ type: 'DiffNote', position: note.position, resolvable: true });
  });

  describe('its Note Hook', () => {
    let receiver: WebhookReceiver | undefined;
    afterAll(async () => receiver?.close());

    it.runIf(isLocalRuntime())('names the note a DiffNote with its position and line code, as GitLab', async () => {
      // Prepare
      receiver = await WebhookReceiver.start();
      const hook = await api(`/projects/${project.id}/hooks`, { token: project.owner.token, body: { url: receiver.url('/notes'), note_events: true, push_events: false } });
      expect(hook.status).toBe(201);

      // Act
      const response = await api(discussionsUrl(), { token: project.owner.token, body: { body: 'Hooked', position: textPosition({ new_line: 6 }) } });
      expect(response.status).toBe(201);

      // Assert
      const delivery = await receiver.first(({ body }) => body.object_attributes?.note === 'Hooked');
      expect(delivery?.body.object_attributes).toMatchObject({
        type: 'DiffNote',
        line_code: expect.stringMatching(/^[0-9a-f]{40}_\d+_6$/),
        position: { ...mr.diff_refs, position_type: 'text', new_path: FILE, new_line: 6 },
      });
    });
  });

  it('takes the position as form fields, on a removed and on an unchanged line of the diff', async () => {
    for (const lines of [{ old_line: 3 }, { old_line: 4, new_line: 4 }]) {
      // Arrange
      const form = new URLSearchParams({ body: 'Here' });
      for (const [name, value] of Object.entries(textPosition(lines))) form.set(`position[${name}]`, String(value));

      // Act
      const response = await api(discussionsUrl(), { token: reporter.token, form });

      // Assert
      expect(response.status, JSON.stringify(response.body)).toBe(201);
      expect(response.body.notes[0]).toMatchObject({ type: 'DiffNote', position: { old_line: lines.old_line, new_line: lines.new_line ?? null } });
    }
  });

  it.each([
    ['a line that is not in the diff', { new_line: 40 }],
    ['a line number of the wrong side', { old_line: 6 }],
    ['an unchanged line given by one side only', { new_line: 1 }],
  ])('refuses %s with GitLab\'s line_code errors, writing nothing', async (_name, lines) => {
    // Arrange
    const before = await discussionCount();

    // Act
    const response = await api(discussionsUrl(), { token: reporter.token, body: { body: 'Here?', position: textPosition(lines) } });

    // Assert
    expect(response.status).toBe(400);
    expect(response.body).toEqual({ message: LINE_CODE_ERROR });
    expect(await discussionCount()).toBe(before);
  });

  it('refuses shas that are not a version of the merge request', async () => {
    // Act
    const response = await api(discussionsUrl(), {
      token: reporter.token,
      body: { body: 'Here?', position: { ...textPosition({ new_line: 3 }), base_sha: mr.diff_refs.head_sha } },
    });

    // Assert
    expect(response.status).toBe(400);
    expect(response.body).toEqual({ message: LINE_CODE_ERROR });
  });

  it('refuses a text position without a line as incomplete', async () => {
    // Act
    const response = await api(discussionsUrl(), { token: reporter.token, body: { body: 'Here?', position: textPosition({}) } });

    // Assert
    expect(response.status).toBe(400);
    expect(response.body).toEqual({ message: `${LINE_CODE_ERROR.slice(0, -1)}, :position=>["is incomplete"]}` });
  });

  it("answers Grape's errors for a missing sha or an unknown position type", async () => {
    // Arrange
    const before = await discussionCount();
    const { head_sha: _head, ...withoutHead } = textPosition({ new_line: 3 });

    // Act
    const missing = await api(discussionsUrl(), { token: reporter.token, body: { body: 'Here?', position: withoutHead } });
    const unknownType = await api(discussionsUrl(), { token: reporter.token, body: { body: 'Here?', position: { ...textPosition({ new_line: 3 }), position_type: 'video' } } });
    const badLine = await api(discussionsUrl(), { token: reporter.token, body: { body: 'Here?', position: { ...textPosition({}), new_line: 'three' } } });

    // Assert
    expect([missing.status, missing.body]).toEqual([400, { error: 'position[head_sha] is missing' }]);
    expect([unknownType.status, unknownType.body]).toEqual([400, { error: 'position[position_type] does not have a valid value' }]);
    expect([badLine.status, badLine.body]).toEqual([400, { error: 'position[new_line] is invalid' }]);
    expect(await discussionCount()).toBe(before);
  });

  it('answers 404 to who cannot see the private project, writing nothing', async () => {
    // Arrange
    const stranger = await createUser();
    const before = await discussionCount();

    // Act
    const response = await api(discussionsUrl(), { token: stranger.token, body: { body: 'Here?', position: textPosition({ new_line: 3 }) } });

    // Assert
    expect(response.status).toBe(404);
    expect(response.body).toEqual({ message: '404 Project Not Found' });
    expect(await discussionCount()).toBe(before);
  });
});
