/**
 * Stars and contributions as clients list them (python-gitlab `project.starrers.list()`,
 * `user.starred_projects.list()`, `user.contributed_projects.list()`; gitbeaker's
 * `Projects.allStarrers`, `Users.allStarredProjects`, `Users.allContributedProjects`): what each
 * caller may see, newest first, by id or username; and stars raced by many users at once.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { DeleteCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { db, tableName } from '../../shared/platform/dynamo/client';
import { deleteUserContributions, indexProjectContributions } from '../../shared/projects/store/contributions';
import { projectKeys } from '../../shared/projects/store/keys';
import { indexProjectStarrers } from '../../shared/projects/store/stars';
import { api, isLocalRuntime } from '../support/api';
import { createGroup, createProject, createUser, openIssue, type TestProject, type TestUser } from '../support/fixtures';

const ids = (body: Array<{ id: number }>) => body.map((entry) => entry.id);

describe('stars and contributions', () => {
  let owner: TestUser;
  let fan: TestUser;
  let stranger: TestUser;
  /** Public, in the owner's personal namespace: starred by the fan then the owner. */
  let open: TestProject;
  /** Private, in the owner's personal namespace: starred by its owner. */
  let secret: TestProject;
  /** Private, in the owner's group: the owner opened an issue there. */
  let groupSecret: TestProject;
  /** Public, in the owner's group: created only (no contribution). */
  let groupIdle: TestProject;

  /** Users who race their stars on one project. */
  let racers: TestUser[];

  beforeAll(async () => {
    const users = await Promise.all(Array.from({ length: 6 }, () => createUser()));
    [owner, fan, stranger] = users;
    racers = users.slice(3);
    const star = async (project: TestProject, user: TestUser) => expect((await api(`/projects/${project.id}/star`, { token: user.token, method: 'POST' })).status).toBe(201);
    [open, secret, [groupSecret, groupIdle]] = await Promise.all([
      createProject(owner.token, { visibility: 'public' }),
      createProject(owner.token, { visibility: 'private' }),
      createGroup(owner.token, { visibility: 'public' }).then((group) =>
        Promise.all([
          createProject(owner.token, { visibility: 'private', namespace_id: group.id }),
          createProject(owner.token, { visibility: 'public', namespace_id: group.id }),
        ]),
      ),
    ]);
    // Contributions: the fan's issue in the owner's project, the owner's in their own project
    // (personal: not listed, GitLab's `joined`) and in the group's private project.
    await Promise.all([
      star(open, fan).then(() => star(open, owner)),
      star(secret, owner),
      openIssue(open.id, fan.token),
      openIssue(open.id, owner.token),
      openIssue(groupSecret.id, owner.token),
    ]);
  });

  it('lists the starrers newest first with starred_since, searchable, paged with the star count as total; 404 where the project is hidden', async () => {
    // Act
    const all = await api(`/projects/${open.id}/starrers`);
    const searched = await api(`/projects/${encodeURIComponent(open.fullPath)}/starrers`, { token: stranger.token, query: { search: fan.username.toUpperCase() } });
    const paged = await api(`/projects/${open.id}/starrers`, { token: fan.token, query: { per_page: 1, page: 2 } });
    const hidden = await api(`/projects/${secret.id}/starrers`, { token: stranger.token });
    const own = await api(`/projects/${secret.id}/starrers`, { token: owner.token });

    // Assess
    expect(all.status).toBe(200);
    expect(all.body).toEqual([
      { starred_since: expect.any(String), user: expect.objectContaining({ id: owner.id, username: owner.username, state: 'active', web_url: expect.stringContaining(owner.username) }) },
      { starred_since: expect.any(String), user: expect.objectContaining({ id: fan.id, username: fan.username }) },
    ]);
    expect(Date.parse(all.body[0].starred_since)).toBeGreaterThanOrEqual(Date.parse(all.body[1].starred_since));
    expect(all.headers.get('x-total')).toBe('2');
    expect(searched.body.map((s: { user: { id: number } }) => s.user.id)).toEqual([fan.id]);
    expect(paged.body.map((s: { user: { id: number } }) => s.user.id)).toEqual([fan.id]);
    expect(paged.headers.get('x-prev-page')).toBe('1');
    expect(hidden).toMatchObject({ status: 404, body: { message: '404 Project Not Found' } });
    expect(own.body.map((s: { user: { id: number } }) => s.user.id)).toEqual([owner.id]);
  });

  it("lists a user's starred projects the caller may see, by id or username, with the project list's filters", async () => {
    // Act
    const asOwner = await api(`/users/${owner.id}/starred_projects`, { token: owner.token });
    const asStranger = await api(`/users/${owner.username}/starred_projects`, { token: stranger.token, query: { simple: true } });
    const anonymous = await api(`/users/${fan.id}/starred_projects`);
    const filtered = await api(`/users/${owner.id}/starred_projects`, { token: owner.token, query: { visibility: 'private' } });
    const searched = await api(`/users/${owner.id}/starred_projects`, { token: owner.token, query: { search: 'no-such-word-here' } });

    // Assess
    expect(asOwner.status).toBe(200);
    // Newest project first, as every project list.
    expect(ids(asOwner.body)).toEqual([secret.id, open.id].sort((a, b) => b - a));
    expect(asOwner.body.find((project: { id: number }) => project.id === open.id)).toMatchObject({ star_count: 2, path_with_namespace: open.fullPath });
    expect(ids(asStranger.body)).toEqual([open.id]);
    expect(Object.keys(asStranger.body[0])).not.toContain('permissions');
    expect(ids(anonymous.body)).toEqual([open.id]);
    expect(ids(filtered.body)).toEqual([secret.id]);
    expect(searched.body).toEqual([]);
    expect(await api('/users/999999999/starred_projects')).toMatchObject({ status: 404, body: { message: '404 User Not Found' } });
  });

  it("lists the projects a user contributed to outside their personal namespace, as far as the caller may see them", async () => {
    // Act
    const asOwner = await api(`/users/${owner.id}/contributed_projects`, { token: owner.token });
    const asStranger = await api(`/users/${owner.username}/contributed_projects`, { token: stranger.token });
    const ofFan = await api(`/users/${fan.username}/contributed_projects`, { query: { simple: true, order_by: 'name', sort: 'asc' } });

    // Assess: issues opened count; a project only created does not; the owner's own namespace is left out.
    expect(asOwner.status).toBe(200);
    expect(ids(asOwner.body)).toEqual([groupSecret.id]);
    expect(ids(asOwner.body)).not.toContain(groupIdle.id);
    expect(asStranger.body).toEqual([]);
    expect(ids(ofFan.body)).toEqual([open.id]);
    expect(Object.keys(ofFan.body[0]).sort()).toEqual(expect.arrayContaining(['id', 'name', 'path', 'web_url']));
    expect(await api('/users/no-such-user-anywhere/contributed_projects')).toMatchObject({ status: 404, body: { message: '404 User Not Found' } });
  });

  it('keeps starrers and star_count equal when users star and unstar one project at once', async () => {
    // Prepare
    const project = await createProject(owner.token, { visibility: 'public' });
    const users = racers;
    const act = (user: TestUser, what: 'star' | 'unstar') => api(`/projects/${project.id}/${what}`, { token: user.token, method: 'POST' });

    // Act: each user stars twice at once, then unstars and stars again at once; the last two unstar.
    const raced = await Promise.all(
      users.map(async (user, i) => {
        const first = await Promise.all([act(user, 'star'), act(user, 'star')]);
        await Promise.all([act(user, 'unstar'), act(user, 'star')]);
        if (i >= 2) await Promise.all([act(user, 'unstar'), act(user, 'unstar')]);
        return first.map((response) => response.status).sort();
      }),
    );
    const starrers = await api(`/projects/${project.id}/starrers`, { query: { per_page: 100 } });
    const shown = await api(`/projects/${project.id}`);

    // Assess: one of each double star was refused (304), and the list matches the count.
    for (const statuses of raced) expect(statuses).toEqual([201, 304]);
    const starred = new Set(starrers.body.map((s: { user: { id: number } }) => s.user.id));
    expect(starred.size).toBe(starrers.body.length);
    expect(shown.body.star_count).toBe(starrers.body.length);
    for (const user of users.slice(2)) expect(starred.has(user.id)).toBe(false);
    for (const user of users.slice(0, 2)) {
      const theirs = await api(`/users/${user.id}/starred_projects`, { token: user.token });
      expect(ids(theirs.body).includes(project.id)).toBe(starred.has(user.id));
    }
  });

  it.runIf(isLocalRuntime())('indexes stars and contributions written before their indexes (the data migrations) and forgets a deleted user\'s contributions', async () => {
    // Prepare: as items written before this version, the fan's star without its starrers entry and no contribution entry.
    await db().send(new UpdateCommand({ TableName: tableName(), Key: projectKeys.star(open.id, fan.id), UpdateExpression: 'REMOVE GSI2PK, GSI2SK' }));
    await db().send(new DeleteCommand({ TableName: tableName(), Key: projectKeys.contribution(open.id, fan.id) }));
    const starrers = async () => (await api(`/projects/${open.id}/starrers`)).body.map((s: { user: { id: number } }) => s.user.id);
    const contributed = async () => ids((await api(`/users/${fan.id}/contributed_projects`)).body);
    expect([await starrers(), await contributed()]).toEqual([[owner.id], []]);

    // Act
    const indexed = [await indexProjectStarrers(open.id), await indexProjectContributions(open.id), await indexProjectStarrers(open.id)];

    // Assess: one star indexed, both authors' entries written (the owner's is the newer one kept), a second run changes nothing.
    expect(indexed[0]).toBe(1);
    expect(indexed[1]).toBeGreaterThanOrEqual(1);
    expect(indexed[2]).toBe(0);
    expect([await starrers(), await contributed()]).toEqual([[owner.id, fan.id], [open.id]]);
    expect(await deleteUserContributions(fan.id)).toBe(1);
    expect(await contributed()).toEqual([]);
  });
});
