/**
 * `GET /groups` lists the groups a user reaches through a group share (GitLab's `GroupsFinder`
 * over `User#authorized_groups`: groups shared with one of the user's groups, with their
 * subgroups), in the plain list and with `all_available`; `min_access_level` and `owned` look at
 * direct memberships only, as GitLab's do.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { api } from '../support/api';
import { addMember, createGroup, createUser, unique, type TestUser } from '../support/fixtures';

const DEVELOPER = 30;
const GUEST = 10;

async function listed(token: string, query: Record<string, string | number | boolean> = {}) {
  const response = await api('/groups', { token, query: { per_page: 100, ...query } });
  expect(response.status, JSON.stringify(response.body)).toBe(200);
  return (response.body as Array<{ id: number }>).map((group) => group.id).sort((a, b) => a - b);
}

/** The list once it holds `id` (the share index is eventually consistent on a deployed stage), polled for up to 5 s. */
async function listedOnceIncluding(token: string, id: number, query: Record<string, string | number | boolean>) {
  for (let attempt = 0; ; attempt++) {
    const found = await listed(token, query);
    if (found.includes(id) || attempt === 10) return found;
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
}

describe('GET /groups with group shares', () => {
  const marker = unique('lsh');
  let owner: TestUser;
  let member: TestUser;
  let stranger: TestUser;
  let invited: { id: number };
  let shared: { id: number };
  let sub: { id: number };
  let unrelated: { id: number };

  beforeAll(async () => {
    [owner, member, stranger] = await Promise.all([createUser(), createUser(), createUser()]);
    const make = (extra: Record<string, unknown> = {}) => createGroup(owner.token, { visibility: 'private', name: `${marker} ${unique('')}`, ...extra });
    [invited, shared, unrelated] = await Promise.all([make(), make(), make()]);
    sub = await make({ parent_id: shared.id });
    await addMember('groups', invited.id, member.id, GUEST);
    const share = await api(`/groups/${shared.id}/share`, { token: owner.token, body: { group_id: invited.id, group_access: DEVELOPER } });
    expect(share.status, JSON.stringify(share.body)).toBe(201);
  });

  it('lists the shared group and its subgroup beside the member’s own group, by default and with all_available', async () => {
    // Act
    const plain = await listedOnceIncluding(member.token, shared.id, { search: marker });
    const available = await listed(member.token, { search: marker, all_available: true });
    const byId = await listed(member.token, { search: marker, all_available: true, order_by: 'id' });

    // Assert
    const expected = [invited.id, shared.id, sub.id].sort((a, b) => a - b);
    expect(plain).toEqual(expected);
    expect(available).toEqual(expected);
    expect(byId).toEqual(expected);
  });

  it('leaves shares out of min_access_level and owned lists', async () => {
    // Act
    const minimum = await listed(member.token, { search: marker, min_access_level: GUEST });
    const owned = await listed(member.token, { search: marker, owned: true });

    // Assert
    expect(minimum).toEqual([invited.id]);
    expect(owned).toEqual([]);
  });

  it('shows the shared groups to nobody else: a stranger lists none of these private groups', async () => {
    // Act
    const plain = await listed(stranger.token, { search: marker });
    const available = await listed(stranger.token, { search: marker, all_available: true });

    // Assert
    expect(plain).toEqual([]);
    expect(available).toEqual([]);
    expect(await listed(owner.token, { search: marker })).toEqual([invited.id, shared.id, sub.id, unrelated.id].sort((a, b) => a - b));
  });

  it('drops the shared groups once the share is removed', async () => {
    // Arrange
    const other = await createGroup(owner.token, { visibility: 'private', name: `${marker} ${unique('')}` });
    expect((await api(`/groups/${other.id}/share`, { token: owner.token, body: { group_id: invited.id, group_access: GUEST } })).status).toBe(201);
    expect(await listedOnceIncluding(member.token, other.id, { search: marker })).toContain(other.id);

    // Act
    const removed = await api(`/groups/${other.id}/share/${invited.id}`, { token: owner.token, method: 'DELETE' });

    // Assert
    expect(removed.status).toBe(204);
    expect(await listed(member.token, { search: marker })).not.toContain(other.id);
  });
});
