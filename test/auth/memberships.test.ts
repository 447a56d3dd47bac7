/**
 * When a membership stops giving access (GitLab's `Member` is `Expirable`: `expired?` is
 * `expires_at <= Time.current`, and `RemoveExpiredMembersWorker` removes `Member.expired` at the
 * start of the day): `expires_at` is the first day without access, on a fixed clock.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { isMembershipActive, type Membership } from '../../shared/auth/store/memberships';

const membership = (expiresAt: string | null): Membership => ({
  sourceKind: 'project',
  sourceId: 42,
  userId: 7,
  accessLevel: 30,
  expiresAt,
  createdAt: '2024-01-01T00:00:00.000Z',
  createdById: 1,
});

describe('isMembershipActive', () => {
  it.each([
    ['the day before its expiry date', '2024-05-06', true],
    ['its expiry date', '2024-05-07', false],
    ['the day after its expiry date', '2024-05-08', false],
  ])('on %s (today %s) is active: %s', (_label, today, active) => {
    expect(isMembershipActive(membership('2024-05-07'), today)).toBe(active);
  });

  it('never expires without an expiry date', () => {
    expect(isMembershipActive(membership(null), '2999-12-31')).toBe(true);
  });

  describe('reads today from the clock (UTC)', () => {
    afterEach(() => vi.useRealTimers());

    it.each([
      ['2024-05-06T23:59:59.999Z', true],
      ['2024-05-07T00:00:00.000Z', false],
    ])('at %s a membership expiring on 2024-05-07 is active: %s', (now, active) => {
      vi.useFakeTimers({ toFake: ['Date'], now: new Date(now) });
      expect(isMembershipActive(membership('2024-05-07'))).toBe(active);
    });
  });
});
