/**
 * A project's CI/CD variables (GitLab's `Ci::Variable`): one item per (key, environment scope) in
 * the project's variables partition (`CI_VARIABLES#<projectId>`), listed by key then scope with
 * one Query, beside the count of them.
 *
 * The value is a secret that runners are handed: it is stored only sealed (`valueSealed`, see
 * `platform/crypto/secret-box.ts`), never in clear. This module neither seals nor opens: the
 * commands seal (`commands/variables.ts`), the queries open (`queries/variables.ts`).
 *
 * A (key, scope) is taken by the write itself (a Put conditioned on the item not existing), and the
 * project's count moves in the same transaction, conditioned on the limit: of parallel creates of
 * one key exactly one wins, and parallel creates never pass the limit together.
 */
import { deleteMany } from '../../platform/dynamo/batch';
import { tableName } from '../../platform/dynamo/client';
import { entityFields } from '../../platform/dynamo/items';
import { getEntity, getItem, queryAll, type Item } from '../../platform/dynamo/query';
import { transactOr } from '../../platform/dynamo/transactions';
import { projectIsLive } from '../../projects';
import { ciCollections, ciKeys } from './keys';

export interface CiVariable {
  projectId: number;
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

/** Why a write did not happen: the project is gone (or being deleted), the (key, scope) is taken, the project has its limit of variables, the variable is gone. */
export type VariableWriteFailure = 'project_gone' | 'taken' | 'limit' | 'gone';

/** A variable from its item. */
export const variableFromItem = (item: Item): CiVariable => entityFields(item) as CiVariable;

const variableToItem = (variable: CiVariable): Item => ({ ...ciKeys.variable(variable.projectId, variable.key, variable.environmentScope), type: 'CiVariable', ...variable });

/** Every variable of a project, by key then scope (at most its limit: one Query, a few pages for long values). */
export async function projectVariables(projectId: number): Promise<CiVariable[]> {
  return (await queryAll(ciCollections.projectVariables(projectId))).map(variableFromItem);
}

/** A project's variables of one key, one per scope. */
export async function variablesOfKey(projectId: number, key: string): Promise<CiVariable[]> {
  return (await queryAll(ciCollections.variablesOfKey(projectId, key))).map(variableFromItem);
}

export function getVariable(projectId: number, key: string, environmentScope: string): Promise<CiVariable | undefined> {
  return getEntity(ciKeys.variable(projectId, key, environmentScope), variableFromItem);
}

/** How many variables a project has. */
export async function variableCount(projectId: number): Promise<number> {
  return Number((await getItem(ciKeys.variableCount(projectId)))?.variableCount ?? 0);
}

/** The change of a project's count by `by`, conditioned (when adding) on the count staying within `limit`. */
function countChange(projectId: number, by: 1 | -1, limit?: number) {
  return {
    Update: {
      TableName: tableName(),
      Key: ciKeys.variableCount(projectId),
      UpdateExpression: 'ADD variableCount :by',
      ...(limit === undefined ? {} : { ConditionExpression: 'attribute_not_exists(variableCount) OR variableCount < :limit' }),
      ExpressionAttributeValues: { ':by': by, ...(limit === undefined ? {} : { ':limit': limit }) },
    },
  };
}

/**
 * Adds a variable while the project is live, its (key, scope) free and the project under `limit`
 * variables, all in one transaction.
 *
 * @example
 * const failure = await insertVariable({ projectId: 7, key: 'TOKEN', environmentScope: '*', valueSealed: await sealSecret(value), ... }, 200);
 */
export function insertVariable(variable: CiVariable, limit: number): Promise<VariableWriteFailure | undefined> {
  return transactOr(
    {
      project: projectIsLive(variable.projectId),
      variable: { Put: { TableName: tableName(), Item: variableToItem(variable), ConditionExpression: 'attribute_not_exists(PK)' } },
      count: countChange(variable.projectId, 1, limit),
    },
    [
      ['project', 'project_gone'],
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
      previous: moved && { Delete: { TableName: tableName(), Key: ciKeys.variable(previous.projectId, previous.key, previous.environmentScope), ConditionExpression: 'attribute_exists(PK)' } },
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
      variable: { Delete: { TableName: tableName(), Key: ciKeys.variable(variable.projectId, variable.key, variable.environmentScope), ConditionExpression: 'attribute_exists(PK)' } },
      count: countChange(variable.projectId, -1),
    },
    [['variable', 'gone']],
  );
}

/** Deletes a project's variables and their count (the project is being deleted). */
export async function deleteProjectVariables(projectId: number): Promise<void> {
  const items = await queryAll(ciCollections.variablesPartition(projectId));
  await deleteMany(items.map((item) => ({ PK: item.PK as string, SK: item.SK as string })));
}
