/**
 * Membership changes for groups and projects: adding, changing and removing direct members, and
 * removing every membership of a deleted user. The invariants (one membership per user and
 * source, live sources and users, an exact group owner count that never drops below one) are
 * carried by the transactions of `store/members.ts`; this module decides what to write, retries
 * when a concurrent change got there first, and maps the store's results to GitLab's answers.
 */
import { OWNER, getMembership, userMemberships, type MemberSource, type Membership } from '../auth';
import { recordEvent } from '../projects';
import { ConflictError, ForbiddenError, NotFoundError, ValidationError } from '../platform/http/errors';
import type { User } from '../users';
import { notifyMemberAdded, notifyMemberRemoved } from './listeners';
import { findMemberOrNotFound } from './queries';
import { changeMembership, getLiveUser, insertMembership, removeMembership, removeMembershipOfDeletedUser, type Member } from './store/members';

export interface NewMember {
  userId: number;
  accessLevel: number;
  /** First day without access (`YYYY-MM-DD`), or null for no expiry. */
  expiresAt: string | null;
}

export interface MemberChanges {
  accessLevel: number;
  /** A new expiry day, null to clear it, undefined to keep it. */
  expiresAt?: string | null;
}

/** GitLab's reason when the last owner would be removed or demoted (answered as a 403). */
export const LAST_OWNER_REASON = 'The last owner of a group cannot be removed or demoted';

/** How often an edit or removal re-reads the membership after a concurrent change. */
const MAX_ATTEMPTS = 5;

const today = () => new Date().toISOString().slice(0, 10);
const sourceName = (source: MemberSource) => (source.kind === 'group' ? 'Group' : 'Project');
const concurrentChange = () => new ConflictError('The member was modified by another request; try again');

/** `expires_at` may be today or later, never earlier (GitLab's `FutureDateValidator`); from that day on the member has no access. */
function assertExpiryNotPast(expiresAt: string | null | undefined): void {
  if (expiresAt && expiresAt < today()) throw new ValidationError({ expires_at: ['cannot be a date in the past'] });
}

/** How a change of access level moves the group's owner count: +1, -1 or 0. */
export function ownerCountDelta(source: MemberSource, from: number | null, to: number | null): number {
  if (source.kind !== 'group') return 0;
  return Number(to === OWNER) - Number(from === OWNER);
}

/**
 * Adds a user to a group or project. The access level must already be valid for the source (the
 * route's parameter schema checks it). A new group owner increments the owner count in the same
 * transaction; a new project member records a `joined` event authored by the member.
 *
 * @throws ValidationError when `expiresAt` is in the past; NotFoundError when the user (or the
 *   source, deleted meanwhile) does not exist; ConflictError when the user already is a member.
 */
export async function addMember(source: MemberSource, input: NewMember, actor: User): Promise<Member> {
  assertExpiryNotPast(input.expiresAt);
  const user = await getLiveUser(input.userId);
  if (!user) throw new NotFoundError('User');
  const membership: Membership = {
    sourceKind: source.kind,
    sourceId: source.id,
    userId: input.userId,
    accessLevel: input.accessLevel,
    expiresAt: input.expiresAt,
    createdAt: new Date().toISOString(),
    createdById: actor.id,
  };
  const result = await insertMembership(membership, ownerCountDelta(source, null, input.accessLevel) > 0);
  if (result === 'source_gone') throw new NotFoundError(sourceName(source));
  if (result === 'exists') throw new ConflictError('Member already exists');
  if (result === 'user_gone') throw new NotFoundError('User');
  if (source.kind === 'project') {
    await recordEvent({ projectId: source.id, authorId: membership.userId, actionName: 'joined' });
  }
  await notifyMemberAdded({ source, membership, user });
  return { membership, user };
}

/**
 * Changes a member's access level and, when given, expiry. Promoting to owner or demoting an owner
 * moves the group's owner count in the same transaction; the update is conditioned on the level
 * it read, and a concurrent change makes it re-read and decide again.
 *
 * @throws NotFoundError `Member` when the user is not a direct member; ForbiddenError when the
 *   last owner of a group would be demoted; ValidationError when `expiresAt` is in the past.
 */
export async function updateMember(source: MemberSource, userId: number, changes: MemberChanges): Promise<Member> {
  assertExpiryNotPast(changes.expiresAt);
  for (let attempt = 1; ; attempt++) {
    const current = await findMemberOrNotFound(source, userId);
    const next: Membership = {
      ...current.membership,
      accessLevel: changes.accessLevel,
      expiresAt: changes.expiresAt === undefined ? current.membership.expiresAt : changes.expiresAt,
    };
    const delta = ownerCountDelta(source, current.membership.accessLevel, next.accessLevel);
    const result = await changeMembership(current.membership, next, delta);
    if (result === 'done') return { membership: next, user: current.user };
    if (result === 'owners_refused') {
      // The owner count refused: the last owner would go, or the group itself is gone.
      if (delta < 0) throw new ForbiddenError(LAST_OWNER_REASON);
      throw new NotFoundError('Group');
    }
    if (attempt >= MAX_ATTEMPTS) throw concurrentChange();
  }
}

/**
 * Removes a member from a group or project. Removing a group owner decrements the owner count in
 * the same transaction, and fails when no other owner remains; removing a project member records
 * a `left` event authored by the member.
 *
 * @throws NotFoundError `Member` when the user is not a direct member; ForbiddenError when the
 *   member is the last owner of the group.
 */
export async function removeMember(source: MemberSource, userId: number): Promise<Member> {
  for (let attempt = 1; ; attempt++) {
    const current = await findMemberOrNotFound(source, userId);
    const result = await removeMembership(current.membership, ownerCountDelta(source, current.membership.accessLevel, null));
    if (result === 'owners_refused') throw new ForbiddenError(LAST_OWNER_REASON);
    if (result === 'changed') {
      if (attempt >= MAX_ATTEMPTS) throw concurrentChange();
      continue;
    }
    if (source.kind === 'project') {
      await recordEvent({ projectId: source.id, authorId: userId, actionName: 'left' });
    }
    await notifyMemberRemoved({ source, membership: current.membership, user: current.user });
    return current;
  }
}

/** How many memberships of a deleted user are removed at once. */
const REMOVAL_CONCURRENCY = 8;

/**
 * Removes every direct membership of a user, for `deleteUser` (after the user is marked as being
 * deleted, so no new membership can appear). A deleted user simply stops being an owner: the
 * owner count is decremented without the last-owner condition, so a group may be left without
 * owners (admins still manage it). Idempotent: a retry after a crash finishes the job.
 *
 * Reads the user's memberships from GSI1 (`USER_MEMBERSHIPS#<id>`); each removal is its own
 * transaction, conditioned on the level it read.
 *
 * @returns how many memberships were removed.
 * @example
 * await removeAllMembershipsOf(user.id); // in deleteUser, before the user item is removed
 */
export async function removeAllMembershipsOf(userId: number): Promise<number> {
  let removed = 0;
  let batch: Promise<boolean>[] = [];
  const settle = async () => {
    removed += (await Promise.all(batch)).filter(Boolean).length;
    batch = [];
  };
  for await (const found of userMemberships(userId)) {
    batch.push(removeMembershipOf({ kind: found.sourceKind, id: found.sourceId }, userId));
    if (batch.length >= REMOVAL_CONCURRENCY) await settle();
  }
  await settle();
  return removed;
}

/**
 * Removes one membership of a user being deleted (a deleted user's, a revoked access token's bot:
 * `access-tokens.ts`), an owner uncounted without the last-owner condition; false when it was
 * already gone.
 */
export async function removeMembershipOf(source: MemberSource, userId: number): Promise<boolean> {
  let groupGone = false;
  for (let attempt = 1; attempt <= MAX_ATTEMPTS; attempt++) {
    const membership = await getMembership(source, userId);
    if (!membership) return false;
    const uncountOwner = !groupGone && ownerCountDelta(source, membership.accessLevel, null) < 0;
    const result = await removeMembershipOfDeletedUser(membership, uncountOwner);
    if (result === 'done') return true;
    // The group item is gone (group deleted): remove the stray membership without counting.
    if (result === 'group_gone') groupGone = true;
  }
  throw new Error(`could not remove the membership of user ${userId} in ${source.kind} ${source.id}`);
}
