/**
 * The member API's reads and writes of direct memberships (the membership items themselves are
 * the auth feature's: `shared/auth/store/memberships.ts`). Every write is one transaction whose
 * conditions carry the invariants, so racing requests cannot break them:
 * - a user is a member of a source at most once (`attribute_not_exists` on the membership put);
 * - members are only added to live sources and live users (condition checks on both);
 * - a group's `ownerCount` changes in the same transaction as the owner membership it counts, and
 *   an edit or removal is conditioned on the access level it read, so the count stays exact;
 * - the last owner of a group can never be removed or demoted (the owner count update with a
 *   negative delta fails unless another owner remains).
 * Results are returned, named after the transaction entry whose condition failed; the commands
 * map them to GitLab's answers.
 */
import { deleteMembership, membershipFromItem, membershipKeys, putNewMembership, updateMembership, type MemberSource, type Membership } from '../../auth';
import { deletedOwnerUncounted, groupIsLive, ownerAddedToLiveGroup, ownerCountUpdate } from '../../namespaces';
import { projectIsLive } from '../../projects';
import { byKey, getMany } from '../../platform/dynamo/batch';
import { ConditionFailed, transact } from '../../platform/dynamo/transactions';
import { userFromItem, userIsLive, userKeys, type User } from '../../users';
import { tableName } from '../../platform/dynamo/client';
import { accessRequestKeys } from './keys';

/** A direct membership together with its user, as every member response needs both. */
export interface Member {
  membership: Membership;
  user: User;
}

/** A user by id, read consistently (BatchGetItem); undefined when missing or being deleted. */
export async function getLiveUser(userId: number): Promise<User | undefined> {
  const [item] = await getMany([userKeys.user(userId)]);
  return item && !item.deleting ? userFromItem(item) : undefined;
}

/** A membership and its user read together (one BatchGetItem, consistent); undefined unless both exist. */
export async function readMember(source: MemberSource, userId: number): Promise<Member | undefined> {
  if (!Number.isSafeInteger(userId) || userId <= 0) return undefined;
  const find = byKey(await getMany([membershipKeys.member(source, userId), userKeys.user(userId)]));
  const membership = find(membershipKeys.member(source, userId));
  const user = find(userKeys.user(userId));
  if (!membership || !user || user.deleting) return undefined;
  return { membership: membershipFromItem(membership), user: userFromItem(user) };
}

/** The members of `memberships` whose users still exist, in the same order (one BatchGetItem per 100). */
export async function withUsers(memberships: Membership[]): Promise<Member[]> {
  if (memberships.length === 0) return [];
  const find = byKey(await getMany(memberships.map((m) => userKeys.user(m.userId))));
  return memberships.flatMap((membership) => {
    const item = find(userKeys.user(membership.userId));
    return item && !item.deleting ? [{ membership, user: userFromItem(item) }] : [];
  });
}

/**
 * The guard of the source of a new membership: a liveness check, or for a new group owner the
 * owner-count increment with the same liveness condition (one transaction may not touch an item
 * twice). Internal.
 */
function sourceGuard(source: MemberSource, newOwner: boolean) {
  if (source.kind === 'project') return projectIsLive(source.id);
  return newOwner ? ownerAddedToLiveGroup(source.id) : groupIsLive(source.id);
}

/**
 * Writes a new membership, checking that its source and its user are live, and counting a new
 * group owner (`newOwner`) and removing the user's pending access request in the same transaction.
 * @returns `source_gone` when the group or project is gone or being deleted, `exists` when the
 *   user already is a member, `user_gone` when the user is gone or being deleted.
 */
export async function insertMembership(membership: Membership, newOwner: boolean): Promise<'added' | 'source_gone' | 'exists' | 'user_gone'> {
  const source: MemberSource = { kind: membership.sourceKind, id: membership.sourceId };
  try {
    await transact({
      source: sourceGuard(source, newOwner),
      user: userIsLive(membership.userId),
      membership: putNewMembership(membership),
      // A pending access request of the user ends with the membership (GitLab turns the requester into the member).
      accessRequest: { Delete: { TableName: tableName(), Key: accessRequestKeys.request(source, membership.userId) } },
    });
    return 'added';
  } catch (error) {
    if (!(error instanceof ConditionFailed)) throw error;
    if (error.failedOn('source')) return 'source_gone';
    if (error.failedOn('membership')) return 'exists';
    return 'user_gone';
  }
}

/**
 * The result of an edit or removal: `changed` when the membership is no longer as read (changed
 * or removed meanwhile), `owners_refused` when the group's owner count refused (the last owner
 * would go, or the group is gone).
 */
export type MembershipWriteResult = 'done' | 'changed' | 'owners_refused';

const ownersOrChanged = (error: ConditionFailed): MembershipWriteResult => (error.failedOn('membership') ? 'changed' : 'owners_refused');

/**
 * Changes a membership's level and expiry, conditioned on the level read (`previous`); a non-zero
 * `ownerDelta` moves the group's owner count in the same transaction.
 */
export async function changeMembership(
  previous: Membership,
  next: Pick<Membership, 'accessLevel' | 'expiresAt'>,
  ownerDelta: number,
): Promise<MembershipWriteResult> {
  try {
    await transact({
      membership: updateMembership(previous, next),
      owners: ownerDelta !== 0 && ownerCountUpdate(previous.sourceId, ownerDelta),
    });
    return 'done';
  } catch (error) {
    if (!(error instanceof ConditionFailed)) throw error;
    return ownersOrChanged(error);
  }
}

/**
 * Removes a membership, conditioned on the level read (`previous`); a non-zero `ownerDelta` (a
 * removed owner: -1) moves the group's owner count in the same transaction, refused for the last owner.
 */
export async function removeMembership(previous: Membership, ownerDelta: number): Promise<MembershipWriteResult> {
  try {
    await transact({
      membership: deleteMembership(previous),
      owners: ownerDelta !== 0 && ownerCountUpdate(previous.sourceId, ownerDelta),
    });
    return 'done';
  } catch (error) {
    if (!(error instanceof ConditionFailed)) throw error;
    return ownersOrChanged(error);
  }
}

/**
 * Removes a membership of a deleted user, conditioned on the level read (`previous`); an owner
 * (`uncountOwner`) is uncounted without the last-owner condition.
 * @returns `changed` when the membership is no longer as read, `group_gone` when the group item
 *   is gone (deleted group: the membership is a stray, removed without counting on a retry).
 */
export async function removeMembershipOfDeletedUser(previous: Membership, uncountOwner: boolean): Promise<'done' | 'changed' | 'group_gone'> {
  try {
    await transact({
      membership: deleteMembership(previous),
      owners: uncountOwner && deletedOwnerUncounted(previous.sourceId),
    });
    return 'done';
  } catch (error) {
    if (!(error instanceof ConditionFailed)) throw error;
    return error.failedOn('membership') ? 'changed' : 'group_gone';
  }
}
