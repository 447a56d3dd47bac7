/**
 * Badges: items in their source's partition (`PROJECT#<id>` or `NAMESPACE#<groupId>` /
 * `BADGE#<id>`), deleted with the rest of that partition when the project or group is deleted.
 * Ids come from the global sequence `badges`, so one id names one badge, a project's or a
 * group's, and id order is creation order (GitLab lists badges by `created_at`).
 */
import { DeleteCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { groupIsLive } from '../../namespaces';
import { projectIsLive } from '../../projects';
import { db, tableName } from '../../platform/dynamo/client';
import { ifConditionHolds } from '../../platform/dynamo/conditional';
import { nextId } from '../../platform/dynamo/counters';
import { entityFields } from '../../platform/dynamo/items';
import { getEntity, isId, type Item } from '../../platform/dynamo/query';
import { transactOr } from '../../platform/dynamo/transactions';
import { badgeKeys, type BadgeSource } from './keys';

export interface BadgeFields {
  name: string | null;
  linkUrl: string;
  imageUrl: string;
}

export interface Badge extends BadgeFields {
  id: number;
  /** `project` or `group`: whose badge it is (GitLab's `kind`). */
  kind: BadgeSource['kind'];
  /** The project's or the group's id. */
  sourceId: number;
  createdAt: string;
}

export const sourceOf = (badge: Badge): BadgeSource => ({ kind: badge.kind, id: badge.sourceId });

export const badgeFromItem = (item: Item): Badge => entityFields(item) as Badge;

/** A badge of the source, or `undefined` (another source's badge is not this one's). */
export async function getBadge(source: BadgeSource, badgeId: number): Promise<Badge | undefined> {
  if (!isId(badgeId)) return undefined;
  return getEntity(badgeKeys.badge(source, badgeId), badgeFromItem);
}

/** Adds a badge, atomically with a check that its project or group is live (not gone, not being deleted). */
export async function insertBadge(source: BadgeSource, fields: BadgeFields): Promise<Badge | 'source_gone'> {
  const badge: Badge = { id: await nextId('badges'), kind: source.kind, sourceId: source.id, ...fields, createdAt: new Date().toISOString() };
  const failure = await transactOr(
    {
      source: source.kind === 'project' ? projectIsLive(source.id) : groupIsLive(source.id),
      badge: { Put: { TableName: tableName(), Item: { ...badgeKeys.badge(source, badge.id), type: 'Badge', ...badge }, ConditionExpression: 'attribute_not_exists(PK)' } },
    },
    [['source', 'source_gone' as const]],
  );
  return failure ?? badge;
}

/**
 * Sets the given fields of a badge (the others stay as they are, whoever changed them meanwhile);
 * `undefined` when the badge is gone: an edit never brings back a deleted badge.
 */
export async function updateBadge(badge: Badge, changes: Partial<BadgeFields>): Promise<Badge | undefined> {
  const names = Object.keys(changes) as Array<keyof BadgeFields>;
  if (names.length === 0) return getBadge(sourceOf(badge), badge.id);
  const result = await ifConditionHolds(
    db().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: badgeKeys.badge(sourceOf(badge), badge.id),
        UpdateExpression: `SET ${names.map((name) => `#${name} = :${name}`).join(', ')}`,
        ConditionExpression: 'attribute_exists(PK)',
        ExpressionAttributeNames: Object.fromEntries(names.map((name) => [`#${name}`, name])),
        ExpressionAttributeValues: Object.fromEntries(names.map((name) => [`:${name}`, changes[name]])),
        ReturnValues: 'ALL_NEW',
      }),
    ),
  );
  return result?.Attributes ? badgeFromItem(result.Attributes) : undefined;
}

/** Deletes a badge; whether there was one. One request. */
export async function deleteBadge(badge: Badge): Promise<boolean> {
  const deleted = await ifConditionHolds(
    db().send(new DeleteCommand({ TableName: tableName(), Key: badgeKeys.badge(sourceOf(badge), badge.id), ConditionExpression: 'attribute_exists(PK)' })),
  );
  return deleted !== undefined;
}
