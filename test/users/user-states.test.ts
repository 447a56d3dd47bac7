/** GitLab's state machine of users as `decideStateChange` applies it (no I/O), and the status rules. */
import { describe, expect, it } from 'vitest';
import type { ApiError } from '../../shared/platform/http/errors';
import { decideStateChange, type StateAction } from '../../shared/users/commands/user-states';
import { nextStatus } from '../../shared/users/commands/status';
import type { UserState } from '../../shared/users/store/users';
import { userRecord } from '../support/user-record';

const NOW = new Date('2025-06-01T00:00:00Z');
/** Inactive since 2024-01-01 (the record's creation): dormant. */
const dormant = (state: UserState) => userRecord({ state });

const outcome = (state: UserState, action: StateAction, overrides = {}) => {
  try {
    const { to, status, body } = decideStateChange({ ...dormant(state), ...overrides }, action, NOW);
    return { to, status, body };
  } catch (error) {
    return { status: (error as ApiError).statusCode, body: (error as ApiError).body };
  }
};

describe('decideStateChange', () => {
  it('deactivates a dormant active user, and refuses the others with GitLab messages', () => {
    expect(outcome('active', 'deactivate')).toEqual({ to: 'deactivated', status: 201, body: true });
    expect(outcome('deactivated', 'deactivate')).toEqual({ to: undefined, status: 201, body: null });
    for (const state of ['blocked', 'banned', 'blocked_pending_approval'] as const) {
      expect(outcome(state, 'deactivate')).toEqual({ status: 403, body: { message: 'Error occurred. A blocked user cannot be deactivated' } });
    }
    expect(outcome('active', 'deactivate', { bot: true })).toEqual({ status: 403, body: { message: 'Internal users cannot be deactivated' } });
    expect(outcome('active', 'deactivate', { lastActivityOn: '2025-05-01' }).status).toBe(403);
    expect(outcome('active', 'deactivate', { lastActivityOn: '2025-02-01' }).to).toBe('deactivated');
  });

  it('moves between states as GitLab’s state machine does', () => {
    expect(outcome('deactivated', 'activate').to).toBe('active');
    expect(outcome('deactivated', 'block').to).toBe('blocked');
    expect(outcome('deactivated', 'unblock')).toEqual({ status: 403, body: { message: '403 Forbidden - Deactivated users cannot be unblocked by the API' } });
    expect(outcome('banned', 'unblock').to).toBe('active');
    expect(outcome('blocked_pending_approval', 'approve')).toEqual({ to: 'active', status: 201, body: { message: 'Success' } });
    expect(outcome('blocked_pending_approval', 'block').body).toBeNull();
    expect(outcome('deactivated', 'ban')).toEqual({ status: 403, body: { message: 'You cannot ban deactivated users.' } });
    expect(outcome('blocked', 'unban')).toEqual({ status: 403, body: { message: 'You cannot unban blocked users.' } });
  });
});

describe('nextStatus', () => {
  it('defaults the emoji, keeps fields on PATCH, clears them on PUT, removes the status without emoji, message or availability', () => {
    const user = userRecord({ status: { emoji: 'coffee', message: 'Away', availability: 'busy', clearStatusAt: null } });
    expect(nextStatus(user, { message: 'Back' }, true, NOW)).toEqual({ emoji: 'speech_balloon', message: 'Back', availability: 'busy', clearStatusAt: null });
    expect(nextStatus(user, { emoji: 'tada' }, false, NOW)).toEqual({ emoji: 'tada', message: null, availability: 'busy', clearStatusAt: null });
    expect(nextStatus(user, { clear_status_after: '30_minutes' }, true, NOW)).toBeUndefined();
    expect(nextStatus(user, { emoji: 'x', clear_status_after: '30_minutes' }, true, NOW)?.clearStatusAt).toBe('2025-06-01T00:30:00.000Z');
  });
});
