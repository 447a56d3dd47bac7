/**
 * Membership rules for groups and projects: adding, changing and removing direct members, and
 * removing every membership of a deleted user.
 *
 * Every write is one `TransactWriteItems` whose conditions carry the invariants, so racing
 * requests cannot break them:
 * - a user is a member of a source at most once (`attribute_not_exists` on the membership put);
 * - members are only added to live sources and live users (condition checks on both);
 * - a group's `ownerCount` changes in the same transaction as the owner membership it counts, and
 *   an edit or removal is conditioned on the access level it read, so the count stays exact;
 * - the last owner of a group can never be removed or demoted (`ownerCountUpdate` with a negative
 *   delta fails unless another owner remains).
 */
import { byKey, getMany } from '../platform/dynamo/batch';
import { recordEvent, projectIsLive } from '../projects';
import { type MemberSource, membershipCollections, membershipKeys, OWNER, membershipFromItem, putNewMembership, type Membership } from '../auth';
import { namespaceKeys, ownerCountUpdate } from '../groups';
import { userKeys, userFromItem, userIsLive, type User } from '../users';
import { queryAll, queryCollection } from '../platform/dynamo/query';
import { TransactionConditionFailed, transactWrite } from '../platform/dynamo/transactions';
import { ConflictError, ForbiddenError, NotFoundError, ValidationError } from '../platform/http/errors';
import { paginateArray, type Page, type PageLinkBase, type PaginationParams } from '../platform/http/pagination';
import { tableName } from '../platform/dynamo/client';

/** A direct membership together with its user, as every member response needs both. */
export interface Member {
  membership: Membership;
  user: User;
}

export interface NewMember {
  userId: number;
  accessLevel: number;
  /** Last day of access (`YYYY-MM-DD`), or null for no expiry. */
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

/** `expires_at` may be today (its last day of access) or later, never earlier. */
function assertExpiryNotPast(expiresAt: string | null | undefined): void {
  if (expiresAt && expiresAt < today()) throw new ValidationError({ expires_at: ['cannot be a date in the past'] });
}

/** How a change of access level moves the group's owner count: +1, -1 or 0. */
export function ownerCountDelta(source: MemberSource, from: number | null, to: number | null): number {
  if (source.kind !== 'group') return 0;
  return Number(to === OWNER) - Number(from === OWNER);
}

/** Internal: a condition that the group exists, is a group and is not being deleted. */
const groupIsLive = (groupId: number) => ({
  ConditionCheck: {
    TableName: tableName(),
    Key: namespaceKeys.namespace(groupId),
    ConditionExpression: 'attribute_exists(PK) AND attribute_not_exists(deleting) AND kind = :group',
    ExpressionAttributeValues: { ':group': 'group' },
  },
});

/**
 * Internal: the transaction item guarding the source of a new membership: a liveness check, or for
 * a new group owner the owner-count increment (one transaction may not touch an item twice), with
 * the same liveness condition added.
 */
function sourceGuard(source: MemberSource, accessLevel: number) {
  if (source.kind === 'project') return projectIsLive(source.id);
  if (ownerCountDelta(source, null, accessLevel) === 0) return groupIsLive(source.id);
  const { Update } = ownerCountUpdate(source.id, +1);
  return { Update: { ...Update, ConditionExpression: `${Update.ConditionExpression} AND attribute_not_exists(deleting)` } };
}

/** Internal: the access-level condition that makes an edit or removal fail if someone changed it first. */
const unchangedLevel = (membership: Membership) => ({
  ConditionExpression: 'attribute_exists(PK) AND accessLevel = :level',
  ExpressionAttributeValues: { ':level': membership.accessLevel },
});

/** Internal: the members of `memberships` whose users still exist (one BatchGetItem). */
async function withUsers(memberships: Membership[]): Promise<Member[]> {
  if (memberships.length === 0) return [];
  const find = byKey(await getMany(memberships.map((m) => userKeys.user(m.userId))));
  return memberships.flatMap((membership) => {
    const item = find(userKeys.user(membership.userId));
    return item && !item.deleting ? [{ membership, user: userFromItem(item) }] : [];
  });
}

/** Internal: a membership and its user read together (one BatchGetItem, consistent). */
async function readMember(source: MemberSource, userId: number): Promise<Member | undefined> {
  if (!Number.isSafeInteger(userId) || userId <= 0) return undefined;
  const find = byKey(await getMany([membershipKeys.member(source, userId), userKeys.user(userId)]));
  const membership = find(membershipKeys.member(source, userId));
  const user = find(userKeys.user(userId));
  if (!membership || !user || user.deleting) return undefined;
  return { membership: membershipFromItem(membership), user: userFromItem(user) };
}

/**
 * A direct member of a group or project; 404 `Member Not Found` when the user is not one.
 *
 * @example
 * const member = await findMemberOrNotFound({ kind: 'project', id: 7 }, 42);
 */
export async function findMemberOrNotFound(source: MemberSource, userId: number): Promise<Member> {
  const member = await readMember(source, userId);
  if (!member) throw new NotFoundError('Member');
  return member;
}

/**
 * One page of the direct members of a group or project, by user id ascending, optionally only
 * those whose username or name contains `query` (case-insensitive).
 *
 * The membership items of a source are one partition range, read whole: a member list is bounded
 * (thousands at most, where GitLab itself pages the same relation with offsets), so the exact
 * total is always known. Without `query` only the page's users are loaded; with it every member's
 * user is loaded (BatchGetItem, 100 per call) to match names.
 */
export async function listMembers(
  source: MemberSource,
  query: string | undefined,
  pagination: PaginationParams,
  link: PageLinkBase,
): Promise<Page<Member>> {
  const memberships = (await queryAll(membershipCollections.members(source))).map(membershipFromItem);
  if (!query) {
    const page = paginateArray(pagination, link, memberships);
    return { items: await withUsers(page.items), headers: page.headers };
  }
  const needle = query.toLowerCase();
  const matching = (await withUsers(memberships)).filter(
    ({ user }) => user.username.toLowerCase().includes(needle) || user.name.toLowerCase().includes(needle),
  );
  return paginateArray(pagination, link, matching);
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
  const [userItem] = await getMany([userKeys.user(input.userId)]);
  if (!userItem || userItem.deleting) throw new NotFoundError('User');
  const membership: Membership = {
    sourceKind: source.kind,
    sourceId: source.id,
    userId: input.userId,
    accessLevel: input.accessLevel,
    expiresAt: input.expiresAt,
    createdAt: new Date().toISOString(),
    createdById: actor.id,
  };
  try {
    await transactWrite([sourceGuard(source, input.accessLevel), userIsLive(input.userId), putNewMembership(membership)]);
  } catch (error) {
    if (!(error instanceof TransactionConditionFailed)) throw error;
    if (error.failed.includes(0)) throw new NotFoundError(sourceName(source));
    if (error.failed.includes(2)) throw new ConflictError('Member already exists');
    throw new NotFoundError('User');
  }
  if (source.kind === 'project') {
    await recordEvent({ projectId: source.id, authorId: membership.userId, actionName: 'joined' });
  }
  return { membership, user: userFromItem(userItem) };
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
    const guard = unchangedLevel(current.membership);
    try {
      await transactWrite([
        {
          Update: {
            TableName: tableName(),
            Key: membershipKeys.member(source, userId),
            UpdateExpression: 'SET accessLevel = :accessLevel, expiresAt = :expiresAt',
            ConditionExpression: guard.ConditionExpression,
            ExpressionAttributeValues: {
              ...guard.ExpressionAttributeValues,
              ':accessLevel': next.accessLevel,
              ':expiresAt': next.expiresAt,
            },
          },
        },
        ...(delta !== 0 ? [ownerCountUpdate(source.id, delta)] : []),
      ]);
      return { membership: next, user: current.user };
    } catch (error) {
      if (!(error instanceof TransactionConditionFailed)) throw error;
      if (!error.failed.includes(0)) {
        // The owner count refused: the last owner would go, or the group itself is gone.
        if (delta < 0) throw new ForbiddenError(LAST_OWNER_REASON);
        throw new NotFoundError('Group');
      }
      if (attempt >= MAX_ATTEMPTS) throw new ConflictError('The member was modified by another request; try again');
    }
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
    const delta = ownerCountDelta(source, current.membership.accessLevel, null);
    try {
      await transactWrite([
        { Delete: { TableName: tableName(), Key: membershipKeys.member(source, userId), ...unchangedLevel(current.membership) } },
        ...(delta !== 0 ? [ownerCountUpdate(source.id, delta)] : []),
      ]);
    } catch (error) {
      if (!(error instanceof TransactionConditionFailed)) throw error;
      if (!error.failed.includes(0)) throw new ForbiddenError(LAST_OWNER_REASON);
      if (attempt >= MAX_ATTEMPTS) throw new ConflictError('The member was modified by another request; try again');
      continue;
    }
    if (source.kind === 'project') {
      await recordEvent({ projectId: source.id, authorId: userId, actionName: 'left' });
    }
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
  for await (const item of queryCollection(membershipCollections.userMemberships(userId))) {
    const found = membershipFromItem(item);
    batch.push(removeMembershipOfDeletedUser({ kind: found.sourceKind, id: found.sourceId }, userId));
    if (batch.length >= REMOVAL_CONCURRENCY) await settle();
  }
  await settle();
  return removed;
}

/** Internal: removes one membership of a deleted user; false when it was already gone. */
async function removeMembershipOfDeletedUser(source: MemberSource, userId: number): Promise<boolean> {
  let groupGone = false;
  for (let attempt = 1; attempt <= MAX_ATTEMPTS; attempt++) {
    const [item] = await getMany([membershipKeys.member(source, userId)]);
    if (!item) return false;
    const membership = membershipFromItem(item);
    const decrement = !groupGone && ownerCountDelta(source, membership.accessLevel, null) < 0;
    try {
      await transactWrite([
        { Delete: { TableName: tableName(), Key: membershipKeys.member(source, userId), ...unchangedLevel(membership) } },
        ...(decrement
          ? [
              {
                Update: {
                  TableName: tableName(),
                  Key: namespaceKeys.namespace(source.id),
                  UpdateExpression: 'ADD ownerCount :minusOne',
                  ConditionExpression: 'attribute_exists(PK)',
                  ExpressionAttributeValues: { ':minusOne': -1 },
                },
              },
            ]
          : []),
      ]);
      return true;
    } catch (error) {
      if (!(error instanceof TransactionConditionFailed)) throw error;
      // The group item is gone (group deleted): remove the stray membership without counting.
      if (!error.failed.includes(0)) groupGone = true;
    }
  }
  throw new Error(`could not remove the membership of user ${userId} in ${source.kind} ${source.id}`);
}
