/**
 * Listeners of members added and removed through the Members API, registered by the composition
 * root (`functions/api.ts`): the hooks' `user_add_to_team` / `user_remove_from_team` (projects) and
 * `user_add_to_group` / `user_remove_from_group` (groups) system events.
 */
import type { Membership, MemberSource } from '../auth';
import { listenersOf } from '../platform/listeners';
import type { User } from '../users';

/** A membership added or removed, with its source and its user. */
export interface MemberChange {
  source: MemberSource;
  membership: Membership;
  user: User;
}

const fieldsOf = (change: MemberChange) => ({ source: `${change.source.kind}#${change.source.id}`, userId: change.user.id });

const memberAdded = listenersOf<MemberChange>('member added', fieldsOf);
/** Registers what another feature does once a member is added. */
export const onMemberAdded = memberAdded.on;
/** Tells the listeners a member was added; never throws. */
export const notifyMemberAdded = memberAdded.notify;

const memberRemoved = listenersOf<MemberChange>('member removed', fieldsOf);
/** Registers what another feature does once a member is removed. */
export const onMemberRemoved = memberRemoved.on;
/** Tells the listeners a member was removed; never throws. */
export const notifyMemberRemoved = memberRemoved.notify;
