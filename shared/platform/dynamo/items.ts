/**
 * Table-wide item helpers every feature's store uses: the entity fields of an item, uniqueness
 * claims, the liveness check that guards writes under a parent that may be being deleted, and the
 * `SET` of some attributes as an UpdateItem's expression.
 */
import type { Key } from './keys';
import type { Item } from './query';
import { tableName } from './client';


/** The table's key and index attributes (`PK`, `SK`, `GSI<n>PK`, `GSI<n>SK`) and bookkeeping. */
const BOOKKEEPING = new Set(['PK', 'SK', 'type', 'ownedKeys']);
const INDEX_KEY = /^GSI\d+(PK|SK)$/;

/** Strips the table's bookkeeping attributes from an item (every item read goes through it: a plain loop). */
export function entityFields(item: Item): Item {
  const fields: Item = {};
  for (const name of Object.keys(item)) {
    if (!BOOKKEEPING.has(name) && !(name.startsWith('GSI') && INDEX_KEY.test(name))) fields[name] = item[name];
  }
  return fields;
}

/** A claim item reserving `key` (a unique value) for its owner; fails the transaction if anyone holds it. */
export const putClaim = (key: Key, attributes: Item) => ({
  Put: {
    TableName: tableName(),
    Item: { ...key, type: 'Claim', ...attributes },
    ConditionExpression: 'attribute_not_exists(PK)',
  },
});

/** Releases a claim, but only if this user holds it. */
export const deleteClaim = (key: Key, userId: number) => ({
  Delete: {
    TableName: tableName(),
    Key: key,
    ConditionExpression: 'userId = :userId',
    ExpressionAttributeValues: { ':userId': userId },
  },
});

/** A condition that the item at `key` exists and is not being deleted (guards writes of what belongs to it). */
export const isLive = (key: Key) => ({
  ConditionCheck: {
    TableName: tableName(),
    Key: key,
    ConditionExpression: 'attribute_exists(PK) AND attribute_not_exists(deleting)',
  },
});

/**
 * An UpdateItem's `SET` of each of `attributes` to its value (values as `:v<i>`; names as they are,
 * so not DynamoDB reserved words: index keys and the like). A caller's condition spreads its own
 * values after these.
 * @example new UpdateCommand({ TableName, Key, ...setAttributes({ GSI2PK: pk, GSI2SK: sk }), ConditionExpression: 'attribute_exists(PK)' })
 */
export function setAttributes(attributes: Record<string, unknown>): { UpdateExpression: string; ExpressionAttributeValues: Record<string, unknown> } {
  const names = Object.keys(attributes);
  return {
    UpdateExpression: `SET ${names.map((name, i) => `${name} = :v${i}`).join(', ')}`,
    ExpressionAttributeValues: Object.fromEntries(names.map((name, i) => [`:v${i}`, attributes[name]])),
  };
}
