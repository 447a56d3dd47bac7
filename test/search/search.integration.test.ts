/**
 * The Search API as python-gitlab (`gl.search`, `group.search`, `project.search`) and gitbeaker
 * (`Search.all`) call it: each scope built at each level (instance, group, project), with `state`,
 * `confidential`, `sort` and pagination; a private project's items hidden from an outsider; GitLab's
 * 400s for a missing or invalid scope.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { api } from '../support/api';
import { createGroup, createProject, createUser, openIssue, unique, type TestProject, type TestUser } from '../support/fixtures';
import { commit, openMergeRequest } from '../merge-requests/helpers';

describe('search', () => {
  const word = unique('zq');
  let owner: TestUser;
  let outsider: TestUser;
  let group: { id: number; fullPath: string };
  let inGroup: TestProject;
  let outside: TestProject;
  const ids: Record<string, number> = {};

  const search = (path: string, token: string, query: Record<string, string | number | boolean>) => api(`${path}/search`, { token, query });
  const titles = (body: Array<{ title?: string; name?: string }>) => body.map((item) => item.title ?? item.name).sort();

  beforeAll(async () => {
    [owner, outsider] = await Promise.all([createUser({ name: `Searcher ${word}` }), createUser()]);
    group = await createGroup(owner.token, { visibility: 'private' });
    [inGroup, outside] = await Promise.all([
      createProject(owner.token, { namespace_id: group.id, visibility: 'private', name: `${word} inner` }),
      createProject(owner.token, { visibility: 'public', name: `${word} outer` }),
    ]);
    await commit(inGroup.id, owner.token, 'main', { 'README.md': '# readme\n', 'docs/guide.md': `one\ntwo\nthree ${word} here\nfour\nfive\nsix\n` }, { message: `Add guide ${word}` });
    await commit(inGroup.id, owner.token, 'feature', { 'f.txt': 'f\n' }, { start: 'main' });
    const [alpha, secret, , mr] = await Promise.all([
      openIssue(inGroup.id, owner.token, { title: `${word} alpha`, description: 'first' }),
      openIssue(inGroup.id, owner.token, { title: `${word} secret`, confidential: true }),
      openIssue(outside.id, owner.token, { title: `${word} elsewhere` }),
      openMergeRequest(inGroup.id, owner.token, { source_branch: 'feature', title: `${word} change` }),
      api(`/projects/${inGroup.id}/milestones`, { token: owner.token, body: { title: `${word} project release` } }),
      api(`/groups/${group.id}/milestones`, { token: owner.token, body: { title: `${word} group release` } }),
      openIssue(inGroup.id, owner.token, { title: 'unrelated' }),
      api(`/projects/${inGroup.id}/snippets`, { token: owner.token, body: { title: `${word} snippet`, visibility: 'private', file_name: 'a.rb', content: 'x' } }),
    ]);
    Object.assign(ids, { alpha: alpha.id, secret: secret.id, mr: mr.id });
  });

  it("answers GitLab's 400s for a missing or invalid scope or query, and 401 without a token", async () => {
    // Act
    const missing = await api('/search', { token: owner.token });
    const invalid = await search('', owner.token, { scope: 'blobs', search: word });
    const projectScope = await search(`/projects/${inGroup.id}`, owner.token, { scope: 'projects', search: word });
    const unbuilt = await search(`/projects/${inGroup.id}`, owner.token, { scope: 'notes', search: word });
    const badState = await search('', owner.token, { scope: 'issues', search: word, state: 'done' });
    const anonymous = await api('/search', { query: { scope: 'projects', search: word } });

    // Assess
    expect(missing).toMatchObject({ status: 400, body: { error: 'search is missing, scope is missing' } });
    expect(invalid).toMatchObject({ status: 400, body: { error: 'scope does not have a valid value' } });
    expect(projectScope).toMatchObject({ status: 400, body: { error: 'scope does not have a valid value' } });
    expect(unbuilt).toMatchObject({ status: 400, body: { message: { error: 'Scope not supported without Elasticsearch!' } } });
    expect(badState).toMatchObject({ status: 400, body: { error: 'state does not have a valid value' } });
    expect(anonymous.status).toBe(401);
  });

  it("searches a project's issues, merge requests, milestones, commits and blobs, with state and confidential filters", async () => {
    // Act
    const path = `/projects/${inGroup.id}`;
    const issues = await search(path, owner.token, { scope: 'issues', search: word });
    const publicOnly = await search(path, owner.token, { scope: 'issues', search: word, confidential: false });
    const closed = await search(path, owner.token, { scope: 'issues', search: word, state: 'closed' });
    const twoWords = await search(path, owner.token, { scope: 'issues', search: `${word} alpha` });
    const mrs = await search(path, owner.token, { scope: 'merge_requests', search: word, state: 'opened' });
    const milestones = await search(path, owner.token, { scope: 'milestones', search: word });
    const commits = await search(path, owner.token, { scope: 'commits', search: word });
    const blobs = await search(path, owner.token, { scope: 'blobs', search: word.toUpperCase() });
    const onBranch = await search(path, owner.token, { scope: 'blobs', search: word, ref: 'feature' });
    const byPath = await search(`/projects/${encodeURIComponent(inGroup.fullPath)}`, owner.token, { scope: 'issues', search: 'first' });
    const hidden = await search(path, outsider.token, { scope: 'issues', search: word });

    // Assess
    expect(issues.status).toBe(200);
    expect(issues.headers.get('x-search-type')).toBe('basic');
    expect(issues.body.map((issue: { id: number }) => issue.id)).toEqual([ids.secret, ids.alpha]);
    expect(issues.body[1]).toMatchObject({ iid: expect.any(Number), project_id: inGroup.id, state: 'opened', confidential: false, web_url: expect.stringContaining(inGroup.fullPath) });
    expect(titles(publicOnly.body)).toEqual([`${word} alpha`]);
    expect(closed.body).toEqual([]);
    expect(titles(twoWords.body)).toEqual([`${word} alpha`]);
    expect(mrs.body).toMatchObject([{ id: ids.mr, title: `${word} change`, source_branch: 'feature', target_branch: 'main', project_id: inGroup.id }]);
    expect(milestones.body).toMatchObject([{ title: `${word} project release`, project_id: inGroup.id, state: 'active' }]);
    expect(commits.body).toMatchObject([{ title: `Add guide ${word}`, short_id: expect.any(String), parent_ids: [], project_id: inGroup.id }]);
    expect(blobs.body).toEqual([
      { basename: 'docs/guide', data: `one\ntwo\nthree ${word} here\nfour\nfive\n`, path: 'docs/guide.md', filename: 'docs/guide.md', id: null, ref: 'main', startline: 1, project_id: inGroup.id },
    ]);
    expect(onBranch.body).toMatchObject([{ path: 'docs/guide.md', ref: 'feature' }]);
    expect(titles(byPath.body)).toEqual([`${word} alpha`]);
    expect(hidden).toMatchObject({ status: 404, body: { message: '404 Project Not Found' } });
  });

  it("searches a group's projects, issues, merge requests and milestones; an outsider gets 404", async () => {
    // Act
    const path = `/groups/${group.id}`;
    const projects = await search(path, owner.token, { scope: 'projects', search: word });
    const issues = await search(path, owner.token, { scope: 'issues', search: word, sort: 'asc' });
    const mrs = await search(path, owner.token, { scope: 'merge_requests', search: word });
    const milestones = await search(path, owner.token, { scope: 'milestones', search: 'release' });
    const hidden = await search(path, outsider.token, { scope: 'issues', search: word });

    // Assess
    expect(projects.body).toMatchObject([{ id: inGroup.id, path_with_namespace: inGroup.fullPath }]);
    expect(issues.body.map((issue: { id: number }) => issue.id)).toEqual([ids.alpha, ids.secret]);
    expect(mrs.body).toMatchObject([{ id: ids.mr }]);
    expect(titles(milestones.body)).toEqual([`${word} group release`, `${word} project release`]);
    expect(milestones.body.find((m: { title: string }) => m.title.includes('group'))).toMatchObject({ group_id: group.id });
    expect(hidden.status).toBe(404);
  });

  it('searches the instance: projects, issues, merge requests, milestones, snippet titles and users as the caller may see them, paged', async () => {
    // Act
    const projects = await search('', owner.token, { scope: 'projects', search: word });
    const outsiderProjects = await search('', outsider.token, { scope: 'projects', search: word });
    const issues = await search('', owner.token, { scope: 'issues', search: word, per_page: 2 });
    const next = await search('', owner.token, { scope: 'issues', search: word, per_page: 2, page: 2 });
    const outsiderIssues = await search('', outsider.token, { scope: 'issues', search: word });
    const mrs = await search('', owner.token, { scope: 'merge_requests', search: word });
    const outsiderMrs = await search('', outsider.token, { scope: 'merge_requests', search: word });
    const milestones = await search('', owner.token, { scope: 'milestones', search: word });
    const users = await search('', outsider.token, { scope: 'users', search: word });
    const snippets = await search('', owner.token, { scope: 'snippet_titles', search: word });
    const outsiderSnippets = await search('', outsider.token, { scope: 'snippet_titles', search: word });
    const blank = await search('', owner.token, { scope: 'issues', search: '' });

    // Assess
    expect(titles(projects.body)).toEqual([`${word} inner`, `${word} outer`]);
    expect(projects.body[0]).toMatchObject({ name_with_namespace: expect.any(String), path_with_namespace: expect.any(String), star_count: 0, forks_count: 0 });
    expect(titles(outsiderProjects.body)).toEqual([`${word} outer`]);
    expect(issues.body).toHaveLength(2);
    expect(issues.headers.get('x-next-page')).toBe('2');
    expect(titles([...issues.body, ...next.body])).toEqual([`${word} alpha`, `${word} elsewhere`, `${word} secret`]);
    expect(outsiderIssues.body).toEqual([]);
    expect(mrs.body).toMatchObject([{ id: ids.mr }]);
    expect(outsiderMrs.body).toEqual([]);
    expect(titles(milestones.body)).toEqual([`${word} project release`]);
    expect(users.body).toEqual([expect.objectContaining({ id: owner.id, username: owner.username, name: `Searcher ${word}`, state: 'active' })]);
    expect(snippets.body).toMatchObject([{ title: `${word} snippet`, file_name: 'a.rb', project_id: inGroup.id, author: { id: owner.id } }]);
    expect(outsiderSnippets.body).toEqual([]);
    expect(blank).toMatchObject({ status: 200, body: [] });
  });
});
