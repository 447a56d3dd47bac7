/**
 * When an access token stops working (GitLab's `Expirable#expired?`: `expires_at <= Time.current`,
 * a date compared at 00:00 UTC): `expires_at` is the first day the token no longer authenticates,
 * for every kind of token (personal and impersonation), on a fixed clock at the day boundaries.
 */
import { BatchGetCommand, GetCommand } from '@aws-sdk/lib-dynamodb';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { ApiRequest } from '../../shared/platform/http/context';
import { UnauthorizedError } from '../../shared/platform/http/errors';
import { authenticate } from '../../shared/users/authenticate';
import { userKeys } from '../../shared/users/store/keys';
import { digestToken, forgetRecentCredentials, isTokenActive, type AccessToken } from '../../shared/users/store/tokens';
import { useMockedTable } from '../support/mocked-table';

const TABLE = 'token-expiry-test';
const ddb = useMockedTable(TABLE);

const token = (overrides: Partial<AccessToken> = {}): AccessToken => ({
  id: 3,
  userId: 5,
  name: 't',
  scopes: ['api'],
  impersonation: false,
  revoked: false,
  expiresAt: null,
  createdAt: '2024-01-01T00:00:00.000Z',
  digest: digestToken('secret'),
  ...overrides,
});

const KINDS = [
  ['personal', false],
  ['impersonation', true],
] as const;

describe('isTokenActive', () => {
  describe.each(KINDS)('a %s token', (_kind, impersonation) => {
    it.each([
      ['the day before its expiry date', '2024-05-07', '2024-05-06', true],
      ['its expiry date', '2024-05-07', '2024-05-07', false],
      ['the day after its expiry date', '2024-05-07', '2024-05-08', false],
    ])('on %s (expiring %s, today %s) is active: %s', (_label, expiresAt, today, active) => {
      expect(isTokenActive(token({ impersonation, expiresAt }), today)).toBe(active);
    });

    it('never expires without an expiry date, and a revoked one never works', () => {
      expect(isTokenActive(token({ impersonation }), '2999-12-31')).toBe(true);
      expect(isTokenActive(token({ impersonation, revoked: true }), '2024-05-06')).toBe(false);
    });
  });

  describe('reads today from the clock (UTC)', () => {
    afterEach(() => vi.useRealTimers());

    it.each([
      ['2024-05-06T23:59:59.999Z', true],
      ['2024-05-07T00:00:00.000Z', false],
    ])('at %s a token expiring on 2024-05-07 is active: %s', (now, active) => {
      vi.useFakeTimers({ toFake: ['Date'], now: new Date(now) });
      expect(isTokenActive(token({ expiresAt: '2024-05-07' }))).toBe(active);
    });
  });
});

describe('authenticate() and expiry', () => {
  const user = { ...userKeys.user(5), type: 'User', id: 5, username: 'alice', state: 'active', admin: false, external: false };

  /** The digest pointer, then the user and the token item, as the store reads them. */
  function storeHolds(stored: AccessToken) {
    const tokenKey = userKeys.token(stored.userId, stored.id);
    ddb.on(GetCommand).resolves({ Item: { ...userKeys.tokenDigest(stored.digest), userId: stored.userId, childSK: tokenKey.SK } });
    ddb.on(BatchGetCommand).resolves({ Responses: { [TABLE]: [user, { ...tokenKey, type: 'AccessToken', ...stored }] } });
  }

  const request = () =>
    ({
      event: { headers: { 'private-token': 'secret' } },
      context: { rawParams: {}, route: { definition: {} }, auth: null },
    }) as unknown as ApiRequest;

  const run = async (req: ApiRequest) => (authenticate().before as (r: ApiRequest) => Promise<void>)(req);

  beforeEach(() => {
    // Each test scripts a different token behind the same secret: nothing read by the last one is kept.
    forgetRecentCredentials();
    vi.useFakeTimers({ toFake: ['Date'], now: new Date('2024-05-07T00:00:00.000Z') });
  });
  afterEach(() => vi.useRealTimers());

  describe.each(KINDS)('a %s token', (_kind, impersonation) => {
    it('expiring today (from 00:00 UTC) is a 401', async () => {
      storeHolds(token({ impersonation, expiresAt: '2024-05-07' }));
      await expect(run(request())).rejects.toBeInstanceOf(UnauthorizedError);
    });

    it('expiring tomorrow authenticates its owner', async () => {
      storeHolds(token({ impersonation, expiresAt: '2024-05-08' }));
      const req = request();
      await run(req);
      expect(req.context.auth?.user).toMatchObject({ id: 5, username: 'alice' });
    });
  });
});
