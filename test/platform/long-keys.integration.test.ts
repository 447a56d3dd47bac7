/**
 * Lookups by client values too long for a DynamoDB key (2,048 bytes of partition key) are plain
 * "not found" answers, never a 500: one guard in the data layer serves every lookup.
 */
import { describe, expect, it } from 'vitest';
import { api, rootToken } from '../support/api';

const long = 'a'.repeat(3000);

describe('lookups by values too long for a key', () => {
  it.each([
    ['a group', `/groups/${long}`],
    ["a group's projects", `/groups/${long}/projects`],
    ["a group's members", `/groups/${long}/members`],
    ['a project', `/projects/${encodeURIComponent(`${long}/${long}`)}`],
    ["a user's projects", `/users/${long}/projects`],
  ])('GET %s by a 3,000-character path answers 404', async (_, path) => {
    const response = await api(path, { token: rootToken() });
    expect(response.status, JSON.stringify(response.body)).toBe(404);
  });

  it('finds no user by an over-long username or identity, and refuses an over-long sudo as an unknown user', async () => {
    const byName = await api('/users', { token: rootToken(), query: { username: long } });
    expect(byName.status).toBe(200);
    expect(byName.body).toEqual([]);
    const byIdentity = await api('/users', { token: rootToken(), query: { extern_uid: long, provider: 'ldap' } });
    expect(byIdentity.status).toBe(200);
    expect(byIdentity.body).toEqual([]);
    const sudo = await api('/user', { token: rootToken(), headers: { Sudo: long } });
    expect(sudo.status).toBe(404);
  });

  it('answers anonymous lookups the same way', async () => {
    expect((await api(`/groups/${long}`)).status).toBe(404);
  });
});
