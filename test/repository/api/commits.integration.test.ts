/**
 * The commits API over HTTP: commits made of file actions (the way these tests fill
 * repositories), GitLab's checks and errors, a racing commit, history pages and their headers,
 * one commit, its diff and the refs that contain it.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { api } from '../../support/api';
import { createUser, newMember, ownedProject, type OwnedProject } from '../../support/fixtures';
import { commit, createFiles, enc, repo } from './helpers';

const REPORTER = 20;
const DEVELOPER = 30;

const COMMIT_FIELDS = [
  'id', 'short_id', 'created_at', 'parent_ids', 'title', 'message', 'author_name', 'author_email', 'authored_date',
  'committer_name', 'committer_email', 'committed_date', 'trailers', 'extended_trailers', 'web_url',
];
const DETAIL_FIELDS = [...COMMIT_FIELDS, 'stats', 'status', 'project_id', 'last_pipeline'];
const DATE = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.000\+00:00$/;

describe('POST /projects/:id/repository/commits', () => {
  let project: OwnedProject;
  beforeAll(async () => {
    project = await ownedProject();
  });

  it("creates the branch of an empty repository and answers GitLab's CommitDetail", async () => {
    // Act
    const response = await api(repo(project.id, '/commits'), {
      token: project.owner.token,
      body: {
        branch: 'main',
        commit_message: 'Initial commit\n\nWith a body',
        actions: [
          { action: 'create', file_path: 'README.md', content: '# Hello\n' },
          { action: 'create', file_path: 'bin/run.sh', content: Buffer.from('#!/bin/sh\necho hi\n').toString('base64'), encoding: 'base64', execute_filemode: true },
        ],
      },
    });

    // Assess
    expect(response.status, JSON.stringify(response.body)).toBe(201);
    expect(Object.keys(response.body)).toEqual(DETAIL_FIELDS);
    expect(response.body).toMatchObject({
      id: expect.stringMatching(/^[0-9a-f]{40}$/),
      parent_ids: [],
      title: 'Initial commit',
      message: 'Initial commit\n\nWith a body',
      author_name: `Test ${project.owner.username}`,
      author_email: project.owner.email,
      committer_email: project.owner.email,
      authored_date: expect.stringMatching(DATE),
      trailers: {},
      extended_trailers: {},
      stats: { additions: 3, deletions: 0, total: 3 },
      status: null,
      project_id: project.id,
      last_pipeline: null,
    });
    expect(response.body.short_id).toBe(response.body.id.slice(0, 8));
    expect(response.body.created_at).toBe(response.body.committed_date);
    expect(response.body.web_url).toMatch(new RegExp(`/${project.fullPath}/-/commit/${response.body.id}$`));

    const branch = await api(repo(project.id, '/branches/main'), { token: project.owner.token });
    expect(branch.body.commit.id).toBe(response.body.id);
    const run = await api(repo(project.id, `/files/${enc('bin/run.sh')}`), { token: project.owner.token, query: { ref: 'main' } });
    expect(run.body).toMatchObject({ execute_filemode: true, content: Buffer.from('#!/bin/sh\necho hi\n').toString('base64') });
  });

  it('updates, moves, deletes and changes modes in one commit, with another author', async () => {
    // Prepare
    await createFiles(project.id, project.owner.token, { 'a.txt': 'a\n', 'b.txt': 'b\n', 'c.txt': 'c\n' });

    // Act
    const made = await commit(
      project.id,
      project.owner.token,
      [
        { action: 'update', file_path: 'a.txt', content: 'A\n' },
        { action: 'move', previous_path: 'b.txt', file_path: 'moved/b.txt' },
        { action: 'delete', file_path: 'c.txt' },
        { action: 'chmod', file_path: 'a.txt', execute_filemode: true },
      ],
      { author_name: 'Jane Doe', author_email: 'jane@example.com', stats: false },
    );

    // Assess
    expect(made).toMatchObject({ author_name: 'Jane Doe', author_email: 'jane@example.com', committer_email: project.owner.email });
    expect(made).not.toHaveProperty('stats');
    const tree = await api(repo(project.id, '/tree'), { token: project.owner.token, query: { recursive: true } });
    expect(tree.body.map((entry: { path: string; mode: string }) => [entry.path, entry.mode])).toEqual([
      ['bin', '040000'],
      ['moved', '040000'],
      ['README.md', '100644'],
      ['a.txt', '100755'],
      ['bin/run.sh', '100755'],
      ['moved/b.txt', '100644'],
    ]);
    const diff = await api(repo(project.id, `/commits/${made.id}/diff`), { token: project.owner.token });
    expect(diff.body.map((d: Record<string, unknown>) => [d.old_path, d.new_path, d.a_mode, d.b_mode, d.new_file, d.renamed_file, d.deleted_file])).toEqual([
      // As `git diff -M`: a rename where its new path sorts.
      ['a.txt', 'a.txt', '100644', '100755', false, false, false],
      ['c.txt', 'c.txt', '100644', '0', false, false, true],
      ['b.txt', 'moved/b.txt', '100644', '100644', false, true, false],
    ]);
    expect(diff.body[0]).toMatchObject({ diff: '@@ -1 +1 @@\n-a\n+A\n', collapsed: false, too_large: false, generated_file: null });
  });

  it.each([
    [{ branch: undefined }, { error: 'branch is missing' }],
    [{ commit_message: undefined }, { error: 'commit_message is missing' }],
    [{ actions: undefined }, { error: 'actions is missing' }],
    [{ actions: [{ action: 'explode', file_path: 'x' }] }, { error: 'actions[0][action] does not have a valid value' }],
    [{ actions: [{ action: 'create' }] }, { error: 'actions[0][file_path] is missing' }],
    [{ actions: [{ action: 'update', file_path: 'a.txt' }] }, { error: 'actions[0][content] is missing' }],
    [{ actions: [{ action: 'move', file_path: 'x' }] }, { error: 'actions[0][previous_path] is missing' }],
    [{ actions: [{ action: 'chmod', file_path: 'x' }] }, { error: 'actions[0][execute_filemode] is missing' }],
    [{ actions: [{ action: 'create', file_path: 'x', encoding: 'utf16' }] }, { error: 'actions[0][encoding] does not have a valid value' }],
    [{ start_branch: 'main', start_sha: 'a'.repeat(40) }, { error: 'start_branch, start_sha are mutually exclusive' }],
  ])('refuses %j with 400 %j', async (change, expected) => {
    const body = { branch: 'main', commit_message: 'x', actions: [{ action: 'create', file_path: 'new.txt', content: 'x' }], ...change };
    const response = await api(repo(project.id, '/commits'), { token: project.owner.token, body });
    expect(response.status).toBe(400);
    expect(response.body).toEqual(expected);
  });

  it.each([
    [[{ action: 'create', file_path: 'README.md', content: 'x' }], {}, 'A file with this name already exists'],
    [[{ action: 'create', file_path: 'bin', content: 'x' }], {}, 'A directory with this name already exists'],
    [[{ action: 'update', file_path: 'nope.txt', content: 'x' }], {}, "A file with this name doesn't exist"],
    [[{ action: 'delete', file_path: 'nope.txt' }], {}, "A file with this name doesn't exist"],
    [[{ action: 'create', file_path: '../outside', content: 'x' }], {}, 'Path cannot include directory traversal'],
    [[{ action: 'create', file_path: 'x.txt', content: 'x' }], { branch: 'topic' }, 'You can only create or edit files when you are on a branch'],
    [[{ action: 'create', file_path: 'x.txt', content: 'x' }], { branch: 'main', start_branch: 'main2' }, 'You can only create or edit files when you are on a branch'],
    [[{ action: 'create', file_path: 'x.txt', content: 'x' }], { start_sha: 'zzz' }, "Invalid start_sha 'zzz'"],
    [[{ action: 'create', file_path: 'x.txt', content: 'x' }], { branch: 'other', start_sha: 'f'.repeat(40) }, `Cannot find start_sha '${'f'.repeat(40)}'`],
    [[{ action: 'create', file_path: 'x.txt', content: 'x' }], { branch: 'bad name', start_branch: 'main' }, "Something went wrong when we tried to create 'bad name' for you: Branch name is invalid"],
  ])('answers 400 for %j %j: %s', async (actions, extra, message) => {
    const response = await api(repo(project.id, '/commits'), { token: project.owner.token, body: { branch: 'main', commit_message: 'x', actions, ...extra } });
    expect(response.status).toBe(400);
    expect(response.body).toEqual({ message });
  });

  it('starts a new branch from start_branch or start_sha, and refuses an existing one', async () => {
    const main = (await api(repo(project.id, '/branches/main'), { token: project.owner.token })).body.commit.id;
    const topic = await createFiles(project.id, project.owner.token, { 'topic.txt': 't' }, { branch: 'topic', start_branch: 'main' });
    expect(topic.parent_ids).toEqual([main]);
    const fromSha = await createFiles(project.id, project.owner.token, { 'sha.txt': 's' }, { branch: 'from-sha', start_sha: main });
    expect(fromSha.parent_ids).toEqual([main]);
    const again = await api(repo(project.id, '/commits'), {
      token: project.owner.token,
      body: { branch: 'topic', start_branch: 'main', commit_message: 'x', actions: [{ action: 'create', file_path: 'y', content: 'y' }] },
    });
    expect(again.body).toEqual({ message: "A branch called 'topic' already exists. Switch to that branch in order to make changes" });
  });

  it('refuses an action on a file changed since last_commit_id', async () => {
    const first = await createFiles(project.id, project.owner.token, { 'tracked.txt': '1\n' });
    const second = await commit(project.id, project.owner.token, [{ action: 'update', file_path: 'tracked.txt', content: '2\n', last_commit_id: first.id }]);
    const stale = await api(repo(project.id, '/commits'), {
      token: project.owner.token,
      body: { branch: 'main', commit_message: 'x', actions: [{ action: 'update', file_path: 'tracked.txt', content: '3\n', last_commit_id: first.id }] },
    });
    expect(stale.status).toBe(400);
    expect(stale.body).toEqual({ message: 'The file has changed since you started editing it: tracked.txt' });
    await commit(project.id, project.owner.token, [{ action: 'delete', file_path: 'tracked.txt', last_commit_id: second.id }]);
  });

  it('lets one of racing commits on a branch win and answers the others with the ref update error', async () => {
    // Act: several commits from the same parent at once
    const responses = await Promise.all(
      Array.from({ length: 4 }, (_, i) =>
        api(repo(project.id, '/commits'), {
          token: project.owner.token,
          body: { branch: 'main', commit_message: `race ${i}`, actions: [{ action: 'create', file_path: `race-${i}.txt`, content: `${i}` }] },
        }),
      ),
    );

    // Assess: every answer is a commit or the race error, and the branch holds exactly the winners
    for (const response of responses) {
      if (response.status !== 201) expect(response.body).toEqual({ message: 'Could not update refs/heads/main. Please refresh and try again.' });
    }
    const won = responses.filter((response) => response.status === 201).map((response) => response.body.id as string);
    expect(won.length).toBeGreaterThanOrEqual(1);
    const history = await api(repo(project.id, '/commits'), { token: project.owner.token, query: { per_page: won.length } });
    expect(history.body.map((c: { id: string }) => c.id).sort()).toEqual([...won].sort());
  });
});

describe('who may commit', () => {
  it('answers 404 to a stranger, 403 to a reporter, and lets a developer commit to an unprotected branch only', async () => {
    const project = await ownedProject();
    await createFiles(project.id, project.owner.token, { 'README.md': 'x' });
    const stranger = await createUser();
    const reporter = await newMember(project, REPORTER);
    const developer = await newMember(project, DEVELOPER);
    const body = (branch: string) => ({ branch, start_branch: 'main', commit_message: 'x', actions: [{ action: 'create', file_path: `${branch}.txt`, content: 'x' }] });

    expect((await api(repo(project.id, '/commits'), { token: stranger.token, body: body('s') })).status).toBe(404);
    const denied = await api(repo(project.id, '/commits'), { token: reporter.token, body: body('r') });
    expect(denied.status).toBe(403);
    expect(denied.body).toEqual({ message: '403 Forbidden - You are not allowed to push into this branch' });
    expect((await api(repo(project.id, '/commits'), { token: developer.token, body: body('d') })).status).toBe(201);

    await api(`/projects/${project.id}/protected_branches`, { token: project.owner.token, body: { name: 'main' } });
    const onMain = await api(repo(project.id, '/commits'), { token: developer.token, body: { ...body('main'), start_branch: undefined } });
    expect(onMain.status).toBe(403);
    expect((await api(repo(project.id, '/commits'), { token: project.owner.token, body: { ...body('main'), start_branch: undefined } })).status).toBe(201);
  });
});

describe('GET /projects/:id/repository/commits', () => {
  let project: OwnedProject;
  const ids: string[] = [];
  beforeAll(async () => {
    project = await ownedProject('public');
    for (let i = 0; i < 5; i++) {
      ids.push((await createFiles(project.id, project.owner.token, { [`f${i}.txt`]: `${i}\n`, ...(i % 2 === 0 ? {} : {}) }, { commit_message: `commit ${i}` })).id);
    }
    await commit(project.id, project.owner.token, [{ action: 'update', file_path: 'f1.txt', content: 'changed\n' }], { commit_message: 'touch f1' }).then((c) => ids.push(c.id));
  });

  it('lists the default branch newest first, anonymously on a public project', async () => {
    const response = await api(repo(project.id, '/commits'));
    expect(response.status).toBe(200);
    expect(response.body.map((c: { id: string }) => c.id)).toEqual([...ids].reverse());
    expect(Object.keys(response.body[0])).toEqual(COMMIT_FIELDS);
  });

  it("pages with GitLab's commit headers: a next page after a full page, and no X-Total", async () => {
    const first = await api(repo(project.id, '/commits'), { query: { per_page: 2 } });
    expect(first.body.map((c: { id: string }) => c.id)).toEqual([ids[5], ids[4]]);
    expect(first.headers.get('x-page')).toBe('1');
    expect(first.headers.get('x-next-page')).toBe('2');
    expect(first.headers.get('x-total')).toBeNull();
    expect(first.headers.get('x-total-pages')).toBeNull();
    expect(first.headers.get('link')).toContain('rel="next"');
    const last = await api(repo(project.id, '/commits'), { query: { per_page: 4, page: 2 } });
    expect(last.body.map((c: { id: string }) => c.id)).toEqual([ids[1], ids[0]]);
    expect(last.headers.get('x-next-page')).toBe('');
    // A page far past the history (page × per_page past any array's length) is an empty page.
    const far = await api(repo(project.id, '/commits'), { query: { per_page: 100, page: 214748366 } });
    expect(far).toMatchObject({ status: 200, body: [] });
    expect(far.headers.get('x-next-page')).toBe('');
  });

  it('filters by path, ref, dates and stats; an unknown ref lists nothing', async () => {
    const byPath = await api(repo(project.id, '/commits'), { query: { path: 'f1.txt' } });
    expect(byPath.body.map((c: { title: string }) => c.title)).toEqual(['touch f1', 'commit 1']);
    const unknown = await api(repo(project.id, '/commits'), { query: { ref_name: 'nope' } });
    expect(unknown).toMatchObject({ status: 200, body: [] });
    const old = await api(repo(project.id, '/commits'), { query: { until: '2000-01-01T00:00:00Z' } });
    expect(old.body).toEqual([]);
    const recent = await api(repo(project.id, '/commits'), { query: { since: '2000-01-01', with_stats: true, per_page: 1 } });
    expect(recent.body[0].stats).toEqual({ additions: 1, deletions: 1, total: 2 });
    expect((await api(repo(project.id, '/commits'), { query: { since: 'yesterday-ish' } })).body).toEqual({ error: 'since is invalid' });
  });

  it('answers an empty list for an empty repository', async () => {
    const empty = await ownedProject();
    expect((await api(repo(empty.id, '/commits'), { token: empty.owner.token })).body).toEqual([]);
  });
});

describe('GET /projects/:id/repository/commits/:sha', () => {
  let project: OwnedProject;
  let head: { id: string; parent_ids: string[] };
  beforeAll(async () => {
    project = await ownedProject();
    await createFiles(project.id, project.owner.token, { 'a.txt': 'one\ntwo\nthree\n' });
    head = await commit(project.id, project.owner.token, [{ action: 'update', file_path: 'a.txt', content: 'one\n2\nthree\n' }]);
    await api(repo(project.id, '/tags'), { token: project.owner.token, body: { tag_name: 'v1', ref: head.id } });
  });

  it('finds a commit by id, short id, branch or tag, with stats unless stats=false', async () => {
    for (const sha of [head.id, head.id.slice(0, 8), 'main', 'v1']) {
      const response = await api(repo(project.id, `/commits/${sha}`), { token: project.owner.token });
      expect(response.status, sha).toBe(200);
      expect(response.body).toMatchObject({ id: head.id, stats: { additions: 1, deletions: 1, total: 2 }, project_id: project.id });
    }
    const bare = await api(repo(project.id, `/commits/${head.id}`), { token: project.owner.token, query: { stats: false } });
    expect(bare.body).not.toHaveProperty('stats');
  });

  it("answers 404 Commit Not Found for what names no commit", async () => {
    const response = await api(repo(project.id, '/commits/nope'), { token: project.owner.token });
    expect(response).toMatchObject({ status: 404, body: { message: '404 Commit Not Found' } });
    const empty = await ownedProject();
    expect((await api(repo(empty.id, '/commits/main'), { token: empty.owner.token })).body).toEqual({ message: '404 Commit Not Found' });
  });

  it('answers the diff against the first parent, paged', async () => {
    const response = await api(repo(project.id, `/commits/${head.id}/diff`), { token: project.owner.token });
    expect(response.body).toEqual([
      {
        diff: '@@ -1,3 +1,3 @@\n one\n-two\n+2\n three\n',
        collapsed: false,
        too_large: false,
        new_path: 'a.txt',
        old_path: 'a.txt',
        a_mode: '100644',
        b_mode: '100644',
        new_file: false,
        renamed_file: false,
        deleted_file: false,
        generated_file: null,
      },
    ]);
    expect(response.headers.get('x-total')).toBe('1');
  });

  it('lists the branches and tags containing a commit', async () => {
    await createFiles(project.id, project.owner.token, { 'later.txt': 'x' }, { branch: 'later', start_branch: 'main' });
    const response = await api(repo(project.id, `/commits/${head.parent_ids[0]}/refs`), { token: project.owner.token });
    expect(response.body).toEqual([
      { type: 'branch', name: 'later' },
      { type: 'branch', name: 'main' },
      { type: 'tag', name: 'v1' },
    ]);
    const tags = await api(repo(project.id, `/commits/${head.id}/refs`), { token: project.owner.token, query: { type: 'tag' } });
    expect(tags.body).toEqual([{ type: 'tag', name: 'v1' }]);
  });
});
