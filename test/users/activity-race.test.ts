/**
 * `recordActivity` (an UpdateItem of the day a user was last active, on every authenticated
 * request) against an edit of the same user read before it (`PUT /users/:id`, block, identities):
 * the edit must not write back the day it read, losing the activity. Interleaved by hand against
 * DynamoDB Local (the runtime of `lagging-index.ts`, without lag), with the real store and commands.
 */
import { describe, expect, it } from 'vitest';
import { getItem } from '../../shared/platform/dynamo/query';
import { ApiError } from '../../shared/platform/http/errors';
import { updateUser } from '../../shared/users/commands/users';
import { changeUserState } from '../../shared/users/commands/user-states';
import { userKeys } from '../../shared/users/store/keys';
import { getUser, recordActivity } from '../../shared/users/store/users';
import { api, rootToken } from '../support/api';
import { createUser, unique } from '../support/fixtures';
import { useLaggingRuntime } from '../support/lagging-index';

useLaggingRuntime();

const DAY = '2031-05-06';

/** A user as an edit reads it, then the day's activity recorded by one of the user's requests. */
async function readThenActive() {
  const created = await createUser();
  const read = (await getUser(created.id))!;
  expect(read.lastActivityOn).toBeNull();
  await recordActivity(read, DAY);
  return { created, read };
}

describe('an edit of a user read before its activity was recorded', () => {
  it('keeps the activity day (and its place in GET /user/activities) and writes the edit', async () => {
    // Arrange
    const { created, read } = await readThenActive();
    // Act
    const edited = await updateUser(read, { name: 'Renamed Later', bio: 'edited' });
    // Assert
    expect(edited).toMatchObject({ name: 'Renamed Later', bio: 'edited' });
    expect(await getUser(created.id)).toMatchObject({ name: 'Renamed Later', bio: 'edited', lastActivityOn: DAY, version: read.version + 1 });
    expect(await getItem(userKeys.user(created.id))).toMatchObject({ GSI3PK: 'USER_ACTIVITY', GSI3SK: expect.stringMatching(new RegExp(`^${DAY}#`)) });
  });

  it('keeps the activity day when the user is blocked', async () => {
    // Arrange
    const { created, read } = await readThenActive();
    // Act
    await changeUserState(read, 'block');
    // Assert
    expect(await getUser(created.id)).toMatchObject({ state: 'blocked', lastActivityOn: DAY });
  });

  it('keeps the edit’s other guarantees: a rename moves the username claim and the search entries', async () => {
    // Arrange
    const { created, read } = await readThenActive();
    const username = unique('renamed');
    // Act
    await updateUser(read, { username });
    // Assert
    const byNew = await api('/users', { token: rootToken(), query: { username } });
    const byOld = await api('/users', { token: rootToken(), query: { username: created.username } });
    const found = await api('/users', { token: rootToken(), query: { search: username } });
    expect(byNew.body.map((u: { id: number }) => u.id)).toEqual([created.id]);
    expect(byOld.body).toEqual([]);
    expect(found.body.map((u: { id: number }) => u.id)).toEqual([created.id]);
    expect(await getUser(created.id)).toMatchObject({ username, lastActivityOn: DAY });
  });

  it('still refuses an edit made from a version another edit replaced (409), changing nothing', async () => {
    // Arrange
    const { created, read } = await readThenActive();
    await updateUser(read, { name: 'First Edit' });
    // Act
    const second = await updateUser(read, { name: 'Second Edit' }).catch((error: unknown) => error);
    // Assert
    expect(second).toBeInstanceOf(ApiError);
    expect((second as ApiError).statusCode).toBe(409);
    expect(await getUser(created.id)).toMatchObject({ name: 'First Edit', lastActivityOn: DAY });
  });
});
