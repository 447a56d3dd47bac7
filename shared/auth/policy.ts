/**
 * Every permission decision is made here, by name. Handlers call `authorize(user, 'admin_users')`
 * or `findXOrNotFound` helpers; they never compare roles or levels inline.
 */
import type { User } from '../data/users';
import { ForbiddenError, UnauthorizedError } from '../http/errors';

export type Ability =
  /** Create, modify, delete, block users; manage other users' keys, emails, tokens; see activities. */
  | 'admin_users'
  /** See admin-only fields and filters of users (email, identities, `external`, `extern_uid`). */
  | 'read_users_admin_fields'
  /** List all users (`GET /users` without `username`): any signed-in user. */
  | 'read_users_list';

const rules: Record<Ability, (user: User | null) => boolean> = {
  admin_users: (user) => isAdmin(user),
  read_users_admin_fields: (user) => isAdmin(user),
  read_users_list: (user) => user !== null,
};

export function isAdmin(user: User | null): user is User {
  return user !== null && user.admin && user.state === 'active';
}

/** Whether `user` (null: anonymous) may do `ability`. */
export function can(user: User | null, ability: Ability): boolean {
  return rules[ability](user);
}

/** Throws 403 (or 401 when anonymous) unless `user` may do `ability`. */
export function authorize(user: User | null, ability: Ability, reason?: string): asserts user is User {
  if (can(user, ability)) return;
  if (user === null) throw new UnauthorizedError();
  throw new ForbiddenError(reason);
}
