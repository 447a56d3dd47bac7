import { describe, expect, it } from 'vitest';
import { api } from '../support/api';
import { addMember, createProject, createUser, openIssue } from '../support/fixtures';

describe('event feeds', () => {
  it('shows a user’s events only for projects the caller may read', async () => {
    // Prepare: one public and one private project by the same author
    const author = await createUser();
    const pub = await createProject(author.token, { visibility: 'public' });
    const priv = await createProject(author.token);
    const viewer = await createUser();
    const projectIds = async (token?: string) =>
      (await api(`/users/${author.id}/events`, { token })).body.map((event: { project_id: number }) => event.project_id);
    // Act / Assess
    expect(await projectIds()).toEqual([pub.id]);
    expect(await projectIds(viewer.token)).toEqual([pub.id]);
    expect(await projectIds(author.token)).toEqual([priv.id, pub.id]);
    await addMember('projects', priv.id, viewer.id, 10);
    expect(await projectIds(viewer.token)).toEqual([priv.id, pub.id]);
  });

  it('records members joining and leaving in the project feed, newest first, in GitLab’s Event shape', async () => {
    const owner = await createUser();
    const member = await createUser();
    const project = await createProject(owner.token, { visibility: 'public' });
    await addMember('projects', project.id, member.id, 30);
    expect((await api(`/projects/${project.id}/members/${member.id}`, { token: owner.token, method: 'DELETE' })).status).toBe(204);
    const feed = await api(`/projects/${project.id}/events`);
    expect(feed.body.map((event: { action_name: string }) => event.action_name)).toEqual(['left', 'joined', 'created']);
    expect(feed.body[0]).toMatchObject({
      project_id: project.id,
      action_name: 'left',
      author_id: member.id,
      author_username: member.username,
      author: { id: member.id, username: member.username, state: 'active' },
      target_id: null,
      target_type: null,
      target_title: null,
    });
    expect(feed.body[0].created_at).toMatch(/^\d{4}-\d{2}-\d{2}T/);
    const memberFeed = await api(`/users/${member.id}/events`);
    expect(memberFeed.body.map((event: { action_name: string }) => event.action_name)).toEqual(['left', 'joined']);
  });

  it('pages feeds with GitLab headers', async () => {
    const owner = await createUser();
    const project = await createProject(owner.token, { visibility: 'public' });
    const members = await Promise.all([createUser(), createUser()]);
    for (const member of members) await addMember('projects', project.id, member.id, 20);
    const page = await api(`/projects/${project.id}/events`, { query: { per_page: 2 } });
    expect(page.body).toHaveLength(2);
    expect(page.headers.get('x-total')).toBe('3');
    expect(page.headers.get('x-next-page')).toBe('2');
  });
});

describe('event feed filters and GET /events', () => {
  /** A project whose feed holds, oldest first: created, joined, opened (an issue), commented on. */
  async function busyProject() {
    const [owner, member] = await Promise.all([createUser(), createUser()]);
    const project = await createProject(owner.token, { visibility: 'public' });
    await addMember('projects', project.id, member.id, 30);
    const issue = await openIssue(project.id, owner.token);
    const note = await api(`/projects/${project.id}/issues/${issue.iid}/notes`, { token: owner.token, body: { body: 'first' } });
    expect(note.status).toBe(201);
    return { owner, member, project };
  }
  const actions = (body: Array<{ action_name: string }>) => body.map((event) => event.action_name);
  const day = (offset: number) => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);

  it('filters by action and target_type, and sorts oldest first with sort=asc', async () => {
    // Prepare
    const { project } = await busyProject();
    const feed = (query: Record<string, string>) => api(`/projects/${project.id}/events`, { query });

    // Act
    const [created, commented, issues, ascending] = await Promise.all([
      feed({ action: 'created' }),
      feed({ action: 'commented' }),
      feed({ target_type: 'issue' }),
      feed({ sort: 'asc' }),
    ]);

    // Assess
    expect(actions(created.body)).toEqual(['opened', 'created']);
    expect(actions(commented.body)).toEqual(['commented on']);
    expect(commented.body[0].target_type).toBe('Note');
    expect(actions(issues.body)).toEqual(['opened']);
    expect(actions(ascending.body)).toEqual(['created', 'joined', 'opened', 'commented on']);
  });

  it('keeps events strictly between the days before and after', async () => {
    const { project, owner } = await busyProject();
    const count = async (query: Record<string, string>) => (await api(`/projects/${project.id}/events`, { query })).body.length;
    expect(await count({ after: day(-1), before: day(1) })).toBe(4);
    expect(await count({ after: day(0) })).toBe(0);
    expect(await count({ before: day(0) })).toBe(0);
    expect(await count({ after: day(-1), sort: 'asc' })).toBe(4);
    expect((await api(`/users/${owner.id}/events`, { query: { before: day(0), sort: 'asc' } })).body).toEqual([]);
  });

  it('GET /events lists the caller’s own events, private projects included, with the same filters', async () => {
    // Prepare
    const { owner, member } = await busyProject();
    const hidden = await createProject(owner.token);

    // Act
    const mine = await api('/events', { token: owner.token });
    const joined = await api('/events', { token: member.token, query: { action: 'joined' } });
    const anonymous = await api('/events');

    // Assess
    expect(mine.status).toBe(200);
    expect(actions(mine.body)).toEqual(['created', 'commented on', 'opened', 'created']);
    expect(mine.body[0].project_id).toBe(hidden.id);
    expect(actions(joined.body)).toEqual(['joined']);
    expect(anonymous.status).toBe(401);
  });

  it('answers 400 to an unknown action, target_type, sort or date', async () => {
    for (const query of [{ action: 'danced' }, { target_type: 'Issue' }, { sort: 'up' }, { before: 'yesterday' }]) {
      const response = await api('/events', { token: (await createUser()).token, query });
      expect(response.status, JSON.stringify(query)).toBe(400);
    }
  });
});

describe('event feeds and confidential issues', () => {
  it('shows events of a confidential issue only to those who may read the issue', async () => {
    // Prepare: a public project with a confidential and a normal issue
    const owner = await createUser();
    const [guest, reporter] = await Promise.all([createUser(), createUser()]);
    const project = await createProject(owner.token, { visibility: 'public' });
    await addMember('projects', project.id, guest.id, 10);
    await addMember('projects', project.id, reporter.id, 20);
    const secret = await api(`/projects/${project.id}/issues`, { token: owner.token, body: { title: 'Secret plan', confidential: true } });
    const open = await api(`/projects/${project.id}/issues`, { token: owner.token, body: { title: 'Open plan' } });
    expect([secret.status, open.status]).toEqual([201, 201]);
    const titles = async (path: string, token?: string) =>
      (await api(path, { token })).body.flatMap((event: { target_title: string | null }) => (event.target_title ? [event.target_title] : []));
    // Act / Assess: project feed
    expect(await titles(`/projects/${project.id}/events`)).toEqual(['Open plan']);
    expect(await titles(`/projects/${project.id}/events`, guest.token)).toEqual(['Open plan']);
    expect(await titles(`/projects/${project.id}/events`, reporter.token)).toEqual(['Open plan', 'Secret plan']);
    expect(await titles(`/projects/${project.id}/events`, owner.token)).toEqual(['Open plan', 'Secret plan']);
    // ...and the author's user feed
    expect(await titles(`/users/${owner.id}/events`, guest.token)).toEqual(['Open plan']);
    expect(await titles(`/users/${owner.id}/events`, reporter.token)).toEqual(['Open plan', 'Secret plan']);
  });
});
