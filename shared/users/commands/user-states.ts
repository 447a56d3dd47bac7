/**
 * Admin state changes of a user (`POST /users/:id/block`, `unblock`, `deactivate`, `activate`,
 * `ban`, `unban`, `approve`), with GitLab's rules (`app/models/user.rb`'s state machine and the
 * `Users::*Service`s, current `lib/api/users.rb`):
 *
 * | action | from | refused (no change) |
 * |---|---|---|
 * | block | active, deactivated | already blocked? (blocked, banned, pending): 201 `null`; the ghost: 403; oneself: 403 (route) |
 * | unblock | blocked, banned, pending | deactivated: 403; active: 201 `false` |
 * | deactivate | active, inactive for 90 days | already deactivated: 201 `null`; blocked?: 403; internal: 403; recently active: 403 |
 * | activate | deactivated | blocked?: 403; active: 201 `false` |
 * | ban | active | any other state: 403 `You cannot ban <state> users.` |
 * | unban | banned | any other state: 403 `You cannot unban <state> users.` |
 * | approve | pending | any other: 409 |
 *
 * {@link decideStateChange} is the rule (no I/O); {@link changeUserState} writes it conditioned on
 * the version read (U15) and, when another write won the race, reads the user again and decides
 * again: concurrent changes apply one after the other, as GitLab's row lock does (a block and a
 * deactivation racing on an active user end blocked either way, the loser answering as GitLab
 * would have answered after the winner).
 */
import { ApiError, ConflictError, ForbiddenError, NotFoundError } from '../../platform/http/errors';
import { isGhost } from '../ghost';
import { getUser, isBlockedState, replaceUser, type User, type UserState } from '../store/users';

export type StateAction = 'block' | 'unblock' | 'deactivate' | 'activate' | 'ban' | 'unban' | 'approve';

/** GitLab's `deactivate_dormant_users_period` default (`User::MINIMUM_INACTIVE_DAYS`). */
export const MINIMUM_INACTIVE_DAYS = 90;

/** What an action does to a user: moves it to `to` and answers `body`, or answers `body` without a change. */
export type StateDecision = { to?: UserState; status: number; body: unknown };

/** GitLab's internal users (`internal?`): the ghost and bots. */
const isInternal = (user: User) => isGhost(user) || user.bot === true;

/** GitLab's `last_active_at`: the later of the last activity day and the current sign-in, else the creation. */
function lastActiveAt(user: User): number {
  const times = [user.lastActivityOn, user.currentSignInAt].filter((t): t is string => !!t).map((t) => Date.parse(t));
  return times.length > 0 ? Math.max(...times) : Date.parse(user.createdAt);
}

/** GitLab's `can_be_deactivated?` minus the state: not active within the last {@link MINIMUM_INACTIVE_DAYS} days. */
export const isDormant = (user: User, now: Date): boolean => lastActiveAt(user) <= now.getTime() - MINIMUM_INACTIVE_DAYS * 86_400_000;

const change = (to: UserState, body: unknown = true): StateDecision => ({ to, status: 201, body });
const answer = (body: unknown, status = 201): StateDecision => ({ status, body });
const forbidden = (message: string) => new ApiError(403, { message });

/** The rule of `action` on `user` as it is now (throws GitLab's refusal). */
export function decideStateChange(user: User, action: StateAction, now = new Date()): StateDecision {
  const { state } = user;
  switch (action) {
    case 'block':
      if (isGhost(user)) throw forbidden('An internal user cannot be blocked');
      return isBlockedState(state) ? answer(null) : change('blocked');
    case 'unblock':
      if (state === 'deactivated') throw new ForbiddenError('Deactivated users cannot be unblocked by the API');
      return state === 'active' ? answer(false) : change('active');
    case 'deactivate':
      if (state === 'deactivated') return answer(null);
      if (isBlockedState(state)) throw forbidden('Error occurred. A blocked user cannot be deactivated');
      if (isInternal(user)) throw forbidden('Internal users cannot be deactivated');
      if (!isDormant(user, now)) {
        throw forbidden(`The user you are trying to deactivate has been active in the past ${MINIMUM_INACTIVE_DAYS} days and cannot be deactivated`);
      }
      return change('deactivated');
    case 'activate':
      if (isBlockedState(state)) throw new ForbiddenError('A blocked user must be unblocked to be activated');
      return state === 'deactivated' ? change('active') : answer(false);
    case 'ban':
      if (state !== 'active') throw forbidden(`You cannot ban ${state} users.`);
      if (isGhost(user)) throw forbidden('403 Forbidden');
      return change('banned');
    case 'unban':
      if (state !== 'banned') throw forbidden(`You cannot unban ${state} users.`);
      return change('active');
    case 'approve':
      if (state !== 'blocked_pending_approval') throw new ConflictError('The user you are trying to approve is not pending approval');
      return change('active', { message: 'Success' });
  }
}

/** How many times a change lost to a concurrent write is decided again before answering 409. */
const ATTEMPTS = 5;

/** Applies `action` to `user` (re-read and re-decided when a concurrent write won); answers GitLab's status and body. */
export async function changeUserState(user: User, action: StateAction): Promise<StateDecision> {
  let current = user;
  for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
    const decision = decideStateChange(current, action);
    if (!decision.to) return decision;
    const result = await replaceUser(current, { ...current, state: decision.to, updatedAt: new Date().toISOString() });
    if (result === 'updated') return decision;
    const again = await getUser(current.id);
    if (!again) throw new NotFoundError('User');
    current = again;
  }
  throw new ConflictError('The user was modified by another request; try again');
}
