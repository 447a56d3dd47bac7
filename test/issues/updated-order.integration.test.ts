/**
 * `order_by=updated_at` on the three issue lists: read from the update-ordered indexes, so every
 * write that changes `updated_at` (an edit, a close, a comment, time tracking) re-sorts the issue,
 * and paging (offset and keyset) walks the same order.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { api, baseUrl } from '../support/api';
import { addMember, createGroup, createProject, createUser, unique, type TestProject, type TestUser } from '../support/fixtures';

const DEVELOPER = 30;

type Issue = { iid: number; title: string; updated_at: string; project_id: number };

describe('issue lists ordered by updated_at', () => {
  let owner: TestUser;
  let developer: TestUser;
  let group: { id: number; fullPath: string };
  let project: TestProject;
  let sibling: TestProject;
  const issues: Issue[] = [];
  let elsewhere: Issue;

  const url = (iid: number, tail = '') => `/projects/${project.id}/issues/${iid}${tail}`;
  const titles = (body: Issue[]) => body.map((issue) => issue.title);

  async function openIssue(target: TestProject, name: string): Promise<Issue> {
    const response = await api(`/projects/${target.id}/issues`, {
      token: owner.token,
      body: { title: unique(`${name} `), assignee_ids: [developer.id] },
    });
    expect(response.status, JSON.stringify(response.body)).toBe(201);
    return response.body;
  }

  beforeAll(async () => {
    owner = await createUser();
    developer = await createUser();
    group = await createGroup(owner.token, { visibility: 'private' });
    project = await createProject(owner.token, { namespace_id: group.id });
    sibling = await createProject(owner.token, { namespace_id: group.id });
    await Promise.all([project, sibling].map((p) => addMember('projects', p.id, developer.id, DEVELOPER)));
    for (const name of ['zero', 'one', 'two', 'three']) issues.push(await openIssue(project, name));
    elsewhere = await openIssue(sibling, 'elsewhere');
    // Touch them in a known order, each kind of write once: an edit, a comment, time tracking, a close.
    const edit = await api(url(issues[2].iid), { method: 'PUT', token: owner.token, body: { description: 'edited' } });
    const comment = await api(url(issues[0].iid, '/notes'), { token: developer.token, body: { body: 'a comment' } });
    const estimate = await api(url(issues[3].iid, '/time_estimate'), { token: owner.token, body: { duration: '1h' } });
    const close = await api(url(issues[1].iid), { method: 'PUT', token: owner.token, body: { state_event: 'close' } });
    expect([edit.status, comment.status, estimate.status, close.status]).toEqual([200, 201, 200, 200]);
  });

  /** Most recently updated first: the close, the estimate, the comment, the edit, then the untouched sibling issue. */
  const newestFirst = () => [issues[1], issues[3], issues[0], issues[2]].map((issue) => issue.title);

  it('lists a project by last update, newest first, and oldest first with sort=asc', async () => {
    const desc = await api(`/projects/${project.id}/issues`, { token: owner.token, query: { order_by: 'updated_at' } });
    const asc = await api(`/projects/${project.id}/issues`, { token: owner.token, query: { order_by: 'updated_at', sort: 'asc' } });
    expect(desc.status).toBe(200);
    expect(titles(desc.body)).toEqual(newestFirst());
    expect(titles(asc.body)).toEqual(newestFirst().reverse());
    const stamps = desc.body.map((issue: Issue) => issue.updated_at);
    expect([...stamps].sort().reverse()).toEqual(stamps);
  });

  it('stamps updated_at with the comment time when someone comments', async () => {
    const notes = await api(url(issues[0].iid, '/notes'), { token: owner.token });
    const issue = await api(url(issues[0].iid), { token: owner.token });
    expect(issue.body.updated_at).toBe(notes.body[0].created_at);
    expect(issue.body.updated_at > issues[0].updated_at).toBe(true);
  });

  it('keeps the order within one state', async () => {
    const opened = await api(`/projects/${project.id}/issues`, { token: owner.token, query: { order_by: 'updated_at', state: 'opened' } });
    const closed = await api(`/projects/${project.id}/issues`, { token: owner.token, query: { order_by: 'updated_at', state: 'closed' } });
    expect(titles(opened.body)).toEqual(newestFirst().slice(1));
    expect(titles(closed.body)).toEqual([issues[1].title]);
  });

  it('pages by offset and by keyset cursor in update order', async () => {
    const first = await api(`/projects/${project.id}/issues`, { token: owner.token, query: { order_by: 'updated_at', per_page: 3 } });
    const second = await api(`/projects/${project.id}/issues`, { token: owner.token, query: { order_by: 'updated_at', per_page: 3, page: 2 } });
    expect([...titles(first.body), ...titles(second.body)]).toEqual(newestFirst());
    expect(first.headers.get('x-total')).toBe('4');

    const seen: string[] = [];
    let next: string | undefined = `${baseUrl()}/api/v4/projects/${project.id}/issues?pagination=keyset&per_page=1&order_by=updated_at&sort=asc`;
    while (next) {
      const page: URL = new URL(next);
      const response = await api(page.pathname.replace('/api/v4', ''), { token: owner.token, query: page.searchParams });
      expect(response.status).toBe(200);
      seen.push(...titles(response.body));
      next = /<([^>]+)>; rel="next"/.exec(response.headers.get('link') ?? '')?.[1];
    }
    expect(seen).toEqual(newestFirst().reverse());
  });

  it('orders GET /issues (created and assigned) by last update', async () => {
    const created = await api('/issues', { token: owner.token, query: { order_by: 'updated_at' } });
    const assigned = await api('/issues', { token: developer.token, query: { order_by: 'updated_at', scope: 'assigned_to_me' } });
    expect(titles(created.body).filter((title) => title !== elsewhere.title)).toEqual(newestFirst());
    expect(titles(assigned.body)).toEqual(titles(created.body));
    // The untouched sibling issue was created after the first four but updated before the touches.
    expect(titles(created.body).indexOf(elsewhere.title)).toBe(4);
  });

  it('merges the projects of a group by last update', async () => {
    const response = await api(`/groups/${group.id}/issues`, { token: owner.token, query: { order_by: 'updated_at' } });
    expect(response.status).toBe(200);
    expect(titles(response.body)).toEqual([...newestFirst(), elsewhere.title]);
    // A comment on the sibling's issue brings it to the front.
    expect((await api(`/projects/${sibling.id}/issues/${elsewhere.iid}/notes`, { token: owner.token, body: { body: 'bump' } })).status).toBe(201);
    const after = await api(`/groups/${group.id}/issues`, { token: owner.token, query: { order_by: 'updated_at' } });
    expect(titles(after.body)).toEqual([elsewhere.title, ...newestFirst()]);
  });

  it('drops a deleted issue from the update-ordered list', async () => {
    const extra = await openIssue(project, 'doomed');
    expect((await api(url(extra.iid), { method: 'DELETE', token: owner.token })).status).toBe(204);
    const response = await api(`/projects/${project.id}/issues`, { token: owner.token, query: { order_by: 'updated_at' } });
    expect(titles(response.body)).not.toContain(extra.title);
  });
});
