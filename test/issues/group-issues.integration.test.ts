import { beforeAll, describe, expect, it } from 'vitest';
import { api } from '../support/api';
import { createGroup, createProject, createUser, unique, type TestProject, type TestUser } from '../support/fixtures';

describe('GET /groups/:id/issues', () => {
  let owner: TestUser;
  let outsider: TestUser;
  let group: { id: number; fullPath: string };
  let open: TestProject;
  let hidden: TestProject;
  let nested: TestProject;
  const titles: Record<string, string> = {};

  async function openIssue(project: TestProject, name: string, body: Record<string, unknown> = {}) {
    titles[name] = unique(`${name} `);
    const response = await api(`/projects/${project.id}/issues`, { token: owner.token, body: { title: titles[name], ...body } });
    expect(response.status, JSON.stringify(response.body)).toBe(201);
    return response.body;
  }

  beforeAll(async () => {
    owner = await createUser();
    outsider = await createUser();
    group = await createGroup(owner.token, { visibility: 'public' });
    const subgroup = await createGroup(owner.token, { visibility: 'public', parent_id: group.id });
    open = await createProject(owner.token, { namespace_id: group.id, visibility: 'public' });
    hidden = await createProject(owner.token, { namespace_id: group.id, visibility: 'private' });
    nested = await createProject(owner.token, { namespace_id: subgroup.id, visibility: 'public' });
    await openIssue(open, 'first', { labels: 'bug' });
    await openIssue(hidden, 'secret');
    await openIssue(nested, 'nested', { labels: 'bug' });
    const closed = await openIssue(open, 'closed');
    await api(`/projects/${open.id}/issues/${closed.iid}`, { method: 'PUT', token: owner.token, body: { state_event: 'close' } });
  });

  const titlesOf = (body: Array<{ title: string }>) => body.map((issue) => issue.title);

  it("lists the issues of the group's and its subgroups' projects, newest first", async () => {
    const response = await api(`/groups/${group.id}/issues`, { token: owner.token });
    expect(response.status, JSON.stringify(response.body)).toBe(200);
    expect(titlesOf(response.body)).toEqual([titles.closed, titles.nested, titles.secret, titles.first]);
    expect(response.headers.get('x-total')).toBe('4');
    const nestedIssue = response.body.find((issue: { title: string }) => issue.title === titles.nested);
    expect(nestedIssue.web_url).toContain(`${nested.fullPath}/issues/`);
    // References relative to the group: a project directly in it by its path, a subgroup's by its full path.
    const firstIssue = response.body.find((issue: { title: string }) => issue.title === titles.first);
    expect(firstIssue.references).toEqual({ short: `#${firstIssue.iid}`, relative: `${open.fullPath.split('/').pop()}#${firstIssue.iid}`, full: `${open.fullPath}#${firstIssue.iid}` });
    expect(nestedIssue.references.relative).toBe(`${nested.fullPath}#${nestedIssue.iid}`);
  });

  it('leaves out the issues of a private project the caller is not a member of', async () => {
    const response = await api(`/groups/${encodeURIComponent(group.fullPath)}/issues`, { token: outsider.token, query: { sort: 'asc' } });
    expect(response.status).toBe(200);
    expect(titlesOf(response.body)).toEqual([titles.first, titles.nested, titles.closed]);
    expect(titlesOf(response.body)).not.toContain(titles.secret);
  });

  it('applies the filters of project issue lists', async () => {
    const labelled = await api(`/groups/${group.id}/issues`, { token: owner.token, query: { labels: 'bug', state: 'opened' } });
    expect(titlesOf(labelled.body)).toEqual([titles.nested, titles.first]);
    const closed = await api(`/groups/${group.id}/issues`, { token: owner.token, query: { state: 'closed' } });
    expect(titlesOf(closed.body)).toEqual([titles.closed]);
    const searched = await api(`/groups/${group.id}/issues`, { token: owner.token, query: { search: titles.secret } });
    expect(titlesOf(searched.body)).toEqual([titles.secret]);
  });

  it('pages with offsets and with a keyset cursor', async () => {
    const second = await api(`/groups/${group.id}/issues`, { token: owner.token, query: { per_page: 2, page: 2 } });
    expect(titlesOf(second.body)).toEqual([titles.secret, titles.first]);
    const first = await api(`/groups/${group.id}/issues`, { token: owner.token, query: { per_page: 3, pagination: 'keyset' } });
    expect(titlesOf(first.body)).toEqual([titles.closed, titles.nested, titles.secret]);
    const next = /<([^>]+)>; rel="next"/.exec(first.headers.get('link') ?? '')?.[1];
    expect(next).toBeDefined();
    const rest = await fetch(next!, { headers: { 'PRIVATE-TOKEN': owner.token } });
    expect(titlesOf((await rest.json()) as Array<{ title: string }>)).toEqual([titles.first]);
  });

  it('orders by updated_at', async () => {
    const response = await api(`/groups/${group.id}/issues`, { token: owner.token, query: { order_by: 'updated_at', sort: 'desc' } });
    expect(titlesOf(response.body)[0]).toBe(titles.closed);
    expect(response.body).toHaveLength(4);
  });

  it('answers 404 for a private group the caller cannot see', async () => {
    const privateGroup = await createGroup(owner.token, { visibility: 'private' });
    const response = await api(`/groups/${privateGroup.id}/issues`, { token: outsider.token });
    expect(response.status).toBe(404);
    expect(response.body).toEqual({ message: '404 Group Not Found' });
  });
});
