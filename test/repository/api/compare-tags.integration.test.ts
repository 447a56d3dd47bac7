/**
 * Compare, merge base and tags over HTTP: the commits and diffs between two revisions (through
 * their merge base, or straight), the merge base of several refs, and lightweight and annotated
 * tags.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { api } from '../../support/api';
import { newMember, ownedProject, type OwnedProject } from '../../support/fixtures';
import { commit, createFiles, repo } from './helpers';

const REPORTER = 20;
const DEVELOPER = 30;

describe('compare and merge base', () => {
  let project: OwnedProject;
  let base: { id: string };
  let topic1: { id: string };
  let topic2: { id: string };
  let mainMore: { id: string };
  beforeAll(async () => {
    project = await ownedProject();
    base = await createFiles(project.id, project.owner.token, { 'a.txt': '1\n2\n3\n' });
    topic1 = await createFiles(project.id, project.owner.token, { 't1.txt': 'one\n' }, { branch: 'topic', start_branch: 'main' });
    topic2 = await commit(project.id, project.owner.token, [{ action: 'update', file_path: 'a.txt', content: '1\ntwo\n3\n' }], { branch: 'topic' });
    mainMore = await createFiles(project.id, project.owner.token, { 'm.txt': 'main\n' });
  });

  it("compares through the merge base by default, with GitLab's Compare entity", async () => {
    const response = await api(repo(project.id, '/compare'), { token: project.owner.token, query: { from: 'main', to: 'topic' } });
    expect(response.status).toBe(200);
    expect(Object.keys(response.body)).toEqual(['commit', 'commits', 'diffs', 'compare_timeout', 'compare_same_ref', 'web_url']);
    expect(response.body.commits.map((c: { id: string }) => c.id)).toEqual([topic1.id, topic2.id]);
    expect(response.body.commit.id).toBe(topic2.id);
    expect(response.body.diffs.map((d: { new_path: string }) => d.new_path)).toEqual(['a.txt', 't1.txt']);
    expect(response.body).toMatchObject({ compare_timeout: false, compare_same_ref: false });
    expect(response.body.web_url).toMatch(new RegExp(`/-/compare/${base.id}\\.\\.\\.${topic2.id}$`));
  });

  it('compares straight from one tree to the other', async () => {
    const response = await api(repo(project.id, '/compare'), { token: project.owner.token, query: { from: 'main', to: 'topic', straight: true } });
    expect(response.body.diffs.map((d: { new_path: string; deleted_file: boolean }) => [d.new_path, d.deleted_file])).toEqual([
      ['a.txt', false],
      ['m.txt', true],
      ['t1.txt', false],
    ]);
    expect(response.body.web_url).toMatch(new RegExp(`/-/compare/${mainMore.id}\\.\\.\\.${topic2.id}$`));
  });

  it('answers the same ref, and 404 Ref Not Found', async () => {
    const same = await api(repo(project.id, '/compare'), { token: project.owner.token, query: { from: 'main', to: mainMore.id } });
    expect(same.body).toMatchObject({ commit: null, commits: [], diffs: [], compare_same_ref: true });
    const missing = await api(repo(project.id, '/compare'), { token: project.owner.token, query: { from: 'main', to: 'nope' } });
    expect(missing).toMatchObject({ status: 404, body: { message: '404 Ref Not Found' } });
    expect((await api(repo(project.id, '/compare'), { token: project.owner.token, query: { from: 'main' } })).body).toEqual({ error: 'to is missing' });
  });

  it('finds the merge base of two or more refs', async () => {
    const response = await api(repo(project.id, '/merge_base'), { token: project.owner.token, query: { 'refs[]': ['main', 'topic'] } });
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({ id: base.id, parent_ids: [] });
    // As `git merge-base a b c`: the best common ancestor of a and a merge of b and c.
    const three = await api(repo(project.id, '/merge_base'), { token: project.owner.token, query: { 'refs[]': [topic2.id, 'main', topic1.id] } });
    expect(three.body.id).toBe(topic1.id);
    const comma = await api(repo(project.id, '/merge_base'), { token: project.owner.token, query: { refs: `main,${topic1.id}` } });
    expect(comma.body.id).toBe(base.id);
    expect((await api(repo(project.id, '/merge_base'), { token: project.owner.token, query: { 'refs[]': ['main'] } })).body).toEqual({ message: 'Provide at least 2 refs' });
    expect((await api(repo(project.id, '/merge_base'), { token: project.owner.token, query: { 'refs[]': ['main', 'x', 'y'] } })).body).toEqual({ message: 'Could not find refs: x, y' });
    expect((await api(repo(project.id, '/merge_base'), { token: project.owner.token, query: { 'refs[]': ['main', 'x'] } })).body).toEqual({ message: 'Could not find ref: x' });
  });
});

describe('tags', () => {
  let project: OwnedProject;
  let first: { id: string };
  let second: { id: string };
  beforeAll(async () => {
    project = await ownedProject();
    first = await createFiles(project.id, project.owner.token, { 'a.txt': 'a' });
    second = await createFiles(project.id, project.owner.token, { 'b.txt': 'b' });
  });

  it('creates a lightweight tag and an annotated one', async () => {
    const light = await api(repo(project.id, '/tags'), { token: project.owner.token, body: { tag_name: 'v1.0', ref: first.id } });
    expect(light.status).toBe(201);
    expect(light.body).toMatchObject({ name: 'v1.0', message: '', target: first.id, commit: { id: first.id }, release: null, protected: false, created_at: null });
    expect(Object.keys(light.body)).toEqual(['name', 'message', 'target', 'commit', 'release', 'protected', 'created_at']);

    const annotated = await api(repo(project.id, '/tags'), { token: project.owner.token, body: { tag_name: 'v2.0', ref: 'main', message: '  Release 2.0  ' } });
    expect(annotated.status).toBe(201);
    expect(annotated.body).toMatchObject({ name: 'v2.0', message: 'Release 2.0', commit: { id: second.id }, created_at: expect.stringMatching(/\+00:00$/) });
    expect(annotated.body.target).not.toBe(second.id);
    expect((await api(repo(project.id, '/tags/v2.0'), { token: project.owner.token })).body.target).toBe(annotated.body.target);
  });

  it('refuses taken and invalid names and unknown targets', async () => {
    await api(repo(project.id, '/tags'), { token: project.owner.token, body: { tag_name: 'taken', ref: 'main' } });
    const cases: Array<[Record<string, string>, unknown]> = [
      [{ tag_name: 'taken', ref: 'main' }, { message: 'Tag taken already exists' }],
      [{ tag_name: 'bad name', ref: 'main' }, { message: 'Tag name invalid' }],
      [{ tag_name: 'ok', ref: 'nowhere' }, { message: 'Target nowhere is invalid' }],
      [{ ref: 'main' }, { error: 'tag_name is missing' }],
    ];
    for (const [body, expected] of cases) {
      const response = await api(repo(project.id, '/tags'), { token: project.owner.token, body });
      expect(response.status, JSON.stringify(body)).toBe(400);
      expect(response.body).toEqual(expected);
    }
  });

  it('lists tags by date, name or version, searches them, and deletes one', async () => {
    for (const name of ['v1.10', 'v1.9']) await api(repo(project.id, '/tags'), { token: project.owner.token, body: { tag_name: name, ref: first.id } });
    const names = async (query: Record<string, string>) => (await api(repo(project.id, '/tags'), { token: project.owner.token, query })).body.map((t: { name: string }) => t.name);
    expect(await names({ order_by: 'name', sort: 'asc', search: '^v' })).toEqual(['v1.0', 'v1.10', 'v1.9', 'v2.0']);
    expect(await names({ order_by: 'version', search: '^v1' })).toEqual(['v1.10', 'v1.9', 'v1.0']);
    expect((await names({}))[0]).toMatch(/^(v2\.0|taken)$/);
    expect((await api(repo(project.id, '/tags/v1.9'), { token: project.owner.token, method: 'DELETE' })).status).toBe(204);
    expect(await api(repo(project.id, '/tags/v1.9'), { token: project.owner.token })).toMatchObject({ status: 404, body: { message: '404 Tag Not Found' } });
  });

  it('lets developers tag, not reporters', async () => {
    const reporter = await newMember(project, REPORTER);
    const developer = await newMember(project, DEVELOPER);
    expect((await api(repo(project.id, '/tags'), { token: reporter.token, body: { tag_name: 'r', ref: 'main' } })).status).toBe(403);
    expect((await api(repo(project.id, '/tags'), { token: developer.token, body: { tag_name: 'd', ref: 'main' } })).status).toBe(201);
    expect((await api(repo(project.id, '/tags'), { token: reporter.token })).status).toBe(200);
  });
});
