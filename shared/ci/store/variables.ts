/**
 * CI/CD variables of a project (GitLab's `Ci::Variable`) or of a group (`Ci::GroupVariable`), their
 * owner: one item per (key, environment scope) in the owner's variables partition
 * (`CI_VARIABLES#<projectId>`, `CI_GROUP_VARIABLES#<groupId>`), listed by key then scope with one
 * Query, beside the count of them.
 *
 * The value is a secret that runners are handed: it is stored only sealed (`valueSealed`, see
 * `platform/crypto/secret-box.ts`), never in clear. This module neither seals nor opens: the
 * commands seal (`commands/variables.ts`), the queries open (`queries/variables.ts`).
 *
 * A (key, scope) is taken by the write itself (a Put conditioned on the item not existing), and the
 * owner's count moves in the same transaction, conditioned on the limit: of parallel creates of
 * one key exactly one wins, and parallel creates never pass the limit together.
 */
import { deleteMany } from '../../platform/dynamo/batch';
import { tableName } from '../../platform/dynamo/client';
import { entityFields } from '../../platform/dynamo/items';
import { getEntity, getItem, queryAll, type Item } from '../../platform/dynamo/query';
import { transactOr } from '../../platform/dynamo/transactions';
import { groupIsLive } from '../../namespaces';
import { projectIsLive } from '../../projects';
import { ciCollections, ciKeys, type VariableOwner } from './keys';

export type { VariableOwner } from './keys';

export interface CiVariable {
  /** The project or group it belongs to (stored as the item's `projectId` or `groupId`). */
  owner: VariableOwner;
  key: string;
  environmentScope: string;
  variableType: 'env_var' | 'file';
  protected: boolean;
  masked: boolean;
  /** Masked and hidden (`masked_and_hidden` on create): its value is never presented. */
  hidden: boolean;
  /** Not expanded by the runner. */
  raw: boolean;
  description: string | null;
  /** The value, sealed. */
  valueSealed: string;
  createdAt: string;
  updatedAt: string;
}

/** Why a write did not happen: the owner is gone (or being deleted), the (key, scope) is taken, the owner has its limit of variables, the variable is gone. */
export type VariableWriteFailure = 'owner_gone' | 'taken' | 'limit' | 'gone';

/** A variable from its item. */
export function variableFromItem(item: Item): CiVariable {
  const { projectId, groupId, instance, ...fields } = entityFields(item);
  const owner: VariableOwner =
    projectId !== undefined ? { kind: 'project', id: Number(projectId) } : instance ? { kind: 'instance', id: 0 } : { kind: 'group', id: Number(groupId) };
  return { ...fields, owner } as CiVariable;
}

const variableToItem = ({ owner, ...variable }: CiVariable): Item => ({
  ...ciKeys.variable(owner, variable.key, variable.environmentScope),
  type: 'CiVariable',
  ...(owner.kind === 'instance' ? { instance: true } : { [owner.kind === 'project' ? 'projectId' : 'groupId']: owner.id }),
  ...variable,
});

/** Every variable of a project or group, by key then scope (at most its limit: one Query, a few pages for long values). */
export async function variablesOf(owner: VariableOwner): Promise<CiVariable[]> {
  return (await queryAll(ciCollections.variables(owner))).map(variableFromItem);
}

/** An owner's variables of one key, one per scope. */
export async function variablesOfKey(owner: VariableOwner, key: string): Promise<CiVariable[]> {
  return (await queryAll(ciCollections.variablesOfKey(owner, key))).map(variableFromItem);
}

export function getVariable(owner: VariableOwner, key: string, environmentScope: string): Promise<CiVariable | undefined> {
  return getEntity(ciKeys.variable(owner, key, environmentScope), variableFromItem);
}

/** How many variables a project or group has. */
export async function variableCount(owner: VariableOwner): Promise<number> {
  return Number((await getItem(ciKeys.variableCount(owner)))?.variableCount ?? 0);
}

/** The change of an owner's count by `by`, conditioned (when adding) on the count staying within `limit`. */
function countChange(owner: VariableOwner, by: 1 | -1, limit?: number) {
  return {
    Update: {
      TableName: tableName(),
      Key: ciKeys.variableCount(owner),
      UpdateExpression: 'ADD variableCount :by',
      ...(limit === undefined ? {} : { ConditionExpression: 'attribute_not_exists(variableCount) OR variableCount < :limit' }),
      ExpressionAttributeValues: { ':by': by, ...(limit === undefined ? {} : { ':limit': limit }) },
    },
  };
}

/**
 * Adds a variable while its owner is live (a project not being deleted, a group not marked for
 * deletion), its (key, scope) free and the owner under `limit` variables, all in one transaction.
 *
 * @example
 * const failure = await insertVariable({ owner: { kind: 'project', id: 7 }, key: 'TOKEN', environmentScope: '*', valueSealed: await sealSecret(value), ... }, 200);
 */
export function insertVariable(variable: CiVariable, limit: number): Promise<VariableWriteFailure | undefined> {
  return transactOr(
    {
      owner: variable.owner.kind === 'project' ? projectIsLive(variable.owner.id) : variable.owner.kind === 'group' && groupIsLive(variable.owner.id),
      variable: { Put: { TableName: tableName(), Item: variableToItem(variable), ConditionExpression: 'attribute_not_exists(PK)' } },
      count: countChange(variable.owner, 1, limit),
    },
    [
      ['owner', 'owner_gone'],
      ['variable', 'taken'],
      ['count', 'limit'],
    ],
  );
}

/**
 * Replaces a variable with `next` (its key unchanged). A new scope moves it: the item at the
 * scope read is deleted and the new one put, conditioned on that (key, scope) being free. Nothing
 * is written when the variable is gone meanwhile: an edit never brings back a deleted variable.
 */
export function updateVariable(previous: CiVariable, next: CiVariable): Promise<VariableWriteFailure | undefined> {
  const moved = previous.environmentScope !== next.environmentScope;
  return transactOr(
    {
      previous: moved && { Delete: { TableName: tableName(), Key: ciKeys.variable(previous.owner, previous.key, previous.environmentScope), ConditionExpression: 'attribute_exists(PK)' } },
      variable: { Put: { TableName: tableName(), Item: variableToItem(next), ConditionExpression: moved ? 'attribute_not_exists(PK)' : 'attribute_exists(PK)' } },
    },
    [
      ['previous', 'gone'],
      ['variable', moved ? 'taken' : 'gone'],
    ],
  );
}

/** Deletes a variable and counts it out, in one transaction; `gone` when it was no longer there. */
export function deleteVariable(variable: CiVariable): Promise<VariableWriteFailure | undefined> {
  return transactOr(
    {
      variable: { Delete: { TableName: tableName(), Key: ciKeys.variable(variable.owner, variable.key, variable.environmentScope), ConditionExpression: 'attribute_exists(PK)' } },
      count: countChange(variable.owner, -1),
    },
    [['variable', 'gone']],
  );
}

/** Deletes an owner's variables and their count (the project or group is being deleted). */
export async function deleteVariables(owner: VariableOwner): Promise<void> {
  const items = await queryAll(ciCollections.variablesPartition(owner));
  await deleteMany(items.map((item) => ({ PK: item.PK as string, SK: item.SK as string })));
}
