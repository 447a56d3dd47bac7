/**
 * User activity (`GET /user/activities`, admin only) and the contribution feed of a user
 * (`GET /users/:id/events`). The service is shared with other test files, so lists are searched
 * for this file's users instead of being compared whole.
 */
import { describe, expect, it } from 'vitest';
import { api, rootToken } from '../support/api';
import { createUser } from '../support/fixtures';

interface Activity {
  username: string;
  last_activity_on: string;
  last_activity_at: string;
}

/** A UTC date `days` from today, `YYYY-MM-DD` (activity days are UTC dates). */
const utcDate = (days = 0) => new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10);

/** Every page of `GET /user/activities` (per_page=100), following X-Next-Page. */
async function allActivities(query: Record<string, string> = {}): Promise<Activity[]> {
  const items: Activity[] = [];
  let page = '1';
  for (let guard = 0; page && guard < 1000; guard++) {
    const response = await api<Activity[]>('/user/activities', { token: rootToken(), query: { ...query, per_page: 100, page } });
    expect(response.status, JSON.stringify(response.body)).toBe(200);
    items.push(...response.body);
    page = response.headers.get('x-next-page') ?? '';
  }
  return items;
}

/**
 * {@link allActivities} until `done` holds: the list is read from a secondary index, which a
 * deployed DynamoDB updates eventually (at most ~3 s here). Returns the last list either way.
 */
async function activitiesWhen(query: Record<string, string>, done: (items: Activity[]) => boolean): Promise<Activity[]> {
  let items = await allActivities(query);
  for (let attempt = 0; attempt < 15 && !done(items); attempt++) {
    await new Promise((resolve) => setTimeout(resolve, 200));
    items = await allActivities(query);
  }
  return items;
}

describe('GET /user/activities', () => {
  it.each<[string, Record<string, string>]>([
    ['without from (the last six months)', {}],
    ['with from=today', { from: utcDate(0) }],
    ['with from a week ago', { from: utcDate(-7) }],
  ])('lists a user who made an authenticated request today, %s', async (_label, query) => {
    // Prepare
    const user = await createUser();
    expect((await api('/user', { token: user.token })).status).toBe(200);

    // Act
    const activities = await activitiesWhen(query, (items) => items.some((a) => a.username === user.username));

    // Assess
    const mine = activities.filter((a) => a.username === user.username);
    expect(mine).toEqual([{ username: user.username, last_activity_on: utcDate(0), last_activity_at: utcDate(0) }]);
  });

  it('does not list a user who never made an authenticated request', async () => {
    // Prepare: created by root, with a token that was never used
    const user = await createUser();

    // Act
    const activities = await allActivities({ from: utcDate(0) });

    // Assess
    expect(activities.map((a) => a.username)).not.toContain(user.username);
  });

  it('lists a user once however many requests they made', async () => {
    // Prepare
    const user = await createUser();
    await Promise.all([1, 2, 3, 4].map(() => api('/user', { token: user.token })));
    await api('/user/keys', { token: user.token });

    // Act
    const activities = await activitiesWhen({ from: utcDate(0) }, (items) => items.some((a) => a.username === user.username));

    // Assess
    expect(activities.filter((a) => a.username === user.username)).toHaveLength(1);
  });

  it('shows the same day as last_activity_on of the user (GET /users/:id), which is null before any request', async () => {
    // Prepare
    const user = await createUser();
    const before = await api(`/users/${user.id}`, { token: rootToken() });
    await api('/user', { token: user.token });

    // Act
    const after = await api(`/users/${user.id}`, { token: rootToken() });

    // Assess
    expect(before.body.last_activity_on).toBeNull();
    expect(after.body.last_activity_on).toBe(utcDate(0));
  });

  it('lists nobody when from is in the future', async () => {
    // Prepare
    const user = await createUser();
    await api('/user', { token: user.token });

    // Act
    const response = await api<Activity[]>('/user/activities', { token: rootToken(), query: { from: utcDate(2) } });

    // Assess
    expect(response.status).toBe(200);
    expect(response.body).toEqual([]);
  });

  it('lists the oldest activity first', async () => {
    // Prepare
    const user = await createUser();
    await api('/user', { token: user.token });

    // Act
    const activities = await allActivities({ from: utcDate(-200) });

    // Assess
    expect(activities.length).toBeGreaterThanOrEqual(2);
    const days = activities.map((a) => a.last_activity_on);
    expect(days).toEqual([...days].sort());
    expect(days.every((day) => /^\d{4}-\d{2}-\d{2}$/.test(day))).toBe(true);
  });

  it('pages with per_page and GitLab headers', async () => {
    // Prepare: at least two users active today (root, by its own requests, and this one)
    const user = await createUser();
    await api('/user', { token: user.token });
    const query = { from: utcDate(0), per_page: 1 };

    // Act
    const page1 = await api<Activity[]>('/user/activities', { token: rootToken(), query });
    const page2 = await api<Activity[]>('/user/activities', { token: rootToken(), query: { ...query, page: 2 } });

    // Assess
    expect(page1.status).toBe(200);
    expect(page1.body).toHaveLength(1);
    expect(page1.headers.get('x-per-page')).toBe('1');
    expect(page1.headers.get('x-page')).toBe('1');
    expect(page1.headers.get('x-next-page')).toBe('2');
    expect(page1.headers.get('link')).toContain('rel="next"');
    expect(page2.status).toBe(200);
    expect(page2.body).toHaveLength(1);
    expect(page2.headers.get('x-page')).toBe('2');
    expect(page2.headers.get('x-prev-page')).toBe('1');
    expect(page2.body[0].username).not.toBe(page1.body[0].username);
    expect(page1.body[0].last_activity_on <= page2.body[0].last_activity_on).toBe(true);
  });

  it.each(['yesterday', '2024-13-01', '2024-02-30', '01/02/2024'])('answers 400 from is invalid for from=%s', async (from) => {
    // Act
    const response = await api('/user/activities', { token: rootToken(), query: { from } });

    // Assess
    expect(response.status).toBe(400);
    expect(response.body).toEqual({ error: 'from is invalid' });
  });

  it('answers 403 to a non-admin', async () => {
    // Prepare
    const user = await createUser();

    // Act
    const response = await api('/user/activities', { token: user.token });

    // Assess
    expect(response.status).toBe(403);
    expect(response.body).toEqual({ message: '403 Forbidden' });
  });

  it('answers 401 to an anonymous caller', async () => {
    // Act
    const response = await api('/user/activities');

    // Assess
    expect(response.status).toBe(401);
    expect(response.body).toEqual({ message: '401 Unauthorized' });
  });
});

describe('GET /users/:id/events', () => {
  it('answers 200 with no events and pagination headers for a fresh user', async () => {
    // Prepare
    const user = await createUser();

    // Act
    const response = await api(`/users/${user.id}/events`, { token: rootToken() });

    // Assess
    expect(response.status).toBe(200);
    expect(response.body).toEqual([]);
    expect(response.headers.get('x-page')).toBe('1');
    expect(response.headers.get('x-per-page')).toBe('20');
    expect(response.headers.get('x-next-page')).toBe('');
    expect(response.headers.get('x-prev-page')).toBe('');
  });

  it('shows a user their own (empty) feed', async () => {
    // Prepare
    const user = await createUser();

    // Act
    const response = await api(`/users/${user.id}/events`, { token: user.token, query: { per_page: 5 } });

    // Assess
    expect(response.status).toBe(200);
    expect(response.body).toEqual([]);
    expect(response.headers.get('x-per-page')).toBe('5');
  });

  it('answers 404 User Not Found for an unknown user', async () => {
    // Act
    const response = await api('/users/999999999/events', { token: rootToken() });

    // Assess
    expect(response.status).toBe(404);
    expect(response.body).toEqual({ message: '404 User Not Found' });
  });
});
