/**
 * Direct memberships of users in groups and projects. A membership item lives in its group's or
 * project's partition (the member list) and is indexed by user in GSI1 (the user's groups and
 * projects). Group owner counts are kept on the group item in the same transaction as every
 * change of an owner, so the last owner can never be removed or demoted, even concurrently.
 */
import { getMany } from '../../platform/dynamo/batch';
import { type MemberSource, membershipIndexKeys, membershipKeys } from './keys';
import type { Item } from '../../platform/dynamo/query';
import { entityFields } from '../../platform/dynamo/items';
import { tableName } from '../../platform/dynamo/client';


export interface Membership {
  sourceKind: MemberSource['kind'];
  sourceId: number;
  userId: number;
  accessLevel: number;
  /** Last day of access (`YYYY-MM-DD`), or null. */
  expiresAt: string | null;
  createdAt: string;
  createdById: number | null;
}


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

/** Whether a membership gives access today (an expiry day is the last day of access). */
export function isMembershipActive(membership: Membership, today = new Date().toISOString().slice(0, 10)): boolean {
  return membership.expiresAt === null || membership.expiresAt >= today;
}

/** Reads the memberships of `userId` in the given sources (one BatchGetItem); active ones only. */
export async function activeMemberships(userId: number, sources: MemberSource[]): Promise<Membership[]> {
  if (sources.length === 0) return [];
  const items = await getMany(sources.map((source) => membershipKeys.member(source, userId)));
  return items.map(membershipFromItem).filter((m) => isMembershipActive(m));
}

/** Put of a new membership, failing if the user already is a member. */
export const putNewMembership = (membership: Membership) => ({
  Put: {
    TableName: tableName(),
    Item: membershipToItem(membership),
    ConditionExpression: 'attribute_not_exists(PK)',
  },
});


