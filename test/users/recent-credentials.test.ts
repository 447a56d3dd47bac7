/**
 * Authentication keeps what it read for a presented token (the token and its owner, by the
 * secret's digest) for at most one second in the process: repeated requests with one token cost
 * no DynamoDB read, while a revoked token or a blocked user is refused at once in this process and
 * within a second in every other one (other Lambda containers).
 */
import { BatchGetCommand, GetCommand, TransactWriteCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { ApiRequest } from '../../shared/platform/http/context';
import { UnauthorizedError } from '../../shared/platform/http/errors';
import { authenticate } from '../../shared/users/authenticate';
import { userKeys } from '../../shared/users/store/keys';
import {
  RecentCredentials,
  digestToken,
  findTokenBySecret,
  forgetRecentCredentials,
  revokeToken,
  type AccessToken,
} from '../../shared/users/store/tokens';
import { recordActivity, replaceUser, type User } from '../../shared/users/store/users';
import { useMockedTable } from '../support/mocked-table';
import { userRecord } from '../support/user-record';

describe('RecentCredentials', () => {
  let now = 10_000;
  const cache = () => new RecentCredentials<string>({ ttlMs: 1000, maxEntries: 3, now: () => now });
  beforeEach(() => {
    now = 10_000;
  });

  it('answers what was kept for less than the time to live, counted from when the read began', () => {
    const recent = cache();
    const started = recent.begin();
    now += 300; // the read took 300 ms
    recent.keep('a', 1, 'token a', started);
    now += 699;
    expect(recent.get('a')).toBe('token a');
    now += 1;
    expect(recent.get('a')).toBeUndefined();
  });

  it('answers nothing when the clock went back', () => {
    const recent = cache();
    recent.keep('a', 1, 'token a', recent.begin());
    now -= 1;
    expect(recent.get('a')).toBeUndefined();
  });

  it("forgets every entry of an owner at once, and only theirs", () => {
    const recent = cache();
    recent.keep('a', 1, 'token a', recent.begin());
    recent.keep('b', 1, 'token b', recent.begin());
    recent.keep('c', 2, 'token c', recent.begin());
    recent.forgetOwner(1);
    expect([recent.get('a'), recent.get('b'), recent.get('c')]).toEqual([undefined, undefined, 'token c']);
  });

  it('does not keep a read that was under way while an owner was forgotten', () => {
    const recent = cache();
    const started = recent.begin();
    recent.forgetOwner(7); // a revocation written while the read was in flight
    recent.keep('a', 1, 'token a (maybe revoked)', started);
    expect(recent.get('a')).toBeUndefined();
    recent.keep('a', 1, 'token a', recent.begin());
    expect(recent.get('a')).toBe('token a');
  });

  it('shares one read among concurrent lookups of a key', async () => {
    const recent = cache();
    let loads = 0;
    const load = async () => `token a #${++loads}`;
    const results = await Promise.all([1, 2, 3].map(() => recent.lookup('a', load, () => 1)));
    expect(results).toEqual(['token a #1', 'token a #1', 'token a #1']);
    expect(loads).toBe(1);
  });

  it('does not share a read begun before an owner was forgotten with a later lookup', async () => {
    const recent = cache();
    let release!: () => void;
    const first = recent.lookup('a', () => new Promise<string>((resolve) => (release = () => resolve('before revocation'))), () => 1);
    recent.forgetOwner(1);
    const second = recent.lookup('a', async () => 'after revocation', () => 1);
    release();
    expect(await first).toBe('before revocation');
    expect(await second).toBe('after revocation');
    expect(recent.get('a')).toBe('after revocation');
  });

  it('answers what it kept past refreshAfterMs while one background read (shared with lookups meanwhile) reads it again', async () => {
    const recent = new RecentCredentials<string>({ ttlMs: 1000, refreshAfterMs: 500, maxEntries: 3, now: () => now });
    recent.keep('a', 1, 'token a', recent.begin());
    let release!: (value: string) => void;
    let reloads = 0;
    const reload = () => {
      reloads++;
      return new Promise<string>((resolve) => (release = resolve));
    };
    const unused = async () => 'read anew';
    now += 499;
    expect(await recent.lookup('a', unused, () => 1, reload)).toBe('token a');
    expect(reloads).toBe(0);
    now += 1;
    expect(await recent.lookup('a', unused, () => 1, reload)).toBe('token a');
    expect(await recent.lookup('a', unused, () => 1, reload)).toBe('token a');
    expect(reloads).toBe(1);
    // Past the time to live a lookup waits for the read under way rather than reading again.
    now += 500;
    const waiting = recent.lookup('a', unused, () => 1, reload);
    release('token a, read again');
    expect(await waiting).toBe('token a, read again');
    expect(recent.get('a')).toBe('token a, read again');
  });

  it('does not keep a background read that was under way while the owner was forgotten', async () => {
    const recent = new RecentCredentials<string>({ ttlMs: 1000, refreshAfterMs: 500, maxEntries: 3, now: () => now });
    recent.keep('a', 1, 'token a', recent.begin());
    let release!: (value: string) => void;
    now += 600;
    await recent.lookup('a', async () => 'unused', () => 1, () => new Promise<string>((resolve) => (release = resolve)));
    recent.forgetOwner(1);
    release('token a before revocation');
    await new Promise((resolve) => setImmediate(resolve));
    expect(recent.get('a')).toBeUndefined();
  });

  it('holds at most maxEntries, dropping the oldest', () => {
    const recent = cache();
    for (const key of ['a', 'b', 'c', 'd']) recent.keep(key, 1, key, recent.begin());
    expect(['a', 'b', 'c', 'd'].map((key) => recent.get(key))).toEqual([undefined, 'b', 'c', 'd']);
  });
});

describe('authentication and the tokens it keeps', () => {
  const TABLE = 'recent-credentials-test';
  const ddb = useMockedTable(TABLE);
  const SECRET = 'glpat-recent-credentials';

  const alice: User = { ...userRecord({ id: 5, username: 'alice' }), version: 1 };
  const stored: AccessToken = {
    id: 3,
    userId: 5,
    name: 't',
    scopes: ['api'],
    impersonation: false,
    revoked: false,
    expiresAt: null,
    createdAt: '2024-01-01T00:00:00.000Z',
    digest: digestToken(SECRET),
  };
  const tokenKey = userKeys.token(stored.userId, stored.id);

  /** The table holds `token` and `user` behind SECRET's digest. */
  function tableHolds(token: AccessToken, user: User) {
    ddb.on(GetCommand).resolves({ Item: { ...userKeys.tokenDigest(token.digest), userId: token.userId, childSK: tokenKey.SK } });
    ddb.on(BatchGetCommand).resolves({
      Responses: { [TABLE]: [{ ...userKeys.user(user.id), type: 'User', ...user }, { ...tokenKey, type: 'AccessToken', ...token }] },
    });
  }
  const reads = () => ddb.commandCalls(GetCommand).length + ddb.commandCalls(BatchGetCommand).length;

  const request = () =>
    ({
      event: { headers: { 'private-token': SECRET } },
      context: { rawParams: {}, route: { definition: {} }, auth: null },
    }) as unknown as ApiRequest;
  const run = async (req: ApiRequest) => (authenticate().before as (r: ApiRequest) => Promise<void>)(req);

  beforeEach(() => {
    forgetRecentCredentials();
    vi.useFakeTimers({ toFake: ['Date'], now: new Date('2024-05-07T12:00:00.000Z') });
  });
  afterEach(() => vi.useRealTimers());

  it('reads the table once for repeated requests within half a second, and again after a second without requests', async () => {
    tableHolds(stored, alice);
    await run(request());
    expect(reads()).toBe(2);
    vi.setSystemTime(new Date('2024-05-07T12:00:00.499Z'));
    const again = request();
    await run(again);
    expect(reads()).toBe(2);
    expect(again.context.auth?.user).toMatchObject({ id: 5, username: 'alice' });
    vi.setSystemTime(new Date('2024-05-07T12:00:01.000Z'));
    await run(request());
    expect(reads()).toBe(4);
  });

  it('answers a request from half a second on without waiting, reading the token and its owner again meanwhile', async () => {
    tableHolds(stored, alice);
    await run(request());
    vi.setSystemTime(new Date('2024-05-07T12:00:00.600Z'));
    tableHolds({ ...stored, name: 'renamed' }, alice); // changed elsewhere: this process was not told

    const kept = request();
    await run(kept);

    expect(kept.context.auth?.token?.name).toBe('t');
    // Later requests see what the background read found, once it is back.
    await vi.waitFor(async () => {
      const later = request();
      await run(later);
      expect(later.context.auth?.token?.name).toBe('renamed');
    });
    // It read the token and its owner (one BatchGetItem), not the digest pointer again.
    expect(ddb.commandCalls(GetCommand)).toHaveLength(1);
    expect(ddb.commandCalls(BatchGetCommand)).toHaveLength(2);
  });

  it('refuses a token another process deleted once the background read found it gone', async () => {
    tableHolds(stored, alice);
    await run(request());
    vi.setSystemTime(new Date('2024-05-07T12:00:00.700Z'));
    ddb.on(BatchGetCommand).resolves({ Responses: { [TABLE]: [{ ...userKeys.user(alice.id), type: 'User', ...alice }] } });
    ddb.on(GetCommand).resolves({});

    await run(request()); // still within its second: answered, and read again meanwhile

    await vi.waitFor(() => expect(run(request())).rejects.toBeInstanceOf(UnauthorizedError));
  });

  it('refuses a token another process revoked once a second has passed', async () => {
    tableHolds(stored, alice);
    await run(request());
    tableHolds({ ...stored, revoked: true }, alice); // revoked elsewhere: this process was not told
    vi.setSystemTime(new Date('2024-05-07T12:00:01.000Z'));
    await expect(run(request())).rejects.toBeInstanceOf(UnauthorizedError);
  });

  it('refuses a token another process revoked within a second even while requests keep coming', async () => {
    tableHolds(stored, alice);
    await run(request());
    tableHolds({ ...stored, revoked: true }, alice); // revoked elsewhere at 0.3 s
    for (const at of ['00.300', '00.600', '00.900']) {
      vi.setSystemTime(new Date(`2024-05-07T12:00:${at}Z`));
      await run(request()).catch(() => undefined); // answered from what was kept, or refused once re-read
    }
    vi.setSystemTime(new Date('2024-05-07T12:00:01.300Z'));
    await expect(run(request())).rejects.toBeInstanceOf(UnauthorizedError);
  });

  it('refuses a token revoked in this process at once', async () => {
    tableHolds(stored, alice);
    await run(request());
    ddb.on(UpdateCommand).resolves({ Attributes: { ...tokenKey, type: 'AccessToken', ...stored, revoked: true } });
    await revokeToken(stored.userId, stored.id);
    tableHolds({ ...stored, revoked: true }, alice);
    await expect(run(request())).rejects.toBeInstanceOf(UnauthorizedError);
  });

  it('refuses a user blocked in this process at once', async () => {
    tableHolds(stored, alice);
    await run(request());
    ddb.on(TransactWriteCommand).resolves({});
    const blocked: User = { ...alice, state: 'blocked' };
    expect(await replaceUser(alice, blocked)).toBe('updated');
    tableHolds(stored, { ...blocked, version: 2 });
    await expect(run(request())).rejects.toBeInstanceOf(UnauthorizedError);
  });

  it("reads the user again after its activity is recorded, and keeps no request's changes", async () => {
    tableHolds(stored, alice);
    const first = request();
    await run(first);
    first.context.auth!.user.name = 'changed by a request';
    expect((await findTokenBySecret(SECRET))?.user?.name).toBe(alice.name);
    ddb.on(UpdateCommand).resolves({});
    await recordActivity(alice, '2024-05-07');
    const before = reads();
    await findTokenBySecret(SECRET);
    expect(reads()).toBe(before + 2);
  });

  it('does not keep unknown secrets: a token created meanwhile works at once', async () => {
    ddb.on(GetCommand).resolves({});
    await expect(run(request())).rejects.toBeInstanceOf(UnauthorizedError);
    tableHolds(stored, alice);
    await run(request());
  });
});
