/**
 * Merge requests over HTTP: open (branches must exist and differ, one open merge request per
 * pair), read, list with GitLab's filters and exact counts, edit (at least one attribute,
 * close/reopen, a new target branch records a version), soft delete (owners), commits, changes,
 * diffs (paginated, unified on request), versions, participants; permissions of guests, reporters, developers, owners and non-members of private projects.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { api, rootToken } from '../support/api';
import { createGroup, createProject, createUser, newMember, ownedProject, type OwnedProject, type TestUser } from '../support/fixtures';
import { commit, DEVELOPER, GUEST, head, mrs, openMergeRequest, REPORTER } from './helpers';

const SINGLE_FIELDS = [
  'id', 'iid', 'project_id', 'title', 'description', 'state', 'created_at', 'updated_at', 'target_branch', 'source_branch', 'upvotes', 'downvotes',
  'author', 'assignee', 'source_project_id', 'target_project_id', 'labels', 'work_in_progress', 'milestone', 'merge_when_pipeline_succeeds',
  'merge_status', 'sha', 'merge_commit_sha', 'user_notes_count', 'should_remove_source_branch', 'force_remove_source_branch', 'web_url', 'subscribed',
];

describe('merge requests', () => {
  let project: OwnedProject;
  let developer: TestUser;
  let reporter: TestUser;
  let guest: TestUser;
  let stranger: TestUser;
  let featureHead: string;
  let mainHead: string;

  beforeAll(async () => {
    project = await ownedProject('private');
    const token = project.owner.token;
    await commit(project.id, token, 'main', { 'README.md': '# readme\n', 'app.txt': 'one\ntwo\nthree\n' });
    featureHead = (await commit(project.id, token, 'feature', { 'feature.txt': 'new feature\n' }, { start: 'main', message: 'Add the feature\n\nFixes #1' })).id;
    await commit(project.id, token, 'other', { 'other.txt': 'other\n' }, { start: 'main' });
    await commit(project.id, token, 'third', { 'third.txt': 'third\n' }, { start: 'main' });
    mainHead = await head(project.id, token, 'main');
    [developer, reporter, guest, stranger] = await Promise.all([newMember(project, DEVELOPER), newMember(project, REPORTER), newMember(project, GUEST), createUser()]);
  });

  it('opens a merge request with GitLab’s fields, its first version, commits and changes', async () => {
    const response = await api(mrs(project.id), {
      token: developer.token,
      body: { source_branch: 'feature', target_branch: 'main', title: 'WIP: Add the feature', description: 'It adds it', remove_source_branch: true },
    });
    expect(response.status, JSON.stringify(response.body)).toBe(201);
    const mr = response.body;
    for (const field of SINGLE_FIELDS) expect(mr).toHaveProperty(field);
    expect(mr).toMatchObject({
      iid: 1,
      project_id: project.id,
      state: 'opened',
      source_branch: 'feature',
      target_branch: 'main',
      source_project_id: project.id,
      target_project_id: project.id,
      work_in_progress: true,
      merge_status: 'unchecked',
      sha: featureHead,
      merge_commit_sha: null,
      user_notes_count: 0,
      force_remove_source_branch: true,
      should_remove_source_branch: null,
      subscribed: true,
      labels: [],
      upvotes: 0,
      downvotes: 0,
      author: { id: developer.id, username: developer.username },
      assignee: null,
    });
    expect(mr.web_url).toMatch(new RegExp(`/${project.fullPath}/merge_requests/1$`));
    // Current GitLab's fields besides the spec's.
    expect(mr).toMatchObject({
      draft: true,
      assignees: [],
      reviewers: [],
      reference: '!1',
      references: { short: '!1', relative: '!1', full: `${project.fullPath}!1` },
      task_completion_status: { count: 0, completed_count: 0 },
      has_conflicts: false,
      merged_by: null,
      merge_user: null,
      closed_by: null,
      imported: false,
      imported_from: 'none',
      squash_on_merge: false,
      prepared_at: mr.created_at,
    });

    const versions = await api(mrs(project.id, '/1/versions'), { token: developer.token });
    expect(versions.status).toBe(200);
    expect(versions.body).toHaveLength(1);
    expect(versions.body[0]).toMatchObject({ head_commit_sha: featureHead, base_commit_sha: mainHead, start_commit_sha: mainHead, merge_request_id: mr.id, state: 'collected', real_size: '1' });

    const version = await api(mrs(project.id, `/1/versions/${versions.body[0].id}`), { token: developer.token });
    expect(version.body.commits.map((c: { id: string }) => c.id)).toEqual([featureHead]);
    expect(version.body.diffs[0]).toMatchObject({ old_path: 'feature.txt', new_path: 'feature.txt', a_mode: '0', b_mode: '100644', new_file: true, renamed_file: false, deleted_file: false });
    expect(version.body.diffs[0].diff).toContain('+new feature');

    const commits = await api(mrs(project.id, '/1/commits'), { token: developer.token });
    expect(commits.body).toEqual([expect.objectContaining({ id: featureHead, short_id: featureHead.slice(0, 8), title: 'Add the feature', author_name: expect.any(String), author_email: expect.any(String), created_at: expect.any(String), message: 'Add the feature\n\nFixes #1' })]);

    const changes = await api(mrs(project.id, '/1/changes'), { token: developer.token });
    expect(changes.body).toMatchObject({ iid: 1, overflow: false, changes: [expect.objectContaining({ new_path: 'feature.txt', new_file: true })] });
    // GitLab 15.7's `diffs`: the same files, a page at a time; `unidiff` adds the file lines.
    const diffs = await api(mrs(project.id, '/1/diffs'), { token: developer.token });
    expect(diffs.body).toEqual(changes.body.changes);
    const unified = await api(mrs(project.id, '/1/diffs'), { token: developer.token, query: { unidiff: true } });
    expect(unified.body[0].diff).toBe(`--- /dev/null\n+++ b/feature.txt\n${diffs.body[0].diff}`);
    expect((await api(mrs(project.id, '/1/changes'), { token: developer.token, query: { unidiff: true } })).body.changes).toEqual(unified.body);
    expect((await api(mrs(project.id, `/1/versions/${versions.body[0].id}`), { token: developer.token, query: { unidiff: true } })).body.diffs).toEqual(unified.body);
    expect((await api(mrs(project.id, '/1/diffs'), { token: stranger.token })).status).toBe(404);
    // The single read computes the merge status.
    expect((await api(mrs(project.id, '/1'), { token: developer.token })).body.merge_status).toBe('can_be_merged');
  });

  it('refuses a second open merge request of the same pair (409), the same branch (422), missing branches (400), nothing written', async () => {
    const token = developer.token;
    const duplicate = await api(mrs(project.id), { token, body: { source_branch: 'feature', target_branch: 'main', title: 'again' } });
    expect(duplicate).toMatchObject({ status: 409, body: { message: ['Another open merge request already exists for this source branch: !1'] } });
    expect(await api(mrs(project.id), { token, body: { source_branch: 'main', target_branch: 'main', title: 'x' } })).toMatchObject({
      status: 422,
      body: { message: ["You can't use same project/branch for source and target"] },
    });
    expect(await api(mrs(project.id), { token, body: { source_branch: 'nope', target_branch: 'main', title: 'x' } })).toMatchObject({
      status: 400,
      body: { message: ['Source branch "nope" does not exist'] },
    });
    expect(await api(mrs(project.id), { token, body: { source_branch: 'feature', target_branch: 'nope', title: 'x' } })).toMatchObject({
      status: 400,
      body: { message: ['Target branch "nope" does not exist'] },
    });
    expect(await api(mrs(project.id), { token, body: { source_branch: 'feature', target_branch: 'main' } })).toMatchObject({ status: 400, body: { error: 'title is missing' } });
    const list = await api(mrs(project.id), { token, query: { state: 'all' } });
    expect(list.headers.get('x-total')).toBe('1');
  });

  it('lets reporters read, not open; guests and non-members of a private project get 404', async () => {
    expect((await api(mrs(project.id, '/1'), { token: reporter.token })).status).toBe(200);
    expect((await api(mrs(project.id), { token: reporter.token, body: { source_branch: 'other', target_branch: 'main', title: 'x' } })).status).toBe(403);
    expect(await api(mrs(project.id, '/1'), { token: guest.token })).toMatchObject({ status: 404, body: { message: '404 Merge Request Not Found' } });
    expect((await api(mrs(project.id), { token: guest.token })).status).toBe(404);
    expect(await api(mrs(project.id, '/1'), { token: stranger.token })).toMatchObject({ status: 404, body: { message: '404 Project Not Found' } });
    expect((await api(mrs(project.id), { token: stranger.token, body: { source_branch: 'other', target_branch: 'main', title: 'x' } })).status).toBe(404);
  });

  it('lets the author and developers edit, not reporters (403) nor guests (404); a refused edit changes nothing', async () => {
    const before = (await api(mrs(project.id, '/1'), { token: reporter.token })).body;
    expect((await api(mrs(project.id, '/1'), { method: 'PUT', token: reporter.token, body: { title: 'by a reporter' } })).status).toBe(403);
    expect((await api(mrs(project.id, '/1'), { method: 'PUT', token: guest.token, body: { title: 'by a guest' } })).status).toBe(404);
    expect((await api(mrs(project.id, '/1'), { method: 'PUT', token: reporter.token, body: { state_event: 'close' } })).status).toBe(403);
    const unchanged = (await api(mrs(project.id, '/1'), { token: reporter.token })).body;
    expect(unchanged).toMatchObject({ title: before.title, state: before.state, updated_at: before.updated_at });
    const edited = await api(mrs(project.id, '/1'), { method: 'PUT', token: developer.token, body: { description: 'clarified' } });
    expect(edited.status).toBe(200);
    expect(edited.body.description).toBe('clarified');
  });

  it('lists with filters, order and exact counts; the caller’s own and a group’s', async () => {
    const token = project.owner.token;
    await openMergeRequest(project.id, token, { source_branch: 'other', title: 'Other change', assignee_id: developer.id });
    await openMergeRequest(project.id, token, { source_branch: 'third', title: 'Third change', target_branch: 'other' });
    const iids = async (query: Record<string, string | number | string[]>) => {
      const response = await api(mrs(project.id), { token, query });
      expect(response.status, JSON.stringify(response.body)).toBe(200);
      return response.body.map((mr: { iid: number }) => mr.iid);
    };
    expect(await iids({})).toEqual([3, 2, 1]);
    expect(await iids({ sort: 'asc' })).toEqual([1, 2, 3]);
    expect(await iids({ wip: 'yes' })).toEqual([1]);
    expect(await iids({ wip: 'no' })).toEqual([3, 2]);
    expect(await iids({ source_branch: 'other' })).toEqual([2]);
    expect(await iids({ target_branch: 'other' })).toEqual([3]);
    expect(await iids({ author_id: developer.id })).toEqual([1]);
    expect(await iids({ assignee_id: developer.id })).toEqual([2]);
    expect(await iids({ search: 'third' })).toEqual([3]);
    expect(await iids({ 'iids[]': ['1', '3'] })).toEqual([3, 1]);
    // GitLab's negated filters (python-gitlab's `not={...}` sends them bracketed).
    expect(await iids({ 'not[author_id]': developer.id })).toEqual([3, 2]);
    expect(await iids({ 'not[assignee_id]': developer.id })).toEqual([3, 1]);
    expect(await iids({ 'not[author_username]': developer.username, 'not[labels]': 'nosuchlabel' })).toEqual([3, 2]);
    expect(await iids({ state: 'merged' })).toEqual([]);
    const paged = await api(mrs(project.id), { token, query: { per_page: 2 } });
    expect(paged.headers.get('x-total')).toBe('3');
    expect(paged.headers.get('x-total-pages')).toBe('2');
    expect(await api('/merge_requests', { token: developer.token })).toMatchObject({ status: 200, body: [expect.objectContaining({ iid: 1 })] });
    expect((await api('/merge_requests', { token: developer.token, query: { scope: 'assigned_to_me' } })).body.map((mr: { iid: number }) => mr.iid)).toEqual([2]);
    const all = await api('/merge_requests', { token: reporter.token, query: { scope: 'all' } });
    expect(all.body.map((mr: { iid: number }) => mr.iid)).toEqual([3, 2, 1]);
    expect(all.headers.get('x-total')).toBe('3');
    expect((await api('/merge_requests', { token: reporter.token })).body).toEqual([]);
    expect((await api(mrs(project.id, '/2'), { method: 'PUT', token, body: { labels: 'bug' } })).status).toBe(200);
    expect([await iids({ 'not[labels]': 'bug' }), await iids({ labels: 'bug' })]).toEqual([[3, 1], [2]]);
  });

  it('lists a group’s merge requests, those of projects the caller may read', async () => {
    const owner = await createUser();
    const group = await createGroup(owner.token, { visibility: 'private' });
    const inGroup = await createProject(owner.token, { namespace_id: group.id, visibility: 'private' });
    await commit(inGroup.id, owner.token, 'main', { 'a.txt': 'a\n' });
    await commit(inGroup.id, owner.token, 'topic', { 'b.txt': 'b\n' }, { start: 'main' });
    const mr = await openMergeRequest(inGroup.id, owner.token, { source_branch: 'topic', title: 'In a group' });
    const listed = await api(`/groups/${group.id}/merge_requests`, { token: owner.token });
    expect(listed.body.map((m: { id: number }) => m.id)).toEqual([mr.id]);
    expect(listed.headers.get('x-total')).toBe('1');
    // Referenced from the group: by the project's path, the merge request of a project directly in it.
    expect(listed.body[0].references).toEqual({ short: `!${mr.iid}`, relative: `${inGroup.fullPath.split('/').pop()}!${mr.iid}`, full: `${inGroup.fullPath}!${mr.iid}` });
    expect(listed.body[0].reference).toBe(`!${mr.iid}`);
    expect((await api(`/groups/${group.id}/merge_requests`, { token: stranger.token })).status).toBe(404);
  });

  it('edits: at least one attribute, close and reopen (the pair released and taken again), a new target branch records a version', async () => {
    const token = project.owner.token;
    const none = await api(mrs(project.id, '/2'), { method: 'PUT', token, body: {} });
    expect(none.status).toBe(400);
    expect(none.body).toEqual({
      error: 'assignee_id, description, labels, milestone_id, remove_source_branch, reviewer_ids, state_event, target_branch, title are missing, at least one parameter must be provided',
    });
    expect((await api(mrs(project.id, '/2'), { method: 'PUT', token: reporter.token, body: { title: 'x' } })).status).toBe(403);

    const closed = await api(mrs(project.id, '/2'), { method: 'PUT', token, body: { state_event: 'close' } });
    expect(closed.body).toMatchObject({ state: 'closed' });
    // The pair is free: another merge request of it may be opened, and the closed one cannot be reopened while it is open.
    const second = await openMergeRequest(project.id, token, { source_branch: 'other', title: 'Other again' });
    expect(await api(mrs(project.id, '/2'), { method: 'PUT', token, body: { state_event: 'reopen' } })).toMatchObject({
      status: 409,
      body: { message: [`Another open merge request already exists for this source branch: !${second.iid}`] },
    });
    await api(mrs(project.id, `/${second.iid}`), { method: 'PUT', token, body: { state_event: 'close' } });
    expect((await api(mrs(project.id, '/2'), { method: 'PUT', token, body: { state_event: 'reopen' } })).body.state).toBe('opened');

    const retargeted = await api(mrs(project.id, '/3'), { method: 'PUT', token, body: { target_branch: 'main', title: 'Third, into main' } });
    expect(retargeted.body).toMatchObject({ target_branch: 'main', title: 'Third, into main', merge_status: 'unchecked' });
    expect((await api(mrs(project.id, '/3/versions'), { token })).body).toHaveLength(2);
    expect((await api(mrs(project.id, '/3'), { method: 'PUT', token, body: { target_branch: 'nope' } })).status).toBe(400);
  });

  it('stores a large version once (in S3) and reads it back; caps diffs as GitLab does (overflow)', async () => {
    const token = project.owner.token;
    const line = 'x'.repeat(99);
    const files = Object.fromEntries(Array.from({ length: 110 }, (_, i) => [`big/file-${String(i).padStart(3, '0')}.txt`, `${line}\n`.repeat(31)]));
    await commit(project.id, token, 'big', files, { start: 'main' });
    const mr = await openMergeRequest(project.id, token, { source_branch: 'big', title: 'Big' });
    const changes = await api(mrs(project.id, `/${mr.iid}/changes`), { token });
    expect(changes.status).toBe(200);
    expect(changes.body.overflow).toBe(true);
    // GitLab's safe limits: 100 files (over 300 KB of diffs: stored in S3).
    expect(changes.body.changes).toHaveLength(100);
    const [version] = (await api(mrs(project.id, `/${mr.iid}/versions`), { token })).body;
    expect(version.real_size).toBe(`${changes.body.changes.length}+`);
    expect((await api(mrs(project.id, `/${mr.iid}/versions/${version.id}`), { token })).body.diffs).toHaveLength(changes.body.changes.length);
    const lastPage = await api(mrs(project.id, `/${mr.iid}/diffs`), { token, query: { per_page: 40, page: 3 } });
    expect(lastPage.body.map((diff: { new_path: string }) => diff.new_path)).toEqual(changes.body.changes.slice(80).map((diff: { new_path: string }) => diff.new_path));
    expect(lastPage.headers.get('x-total')).toBe('100');
    expect(lastPage.headers.get('x-next-page')).toBe('');
    expect((await api(mrs(project.id, `/${mr.iid}/versions/999999999`), { token })).status).toBe(404);
  });

  it('lists its participants: author, assignee, then commenters, each once (system notes not counted)', async () => {
    const token = project.owner.token;
    await commit(project.id, token, 'talk', { 'talk.txt': 't\n' }, { start: 'main' });
    const mr = await openMergeRequest(project.id, developer.token, { source_branch: 'talk', title: 'Talk', assignee_id: project.owner.id });
    expect(mr.assignees.map((u: { id: number }) => u.id)).toEqual([project.owner.id]);
    for (const [who, body] of [[reporter, 'First'], [developer, 'Second'], [reporter, 'Third']] as const) {
      expect((await api(mrs(project.id, `/${mr.iid}/notes`), { token: who.token, body: { body } })).status).toBe(201);
    }
    // A system note (the title change) has no participant.
    expect((await api(mrs(project.id, `/${mr.iid}`), { method: 'PUT', token, body: { title: 'Talk more' } })).status).toBe(200);
    const participants = await api(mrs(project.id, `/${mr.iid}/participants`), { token: reporter.token });
    expect(participants.status).toBe(200);
    expect(participants.body.map((u: { id: number }) => u.id)).toEqual([developer.id, project.owner.id, reporter.id]);
    expect(participants.body[0]).toEqual({ id: developer.id, username: developer.username, name: expect.any(String), state: 'active', avatar_url: null, web_url: expect.stringMatching(new RegExp(`/${developer.username}$`)) });
    const paged = await api(mrs(project.id, `/${mr.iid}/participants`), { token: reporter.token, query: { per_page: 2, page: 2 } });
    expect(paged.body.map((u: { id: number }) => u.id)).toEqual([reporter.id]);
    expect(paged.headers.get('x-total')).toBe('3');
    // Those who may not read the project's merge requests: 404.
    for (const who of [guest, stranger]) expect((await api(mrs(project.id, `/${mr.iid}/participants`), { token: who.token })).status).toBe(404);
  });

  it('opens only one of two racing merge requests of the same pair', async () => {
    const token = project.owner.token;
    await commit(project.id, token, 'racing', { 'racing.txt': 'r\n' }, { start: 'main' });
    const answers = await Promise.all([1, 2].map((n) => api(mrs(project.id), { token, body: { source_branch: 'racing', target_branch: 'main', title: `race ${n}` } })));
    expect(answers.map((a) => a.status).sort()).toEqual([201, 409]);
  });

  it('soft-deletes for owners only', async () => {
    const created = await openMergeRequest(project.id, project.owner.token, { source_branch: 'third', target_branch: 'other', title: 'to delete' });
    expect((await api(mrs(project.id, `/${created.iid}`), { method: 'DELETE', token: developer.token })).status).toBe(403);
    expect((await api(mrs(project.id, `/${created.iid}`), { method: 'DELETE', token: project.owner.token })).status).toBe(204);
    expect((await api(mrs(project.id, `/${created.iid}`), { token: rootToken() })).status).toBe(404);
  });
});
