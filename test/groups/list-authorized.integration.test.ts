/**
 * `GET /groups` for a user who is not an admin, as GitLab's `GroupsFinder` lists
 * `authorized_groups.self_and_ancestors`: the groups they are members of with their subgroups, the
 * groups of projects they are members of (not those groups' subgroups), and every ancestor of
 * these, private ones included; `min_access_level` and `owned` stay on direct group memberships.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { api } from '../support/api';
import { addMember, createGroup, createProject, createUser, type TestUser } from '../support/fixtures';

const GUEST = 10;
const DEVELOPER = 30;

type Group = { id: number; fullPath: string };

async function listedIds(token: string, query: Record<string, string | number | boolean> = {}): Promise<number[]> {
  const response = await api('/groups', { token, query: { per_page: 100, ...query } });
  expect(response.status, JSON.stringify(response.body)).toBe(200);
  return response.body.map((group: { id: number }) => group.id);
}

describe('GET /groups: ancestors and the groups of member projects', () => {
  let user: TestUser;
  let stranger: TestUser;
  let top: Group;
  let sub: Group;
  let subChild: Group;
  let sibling: Group;
  let projectTop: Group;
  let projectGroup: Group;
  let projectGroupChild: Group;

  beforeAll(async () => {
    const owner = await createUser();
    [user, stranger] = await Promise.all([createUser(), createUser()]);
    [top, projectTop] = await Promise.all([createGroup(owner.token, { visibility: 'private' }), createGroup(owner.token, { visibility: 'private' })]);
    [sub, sibling, projectGroup] = await Promise.all([
      createGroup(owner.token, { parent_id: top.id, visibility: 'private' }),
      createGroup(owner.token, { parent_id: top.id, visibility: 'private' }),
      createGroup(owner.token, { parent_id: projectTop.id, visibility: 'private' }),
    ]);
    [subChild, projectGroupChild] = await Promise.all([
      createGroup(owner.token, { parent_id: sub.id, visibility: 'private' }),
      createGroup(owner.token, { parent_id: projectGroup.id, visibility: 'private' }),
    ]);
    const project = await createProject(owner.token, { namespace_id: projectGroup.id, visibility: 'private' });
    await Promise.all([addMember('groups', sub.id, user.id, GUEST), addMember('projects', project.id, user.id, DEVELOPER)]);
  });

  it('lists the member group with its subgroups, the member project’s group, and the ancestors of both', async () => {
    // Act
    const ids = await listedIds(user.token);

    // Assert
    expect(ids).toEqual(expect.arrayContaining([top.id, sub.id, subChild.id, projectTop.id, projectGroup.id]));
    expect(ids).not.toContain(sibling.id);
    expect(ids).not.toContain(projectGroupChild.id);
  });

  it('shows them with all_available=true too, and not to a stranger', async () => {
    // Act
    const available = await listedIds(user.token, { all_available: true });
    const strangers = await listedIds(stranger.token, { all_available: true });

    // Assert
    expect(available).toEqual(expect.arrayContaining([top.id, sub.id, subChild.id, projectTop.id, projectGroup.id]));
    expect(available).not.toContain(sibling.id);
    expect(strangers).not.toEqual(expect.arrayContaining([top.id]));
    for (const id of [top.id, sub.id, projectTop.id, projectGroup.id]) expect(strangers).not.toContain(id);
  });

  it('keeps min_access_level and owned on direct group memberships (with subgroups for min_access_level)', async () => {
    // Act
    const guestOrAbove = await listedIds(user.token, { min_access_level: GUEST });
    const developerOrAbove = await listedIds(user.token, { min_access_level: DEVELOPER });
    const owned = await listedIds(user.token, { owned: true });

    // Assert
    expect(guestOrAbove.sort()).toEqual([sub.id, subChild.id].sort());
    expect(developerOrAbove).toEqual([]);
    expect(owned).toEqual([]);
  });

  it('narrows the added groups by search like any other', async () => {
    // Act
    const found = await listedIds(user.token, { search: projectTop.fullPath });

    // Assert
    expect(found).toEqual([projectTop.id]);
  });
});
