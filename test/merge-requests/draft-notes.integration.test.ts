/**
 * Draft notes (GitLab's `API::DraftNotes`): a reviewer's pending comments on a merge request, seen
 * only by their author and counted nowhere until published; publishing makes the note (individual,
 * a reply resolving its discussion, a diff note) and removes the draft, once however many publishes
 * race.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { api } from '../support/api';
import { eventually } from '../support/eventually';
import { newMember, ownedProject, type OwnedProject, type TestUser } from '../support/fixtures';
import { listTodos } from '../support/todos';
import { commit, DEVELOPER, mrs, openMergeRequest } from './helpers';

const FILE = 'app.rb';
const NOT_FOUND = { message: '404 Not found' };
const NO_POSITION = { base_sha: null, start_sha: null, head_sha: null, old_path: null, new_path: null, position_type: 'text', old_line: null, new_line: null, line_range: null };

let project: OwnedProject;
let reviewer: TestUser;
let other: TestUser;
let mr: { iid: number; id: number; diff_refs: { base_sha: string; start_sha: string; head_sha: string } };

const drafts = (path = '') => mrs(project.id, `/${mr.iid}/draft_notes${path}`);
const draft = (token: string, body: Record<string, unknown>) => api(drafts(), { token, body });
const publish = (token: string, id: number) => api(drafts(`/${id}/publish`), { token, method: 'PUT' });
const notesBy = async (body: string) =>
  ((await api(mrs(project.id, `/${mr.iid}/notes`), { token: project.owner.token, query: { per_page: 100 } })).body as Array<{ body: string }>).filter((n) => n.body === body);
const discussions = async () => (await api(mrs(project.id, `/${mr.iid}/discussions`), { token: project.owner.token, query: { per_page: 100 } })).body as Array<{ id: string; individual_note: boolean; notes: Array<Record<string, unknown>> }>;

beforeAll(async () => {
  project = await ownedProject('private');
  await commit(project.id, project.owner.token, 'main', { [FILE]: 'line1\nline2\nline3\n' });
  await commit(project.id, project.owner.token, 'topic', { [FILE]: 'line1\nchanged\nline3\nline4\n' }, { start: 'main', update: true });
  [reviewer, other] = await Promise.all([newMember(project, DEVELOPER), newMember(project, DEVELOPER)]);
  const opened = await openMergeRequest(project.id, project.owner.token, { source_branch: 'topic' });
  mr = (await api(mrs(project.id, `/${opened.iid}`), { token: project.owner.token })).body;
});

describe('draft notes of a merge request', () => {
  it('creates, lists, reads, edits and deletes a draft, for its author alone and without any note', async () => {
    // Act
    const created = await draft(reviewer.token, { note: 'A first thought @' + project.owner.username });

    // Assert
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    expect(created.body).toEqual({
      id: expect.any(Number),
      author_id: reviewer.id,
      merge_request_id: mr.id,
      resolve_discussion: false,
      discussion_id: null,
      note: 'A first thought @' + project.owner.username,
      commit_id: null,
      line_code: null,
      position: NO_POSITION,
    });
    const id = created.body.id as number;
    expect((await api(drafts(), { token: reviewer.token })).body).toEqual([created.body]);
    expect((await api(drafts(`/${id}`), { token: reviewer.token })).body).toEqual(created.body);
    // Nobody else sees, edits, deletes or publishes it.
    expect((await api(drafts(), { token: other.token })).body).toEqual([]);
    for (const [method, path] of [['GET', ''], ['PUT', ''], ['DELETE', ''], ['PUT', '/publish']] as const) {
      const response = await api(drafts(`/${id}${path}`), { token: other.token, method, ...(method === 'PUT' && !path ? { body: { note: 'mine now' } } : {}) });
      expect([method, path, response.status, response.body]).toEqual([method, path, 404, NOT_FOUND]);
    }
    // Counted nowhere, and no todo for the user it mentions.
    expect((await api(mrs(project.id, `/${mr.iid}`), { token: project.owner.token })).body.user_notes_count).toBe(0);
    expect(await notesBy(created.body.note)).toEqual([]);
    expect((await listTodos(project.owner.token)).filter((t) => t.body === created.body.note)).toEqual([]);

    const edited = await api(drafts(`/${id}`), { token: reviewer.token, method: 'PUT', body: { note: 'A second thought' } });
    expect([edited.status, edited.body]).toEqual([200, { ...created.body, note: 'A second thought' }]);
    const missing = await api(drafts(`/${id}`), { token: reviewer.token, method: 'PUT', body: {} });
    expect([missing.status, missing.body]).toEqual([400, { message: '400 Bad request - Missing params to modify' }]);

    expect((await api(drafts(`/${id}`), { token: reviewer.token, method: 'DELETE' })).status).toBe(204);
    expect((await api(drafts(`/${id}`), { token: reviewer.token })).status).toBe(404);
    expect((await api(drafts(`/${id}`), { token: reviewer.token, method: 'DELETE' })).status).toBe(404);
  });

  it('refuses bad drafts with GitLab\'s errors, storing nothing', async () => {
    const cases: Array<[Record<string, unknown>, unknown]> = [
      [{}, { error: 'note is missing' }],
      [{ note: 'x', in_reply_to_discussion_id: 'f'.repeat(40) }, { message: { base: ['Thread to reply to cannot be found'] } }],
      [{ note: 'x', resolve_discussion: true }, { message: { base: ['User is not allowed to resolve thread'] } }],
      [{ note: 'x', position: { ...mr.diff_refs, position_type: 'text', new_path: FILE, old_path: FILE, new_line: 40 } }, { message: '400 Bad request - Note {:line_code=>["can\'t be blank", "must be a valid line code"]}' }],
      [{ note: 'x', position: { position_type: 'text', new_path: FILE } }, { error: expect.stringMatching(/^position\[\w+_sha\] is missing/) }],
    ];
    for (const [body, error] of cases) {
      const response = await draft(other.token, body);
      expect([body, response.status, response.body]).toEqual([body, 400, error]);
    }
    expect((await api(drafts('/abc'), { token: other.token })).body).toEqual({ error: 'draft_note_id is invalid' });
    expect((await api(drafts(), { token: other.token })).body).toEqual([]);
  });

  it('publishes an individual note once: it gets its todo, the draft is gone, a second publish is 404', async () => {
    // Prepare
    const body = `Published @${project.owner.username}`;
    const { body: created } = await draft(reviewer.token, { note: body });

    // Act
    const published = await publish(reviewer.token, created.id);

    // Assert
    expect(published.status, JSON.stringify(published.body)).toBe(204);
    expect(await notesBy(body)).toEqual([expect.objectContaining({ type: null, author: expect.objectContaining({ id: reviewer.id }) })]);
    expect((await api(drafts(`/${created.id}`), { token: reviewer.token })).status).toBe(404);
    expect([(await publish(reviewer.token, created.id)).body]).toEqual([NOT_FOUND]);
    await eventually(async () => expect((await listTodos(project.owner.token)).filter((t) => t.body === body)).toHaveLength(1));
  });

  it('publishes a reply in its discussion and resolves it when asked', async () => {
    // Prepare
    const started = await api(mrs(project.id, `/${mr.iid}/discussions`), { token: project.owner.token, body: { body: 'Thoughts?' } });
    const created = await draft(reviewer.token, { note: 'Looks fine', in_reply_to_discussion_id: started.body.id, resolve_discussion: true });
    expect(created.body).toMatchObject({ discussion_id: started.body.id, resolve_discussion: true });

    // Act
    expect((await publish(reviewer.token, created.body.id)).status).toBe(204);

    // Assert
    const thread = (await discussions()).find((d) => d.id === started.body.id)!;
    expect(thread.notes.map((n) => [n.body, n.resolved])).toEqual([
      ['Thoughts?', true],
      ['Looks fine', true],
    ]);
  });

  it('publishes a diff note at its position', async () => {
    // Prepare: the position as form fields, as python-gitlab sends them.
    const form = new URLSearchParams({ note: 'Why changed?' });
    for (const [name, value] of Object.entries({ ...mr.diff_refs, position_type: 'text', old_path: FILE, new_path: FILE, new_line: 2 })) form.set(`position[${name}]`, String(value));
    const created = await api(drafts(), { token: reviewer.token, form });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const position = { ...mr.diff_refs, position_type: 'text', old_path: FILE, new_path: FILE, old_line: null, new_line: 2, line_range: null };
    expect(created.body).toMatchObject({ line_code: expect.stringMatching(/^[0-9a-f]{40}_\d+_2$/), position });

    // Act
    expect((await publish(reviewer.token, created.body.id)).status).toBe(204);

    // Assert
    const thread = (await discussions()).find((d) => d.notes[0].body === 'Why changed?')!;
    expect(thread.notes[0]).toMatchObject({ type: 'DiffNote', position, resolvable: true, author: expect.objectContaining({ id: reviewer.id }) });
  });

  it('bulk publishes all the caller\'s drafts, not other users\', and marks the reviewer\'s review reviewed', async () => {
    // Prepare: the caller is the merge request's reviewer.
    expect((await api(mrs(project.id, `/${mr.iid}`), { token: project.owner.token, method: 'PUT', body: { reviewer_ids: [reviewer.id] } })).status).toBe(200);
    const reviewState = async () => (await api(mrs(project.id, `/${mr.iid}/reviewers`), { token: project.owner.token })).body.map((entry: { user: { id: number }; state: string }) => [entry.user.id, entry.state]);
    const bodies = ['Bulk one', 'Bulk two'];
    for (const note of bodies) expect((await draft(reviewer.token, { note })).status).toBe(201);
    const theirs = await draft(other.token, { note: 'Not yet' });
    const before = await reviewState();

    // Act
    const response = await api(drafts('/bulk_publish'), { token: reviewer.token, method: 'POST' });

    // Assert
    expect(response.status).toBe(204);
    expect({ before, after: await reviewState() }).toEqual({ before: [[reviewer.id, 'unreviewed']], after: [[reviewer.id, 'reviewed']] });
    for (const body of bodies) expect(await notesBy(body)).toHaveLength(1);
    expect((await api(drafts(), { token: reviewer.token })).body).toEqual([]);
    expect((await api(drafts(), { token: other.token })).body).toEqual([theirs.body]);
    expect(await notesBy('Not yet')).toEqual([]);
  });

  it('publishes the caller\'s drafts when they approve with publish_review', async () => {
    // Prepare
    expect((await draft(reviewer.token, { note: 'Approved with a nit' })).status).toBe(201);

    // Act
    const approved = await api(mrs(project.id, `/${mr.iid}/approve`), { token: reviewer.token, body: { publish_review: true } });

    // Assert
    expect(approved.status, JSON.stringify(approved.body)).toBe(201);
    expect(await notesBy('Approved with a nit')).toHaveLength(1);
    expect((await api(drafts(), { token: reviewer.token })).body).toEqual([]);
  });

  it('makes one note of one draft however many publishes race', async () => {
    // Prepare
    const { body: created } = await draft(other.token, { note: 'Raced' });
    const { body: bulk } = await draft(other.token, { note: 'Raced in bulk' });

    // Act
    const responses = await Promise.all([
      ...Array.from({ length: 4 }, () => publish(other.token, created.id)),
      ...Array.from({ length: 2 }, () => api(drafts('/bulk_publish'), { token: other.token, method: 'POST' })),
    ]);

    // Assert: the single publishes that lost answer 404; bulk publishes skip what is gone.
    expect(responses.slice(4).map((r) => r.status)).toEqual([204, 204]);
    const singles = responses.slice(0, 4);
    expect(singles.filter((r) => r.status === 204).length).toBeLessThanOrEqual(1);
    expect(singles.filter((r) => r.status !== 204).map((r) => [r.status, r.body])).toEqual(singles.filter((r) => r.status !== 204).map(() => [404, NOT_FOUND]));
    expect(await notesBy('Raced')).toHaveLength(1);
    expect(await notesBy(bulk.note)).toHaveLength(1);
    expect((await api(drafts(), { token: other.token })).body).toEqual([]);
  });
});
