/**
 * Direct memberships of users in groups and projects. A membership item lives in its group's or
 * project's partition (the member list) and is indexed by user in GSI1 (the user's groups and
 * projects). Group owner counts are kept on the group item in the same transaction as every
 * change of an owner, so the last owner can never be removed or demoted, even concurrently: the
 * members feature's store assembles those transactions from the operations built here and the
 * groups feature's owner-count operations.
 */
import { getMany } from '../../platform/dynamo/batch';
import { tableName } from '../../platform/dynamo/client';
import { entityFields } from '../../platform/dynamo/items';
import { queryAll, queryCollection, type Item } from '../../platform/dynamo/query';
import { type MemberSource, membershipCollections, membershipIndexKeys, membershipKeys } from './keys';

export interface Membership {
  sourceKind: MemberSource['kind'];
  sourceId: number;
  userId: number;
  accessLevel: number;
  /** First day without access (`YYYY-MM-DD`, from 00:00 UTC), or null. */
  expiresAt: string | null;
  createdAt: string;
  createdById: number | null;
}

/** The group or project a membership belongs to. */
export const sourceOf = (membership: Membership): MemberSource => ({ kind: membership.sourceKind, id: membership.sourceId });

export function membershipToItem(membership: Membership): Item {
  const source = sourceOf(membership);
  return {
    ...membershipKeys.member(source, membership.userId),
    ...membershipIndexKeys.userMembership(membership.userId, source),
    type: 'Member',
    ...membership,
  };
}

export const membershipFromItem = (item: Item): Membership => entityFields(item) as Membership;

/**
 * Whether a membership gives access today (UTC). GitLab's `Member` is `Expirable` (`expired?` is
 * `expires_at <= Time.current`, and `RemoveExpiredMembersWorker` removes `Member.expired` at the
 * start of the day): the expiry day is the first day without access.
 */
export function isMembershipActive(membership: Membership, today = new Date().toISOString().slice(0, 10)): boolean {
  return membership.expiresAt === null || membership.expiresAt > today;
}

// ---------------------------------------------------------------------------------------------
// Reads
// ---------------------------------------------------------------------------------------------

/** Reads the memberships of `userId` in the given sources (one BatchGetItem); active ones only. */
export async function activeMemberships(userId: number, sources: MemberSource[]): Promise<Membership[]> {
  if (sources.length === 0) return [];
  const items = await getMany(sources.map((source) => membershipKeys.member(source, userId)));
  return items.map(membershipFromItem).filter((m) => isMembershipActive(m));
}

/** One membership, read consistently (expired or not); undefined when the user is no direct member. */
export async function getMembership(source: MemberSource, userId: number): Promise<Membership | undefined> {
  const [item] = await getMany([membershipKeys.member(source, userId)]);
  return item ? membershipFromItem(item) : undefined;
}

/**
 * Every direct membership of a group or project, by user id ascending: one partition range, read
 * whole (a member list is bounded: thousands at most).
 */
export async function membershipsOf(source: MemberSource): Promise<Membership[]> {
  return (await queryAll(membershipCollections.members(source))).map(membershipFromItem);
}

/**
 * A user's memberships, expired ones included, from GSI1 (eventually consistent): groups then
 * projects, by id; only those of one kind of source when `kind` is given. Read a Query page at a
 * time, as the consumer pulls.
 */
export async function* userMemberships(userId: number, kind?: MemberSource['kind']): AsyncGenerator<Membership> {
  for await (const item of queryCollection(membershipCollections.userMemberships(userId, kind))) yield membershipFromItem(item);
}

// ---------------------------------------------------------------------------------------------
// Transaction operations (the members feature's store writes them together with the guards of
// the group or project and of the user)
// ---------------------------------------------------------------------------------------------

/** Put of a new membership, failing if the user already is a member. */
export const putNewMembership = (membership: Membership) => ({
  Put: {
    TableName: tableName(),
    Item: membershipToItem(membership),
    ConditionExpression: 'attribute_not_exists(PK)',
  },
});

/** The condition that makes an edit or removal fail if someone changed the membership's level first. Internal. */
const unchangedLevel = (membership: Membership) => ({
  ConditionExpression: 'attribute_exists(PK) AND accessLevel = :level',
  ExpressionAttributeValues: { ':level': membership.accessLevel },
});

/** Update of a membership's level and expiry, conditioned on the level it had when read (`previous`). */
export function updateMembership(previous: Membership, next: Pick<Membership, 'accessLevel' | 'expiresAt'>) {
  const guard = unchangedLevel(previous);
  return {
    Update: {
      TableName: tableName(),
      Key: membershipKeys.member(sourceOf(previous), previous.userId),
      UpdateExpression: 'SET accessLevel = :accessLevel, expiresAt = :expiresAt',
      ConditionExpression: guard.ConditionExpression,
      ExpressionAttributeValues: { ...guard.ExpressionAttributeValues, ':accessLevel': next.accessLevel, ':expiresAt': next.expiresAt },
    },
  };
}

/** Delete of a membership, conditioned on the level it had when read. */
export const deleteMembership = (previous: Membership) => ({
  Delete: { TableName: tableName(), Key: membershipKeys.member(sourceOf(previous), previous.userId), ...unchangedLevel(previous) },
});
