/**
 * Merge request discussions (GitLab's `API::Discussions` for merge requests): threads of notes
 * that are resolvable, who may resolve them, and `blocking_discussions_resolved`, which follows
 * the discussions' state exactly, also under racing requests.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { api, rootToken } from '../support/api';
import { newMember, ownedProject, type OwnedProject, type TestUser } from '../support/fixtures';
import { commit, DEVELOPER, mrs, openMergeRequest, REPORTER } from './helpers';

const DISCUSSION_ID = /^[0-9a-f]{40}$/;

let project: OwnedProject;
let developer: TestUser;
let reporter: TestUser;
let branches = 0;

/** A new merge request opened by the developer, from a new branch. */
async function newMergeRequest() {
  const branch = `topic-${++branches}`;
  await commit(project.id, project.owner.token, branch, { [`${branch}.txt`]: `${branch}\n` }, { start: 'main' });
  return openMergeRequest(project.id, developer.token, { source_branch: branch, title: `Change ${branch}` });
}

const discussionsUrl = (iid: number) => mrs(project.id, `/${iid}/discussions`);
const discussionUrl = (iid: number, id: string) => `${discussionsUrl(iid)}/${id}`;
const noteUrl = (iid: number, id: string, noteId: number) => `${discussionUrl(iid, id)}/notes/${noteId}`;

async function startDiscussion(iid: number, token: string, body = 'Why this change?') {
  const response = await api(discussionsUrl(iid), { token, body: { body } });
  expect(response.status, JSON.stringify(response.body)).toBe(201);
  return response.body as { id: string; notes: { id: number }[] };
}

async function reply(iid: number, discussionId: string, token: string, body = 'Because of the cache') {
  const response = await api(`${discussionUrl(iid, discussionId)}/notes`, { token, body: { body } });
  expect(response.status, JSON.stringify(response.body)).toBe(201);
  return response.body as { id: number };
}

async function blockingResolved(iid: number): Promise<boolean> {
  return (await api(mrs(project.id, `/${iid}`), { token: rootToken() })).body.blocking_discussions_resolved;
}

async function discussion(iid: number, id: string) {
  const response = await api(discussionUrl(iid, id), { token: rootToken() });
  expect(response.status).toBe(200);
  return response.body as { id: string; notes: { id: number; resolved?: boolean; resolvable: boolean }[] };
}

beforeAll(async () => {
  project = await ownedProject('private');
  // `blocking_discussions_resolved` follows the discussions only where the project requires them resolved (GitLab's `mergeable_discussions_state?`).
  const setting = await api(`/projects/${project.id}`, { method: 'PUT', token: project.owner.token, body: { only_allow_merge_if_all_discussions_are_resolved: true } });
  expect(setting.status).toBe(200);
  await commit(project.id, project.owner.token, 'main', { 'README.md': '# readme\n' });
  [developer, reporter] = await Promise.all([newMember(project, DEVELOPER), newMember(project, REPORTER)]);
});

describe('POST /projects/:id/merge_requests/:merge_request_iid/discussions', () => {
  it('starts a resolvable discussion, unresolved, which blocks the merge request', async () => {
    // Prepare
    const mr = await newMergeRequest();
    expect(mr.blocking_discussions_resolved).toBe(true);

    // Act
    const response = await api(discussionsUrl(mr.iid), { token: reporter.token, body: { body: 'Why this change?' } });

    // Assess
    expect(response.status).toBe(201);
    expect(response.body).toEqual({
      id: expect.stringMatching(DISCUSSION_ID),
      individual_note: false,
      notes: [
        expect.objectContaining({
          type: 'DiscussionNote',
          body: 'Why this change?',
          author: expect.objectContaining({ id: reporter.id }),
          noteable_id: mr.id,
          noteable_type: 'MergeRequest',
          noteable_iid: mr.iid,
          resolvable: true,
          resolved: false,
          resolved_by: null,
          resolved_at: null,
        }),
      ],
    });
    expect(await blockingResolved(mr.iid)).toBe(false);
    const list = await api(discussionsUrl(mr.iid), { token: reporter.token });
    expect(list.status).toBe(200);
    expect(list.body).toEqual([response.body]);
    expect((await api(mrs(project.id, `/${mr.iid}`), { token: rootToken() })).body.user_notes_count).toBe(1);
  });

  it('keeps individual notes (the notes API) unresolvable and not blocking', async () => {
    // Prepare
    const mr = await newMergeRequest();

    // Act
    const note = await api(mrs(project.id, `/${mr.iid}/notes`), { token: reporter.token, body: { body: 'LGTM' } });

    // Assess
    expect(note.status).toBe(201);
    expect(note.body).toMatchObject({ type: null, resolvable: false });
    expect(note.body).not.toHaveProperty('resolved');
    expect(await blockingResolved(mr.iid)).toBe(true);
  });

  it('refuses a blank body, an anonymous caller, and a caller who cannot see the merge request, writing nothing', async () => {
    // Prepare
    const mr = await newMergeRequest();
    const stranger = await newMember({ id: (await ownedProject()).id }, DEVELOPER);

    // Act
    const blank = await api(discussionsUrl(mr.iid), { token: reporter.token, body: { body: '  ' } });
    const missing = await api(discussionsUrl(mr.iid), { token: reporter.token, body: {} });
    const anonymous = await api(discussionsUrl(mr.iid), { body: { body: 'Hi' } });
    const hidden = await api(discussionsUrl(mr.iid), { token: stranger.token, body: { body: 'Hi' } });

    // Assess
    expect(blank.status).toBe(400);
    expect(missing.status).toBe(400);
    expect(missing.body).toEqual({ error: 'body is missing' });
    expect(anonymous.status).toBe(401);
    expect(hidden.status).toBe(404);
    expect(hidden.body).toEqual({ message: '404 Project Not Found' });
    expect((await api(discussionsUrl(mr.iid), { token: rootToken() })).body).toEqual([]);
    expect(await blockingResolved(mr.iid)).toBe(true);
  });
});

describe('replies', () => {
  it('adds an unresolved note: a resolved discussion turns unresolved again', async () => {
    // Prepare
    const mr = await newMergeRequest();
    const started = await startDiscussion(mr.iid, reporter.token);
    const resolved = await api(discussionUrl(mr.iid, started.id), { method: 'PUT', token: developer.token, body: { resolved: true } });
    expect(resolved.status).toBe(200);
    expect(await blockingResolved(mr.iid)).toBe(true);

    // Act
    const note = await api(`${discussionUrl(mr.iid, started.id)}/notes`, { token: project.owner.token, body: { body: 'Not yet' } });

    // Assess
    expect(note.status).toBe(201);
    expect(note.body).toMatchObject({ type: 'DiscussionNote', resolvable: true, resolved: false });
    expect(await blockingResolved(mr.iid)).toBe(false);
  });

  it('turns an individual note into a resolvable discussion when replied to', async () => {
    // Prepare
    const mr = await newMergeRequest();
    const individual = (await api(mrs(project.id, `/${mr.iid}/notes`), { token: reporter.token, body: { body: 'Hmm' } })).body;
    const listed = (await api(discussionsUrl(mr.iid), { token: reporter.token })).body;
    expect(listed).toEqual([expect.objectContaining({ individual_note: true })]);

    // Act
    await reply(mr.iid, listed[0].id, developer.token);

    // Assess
    const read = await discussion(mr.iid, listed[0].id);
    expect(read.notes.map((note) => [note.id === individual.id, note.resolvable, note.resolved])).toEqual([
      [true, true, false],
      [false, true, false],
    ]);
    expect(await blockingResolved(mr.iid)).toBe(false);
  });
});

describe('PUT /projects/:id/merge_requests/:merge_request_iid/discussions/:discussion_id', () => {
  it('resolves every note of the discussion (the merge request author), and unresolves them', async () => {
    // Prepare
    const mr = await newMergeRequest();
    const started = await startDiscussion(mr.iid, reporter.token);
    await reply(mr.iid, started.id, project.owner.token);

    // Act
    const resolved = await api(discussionUrl(mr.iid, started.id), { method: 'PUT', token: developer.token, body: { resolved: true } });

    // Assess
    expect(resolved.status).toBe(200);
    expect(resolved.body.id).toBe(started.id);
    expect(resolved.body.notes).toEqual([
      expect.objectContaining({ resolvable: true, resolved: true, resolved_by: expect.objectContaining({ id: developer.id }), resolved_at: expect.any(String) }),
      expect.objectContaining({ resolvable: true, resolved: true, resolved_by: expect.objectContaining({ id: developer.id }), resolved_at: expect.any(String) }),
    ]);
    expect(await blockingResolved(mr.iid)).toBe(true);
    expect((await discussion(mr.iid, started.id)).notes.map((note) => note.resolved)).toEqual([true, true]);

    // Act
    const unresolved = await api(`${discussionUrl(mr.iid, started.id)}?resolved=false`, { method: 'PUT', token: project.owner.token });

    // Assess
    expect(unresolved.status).toBe(200);
    expect(unresolved.body.notes).toEqual([
      expect.objectContaining({ resolved: false, resolved_by: null, resolved_at: null }),
      expect.objectContaining({ resolved: false, resolved_by: null, resolved_at: null }),
    ]);
    expect(await blockingResolved(mr.iid)).toBe(false);
  });

  it('refuses a reporter who did not author the merge request (403), and a missing resolved (400), changing nothing', async () => {
    // Prepare
    const mr = await newMergeRequest();
    const started = await startDiscussion(mr.iid, reporter.token);

    // Act
    const byReporter = await api(discussionUrl(mr.iid, started.id), { method: 'PUT', token: reporter.token, body: { resolved: true } });
    const missing = await api(discussionUrl(mr.iid, started.id), { method: 'PUT', token: developer.token, body: {} });
    const invalid = await api(discussionUrl(mr.iid, started.id), { method: 'PUT', token: developer.token, body: { resolved: 'maybe' } });

    // Assess
    expect(byReporter.status).toBe(403);
    expect(missing.status).toBe(400);
    expect(missing.body).toEqual({ error: 'resolved is missing' });
    expect(invalid.status).toBe(400);
    expect((await discussion(mr.iid, started.id)).notes.map((note) => note.resolved)).toEqual([false]);
    expect(await blockingResolved(mr.iid)).toBe(false);
  });

  it('refuses to resolve an individual note\'s discussion (not resolvable: 403) and answers 404 for an unknown one', async () => {
    // Prepare
    const mr = await newMergeRequest();
    await api(mrs(project.id, `/${mr.iid}/notes`), { token: reporter.token, body: { body: 'Hmm' } });
    const [individual] = (await api(discussionsUrl(mr.iid), { token: reporter.token })).body;

    // Act
    const notResolvable = await api(discussionUrl(mr.iid, individual.id), { method: 'PUT', token: developer.token, body: { resolved: true } });
    const unknown = await api(discussionUrl(mr.iid, 'f'.repeat(40)), { method: 'PUT', token: developer.token, body: { resolved: true } });

    // Assess
    expect(notResolvable.status).toBe(403);
    expect(unknown.status).toBe(404);
    expect(unknown.body).toEqual({ message: '404 Discussion Not Found' });
  });
});

describe('PUT /projects/:id/merge_requests/:merge_request_iid/discussions/:discussion_id/notes/:note_id', () => {
  it('resolves one note (its author, a reporter); the discussion is resolved once all are', async () => {
    // Prepare
    const mr = await newMergeRequest();
    const started = await startDiscussion(mr.iid, reporter.token);
    const second = await reply(mr.iid, started.id, project.owner.token);

    // Act
    const first = await api(noteUrl(mr.iid, started.id, started.notes[0].id), { method: 'PUT', token: reporter.token, body: { resolved: true } });

    // Assess
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({ id: started.notes[0].id, resolvable: true, resolved: true, resolved_by: { id: reporter.id } });
    expect(await blockingResolved(mr.iid)).toBe(false);

    // Act
    const last = await api(noteUrl(mr.iid, started.id, second.id), { method: 'PUT', token: developer.token, body: { resolved: 'true' } });

    // Assess
    expect(last.status).toBe(200);
    expect(await blockingResolved(mr.iid)).toBe(true);
  });

  it('refuses a reporter resolving another\'s note (403), an individual note (400), and body with resolved (400)', async () => {
    // Prepare
    const mr = await newMergeRequest();
    const started = await startDiscussion(mr.iid, project.owner.token);
    await api(mrs(project.id, `/${mr.iid}/notes`), { token: reporter.token, body: { body: 'Hmm' } });
    const individual = (await api(discussionsUrl(mr.iid), { token: reporter.token })).body[1];

    // Act
    const byReporter = await api(noteUrl(mr.iid, started.id, started.notes[0].id), { method: 'PUT', token: reporter.token, body: { resolved: true } });
    const notResolvable = await api(noteUrl(mr.iid, individual.id, individual.notes[0].id), { method: 'PUT', token: reporter.token, body: { resolved: true } });
    const both = await api(noteUrl(mr.iid, started.id, started.notes[0].id), { method: 'PUT', token: project.owner.token, body: { resolved: true, body: 'x' } });

    // Assess
    expect(byReporter.status).toBe(403);
    expect(notResolvable.status).toBe(400);
    expect(notResolvable.body).toEqual({ message: '400 Bad request - Note is not resolvable' });
    expect(both.status).toBe(400);
    expect((await discussion(mr.iid, started.id)).notes).toEqual([expect.objectContaining({ resolved: false, body: 'Why this change?' })]);
    expect(await blockingResolved(mr.iid)).toBe(false);
  });

  it('edits a note\'s body, keeping its resolution', async () => {
    // Prepare
    const mr = await newMergeRequest();
    const started = await startDiscussion(mr.iid, reporter.token);

    // Act
    const edited = await api(noteUrl(mr.iid, started.id, started.notes[0].id), { method: 'PUT', token: reporter.token, body: { body: 'Why, really?' } });

    // Assess
    expect(edited.status).toBe(200);
    expect(edited.body).toMatchObject({ body: 'Why, really?', resolvable: true, resolved: false });
  });
});

describe('DELETE /projects/:id/merge_requests/:merge_request_iid/discussions/:discussion_id/notes/:note_id', () => {
  it('deleting the last unresolved note resolves the discussion', async () => {
    // Prepare
    const mr = await newMergeRequest();
    const started = await startDiscussion(mr.iid, reporter.token);
    const second = await reply(mr.iid, started.id, developer.token);
    await api(noteUrl(mr.iid, started.id, started.notes[0].id), { method: 'PUT', token: reporter.token, body: { resolved: true } });
    expect(await blockingResolved(mr.iid)).toBe(false);

    // Act
    const deleted = await api(noteUrl(mr.iid, started.id, second.id), { method: 'DELETE', token: developer.token });

    // Assess
    expect(deleted.status).toBe(204);
    expect(await blockingResolved(mr.iid)).toBe(true);
    expect((await discussion(mr.iid, started.id)).notes.map((note) => note.id)).toEqual([started.notes[0].id]);
  });

  it('refuses a reporter deleting another\'s note (403), keeping it', async () => {
    // Prepare
    const mr = await newMergeRequest();
    const started = await startDiscussion(mr.iid, developer.token);

    // Act
    const response = await api(noteUrl(mr.iid, started.id, started.notes[0].id), { method: 'DELETE', token: reporter.token });

    // Assess
    expect(response.status).toBe(403);
    expect((await discussion(mr.iid, started.id)).notes).toHaveLength(1);
    expect(await blockingResolved(mr.iid)).toBe(false);
  });
});

describe('blocking_discussions_resolved under racing requests', () => {
  it('matches the discussions after concurrent resolves, unresolves and replies', async () => {
    // Prepare
    const mr = await newMergeRequest();
    const threads = await Promise.all([1, 2, 3].map(() => startDiscussion(mr.iid, developer.token)));
    const replies = await Promise.all(threads.map((thread) => reply(mr.iid, thread.id, reporter.token)));

    // Act: every note resolved at once, some twice, with whole-discussion resolves racing them.
    const resolveNotes = threads.flatMap((thread, i) =>
      [thread.notes[0].id, replies[i].id, replies[i].id].map((noteId) => api(noteUrl(mr.iid, thread.id, noteId), { method: 'PUT', token: developer.token, body: { resolved: true } })),
    );
    const resolveThreads = threads.map((thread) => api(discussionUrl(mr.iid, thread.id), { method: 'PUT', token: developer.token, body: { resolved: true } }));
    const results = await Promise.all([...resolveNotes, ...resolveThreads]);

    // Assess
    expect(results.map((response) => response.status).every((status) => status === 200 || status === 409)).toBe(true);
    const settled = await Promise.all(threads.map((thread) => api(discussionUrl(mr.iid, thread.id), { method: 'PUT', token: developer.token, body: { resolved: true } })));
    expect(settled.map((response) => response.status)).toEqual([200, 200, 200]);
    expect(await blockingResolved(mr.iid)).toBe(true);

    // Act: unresolve one note of the first thread while the others race resolve and unresolve.
    await Promise.all([
      api(noteUrl(mr.iid, threads[0].id, replies[0].id), { method: 'PUT', token: developer.token, body: { resolved: false } }),
      api(discussionUrl(mr.iid, threads[1].id), { method: 'PUT', token: developer.token, body: { resolved: false } }),
      api(discussionUrl(mr.iid, threads[1].id), { method: 'PUT', token: developer.token, body: { resolved: true } }),
      reply(mr.iid, threads[2].id, reporter.token, 'one more'),
      api(discussionUrl(mr.iid, threads[2].id), { method: 'PUT', token: developer.token, body: { resolved: true } }),
    ]);

    // Assess: the flag tells whether any discussion has an unresolved note.
    const read = await Promise.all(threads.map((thread) => discussion(mr.iid, thread.id)));
    const anyUnresolved = read.some((thread) => thread.notes.some((note) => note.resolvable && !note.resolved));
    expect(anyUnresolved).toBe(true);
    expect(await blockingResolved(mr.iid)).toBe(!anyUnresolved);
    // Resolving everything leaves nothing blocking.
    await Promise.all(threads.map((thread) => api(discussionUrl(mr.iid, thread.id), { method: 'PUT', token: developer.token, body: { resolved: true } })));
    expect(await blockingResolved(mr.iid)).toBe(true);
  });
});

describe('merging when the project requires resolved discussions', () => {
  it('refuses to merge while a discussion is unresolved (405), and merges once resolved', async () => {
    // Prepare
    const mr = await newMergeRequest();
    const setting = await api(`/projects/${project.id}`, { method: 'PUT', token: project.owner.token, body: { only_allow_merge_if_all_discussions_are_resolved: true } });
    expect(setting.status).toBe(200);
    const started = await startDiscussion(mr.iid, reporter.token);

    try {
      // Act
      const refused = await api(mrs(project.id, `/${mr.iid}/merge`), { method: 'PUT', token: project.owner.token });

      // Assess
      expect(refused.status).toBe(405);
      expect((await api(mrs(project.id, `/${mr.iid}`), { token: rootToken() })).body.state).toBe('opened');

      // Act
      await api(discussionUrl(mr.iid, started.id), { method: 'PUT', token: developer.token, body: { resolved: true } });
      const merged = await api(mrs(project.id, `/${mr.iid}/merge`), { method: 'PUT', token: project.owner.token });

      // Assess
      expect(merged.status, JSON.stringify(merged.body)).toBe(200);
      expect(merged.body.state).toBe('merged');
    } finally {
      await api(`/projects/${project.id}`, { method: 'PUT', token: project.owner.token, body: { only_allow_merge_if_all_discussions_are_resolved: false } });
    }
  });
});
