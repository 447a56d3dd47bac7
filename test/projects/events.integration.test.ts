import { describe, expect, it } from 'vitest';
import { api } from '../support/api';
import { addMember, createProject, createUser } from '../support/fixtures';

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
