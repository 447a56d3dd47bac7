/**
 * Pipeline trigger tokens (GitLab's `Ci::Trigger`): one item per trigger in its project's
 * partition (`CI_TRIGGERS#<projectId>`, listed by id with one Query), and one pointer per token,
 * keyed by the SHA-256 digest of the token (`CI_TRIGGER_TOKEN#<digest>`), which is how
 * `POST …/trigger/pipeline` finds a trigger without a scan. Both are written and deleted together.
 *
 * GitLab shows the token to its owner on every read, so a digest alone will not do: the trigger
 * keeps the token sealed (`tokenSealed`, `platform/crypto/secret-box.ts`) beside its digest, never
 * in clear. This module neither seals nor opens: the commands seal, the queries open.
 */
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { deleteMany } from '../../platform/dynamo/batch';
import { db, tableName } from '../../platform/dynamo/client';
import { ifConditionHolds } from '../../platform/dynamo/conditional';
import { nextId } from '../../platform/dynamo/counters';
import { entityFields } from '../../platform/dynamo/items';
import { getEntity, getItem, queryAll, type Item } from '../../platform/dynamo/query';
import { transactOr } from '../../platform/dynamo/transactions';
import { projectIsLive } from '../../projects';
import { CI_SEQUENCES, ciCollections, ciKeys } from './keys';

/** GitLab's `Ci::Trigger::TRIGGER_TOKEN_PREFIX`: every token starts with it. */
export const TRIGGER_TOKEN_PREFIX = 'glptt-';

export interface Trigger {
  id: number;
  projectId: number;
  /** The user pipelines run as (GitLab's `owner`): whoever created the token. */
  ownerId: number;
  description: string;
  /** The token, sealed. */
  tokenSealed: string;
  /** The SHA-256 digest of the token: the key of its pointer. */
  tokenDigest: string;
  createdAt: string;
  updatedAt: string;
  /** When a pipeline was last created with it. */
  lastUsed: string | null;
  expiresAt: string | null;
}

/** Why a write did not happen: the project is gone (or being deleted), the trigger is gone. */
export type TriggerWriteFailure = 'project_gone' | 'gone';

export const triggerFromItem = (item: Item): Trigger => entityFields(item) as Trigger;

const triggerToItem = (trigger: Trigger): Item => ({ ...ciKeys.trigger(trigger.projectId, trigger.id), type: 'CiTrigger', ...trigger });

export const newTriggerId = () => nextId(CI_SEQUENCES.triggers);

/** Adds a trigger and its token's pointer while the project is live, in one transaction. */
export function insertTrigger(trigger: Trigger): Promise<TriggerWriteFailure | undefined> {
  return transactOr(
    {
      project: projectIsLive(trigger.projectId),
      trigger: { Put: { TableName: tableName(), Item: triggerToItem(trigger), ConditionExpression: 'attribute_not_exists(PK)' } },
      token: {
        Put: {
          TableName: tableName(),
          Item: { ...ciKeys.triggerToken(trigger.tokenDigest), type: 'CiTriggerToken', projectId: trigger.projectId, triggerId: trigger.id },
          ConditionExpression: 'attribute_not_exists(PK)',
        },
      },
    },
    [['project', 'project_gone']],
  );
}

export function getTrigger(projectId: number, triggerId: number): Promise<Trigger | undefined> {
  return getEntity(ciKeys.trigger(projectId, triggerId), triggerFromItem);
}

/** The trigger whose token has this digest: its pointer, then the trigger (two GetItems, never a scan). */
export async function triggerByDigest(digest: string): Promise<Trigger | undefined> {
  const pointer = await getItem(ciKeys.triggerToken(digest));
  return pointer ? getTrigger(Number(pointer.projectId), Number(pointer.triggerId)) : undefined;
}

/** Changes a trigger's description; nothing is written when it is gone meanwhile. */
export async function updateTrigger(trigger: Trigger, changes: Pick<Trigger, 'description' | 'updatedAt'>): Promise<Trigger | undefined> {
  const written = await ifConditionHolds(
    db().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: ciKeys.trigger(trigger.projectId, trigger.id),
        UpdateExpression: 'SET description = :description, updatedAt = :updatedAt',
        ConditionExpression: 'attribute_exists(PK)',
        ExpressionAttributeValues: { ':description': changes.description, ':updatedAt': changes.updatedAt },
        ReturnValues: 'ALL_NEW',
      }),
    ),
  );
  return written?.Attributes ? triggerFromItem(written.Attributes) : undefined;
}

/** Stamps when a pipeline was last created with the trigger (not when it is gone meanwhile). */
export async function recordTriggerUse(trigger: Pick<Trigger, 'projectId' | 'id'>, at: string): Promise<void> {
  await ifConditionHolds(
    db().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: ciKeys.trigger(trigger.projectId, trigger.id),
        UpdateExpression: 'SET lastUsed = :at',
        ConditionExpression: 'attribute_exists(PK)',
        ExpressionAttributeValues: { ':at': at },
      }),
    ),
  );
}

/** Deletes a trigger and its token's pointer together (the token stops working with it); `gone` when it was no longer there. */
export function deleteTrigger(trigger: Trigger): Promise<TriggerWriteFailure | undefined> {
  return transactOr(
    {
      trigger: { Delete: { TableName: tableName(), Key: ciKeys.trigger(trigger.projectId, trigger.id), ConditionExpression: 'attribute_exists(PK)' } },
      token: { Delete: { TableName: tableName(), Key: ciKeys.triggerToken(trigger.tokenDigest) } },
    },
    [['trigger', 'gone']],
  );
}

/** Deletes a project's triggers and their pointers (the project is being deleted). */
export async function deleteTriggers(projectId: number): Promise<void> {
  const triggers = (await queryAll(ciCollections.triggers(projectId))).map(triggerFromItem);
  await deleteMany(triggers.flatMap((trigger) => [ciKeys.trigger(projectId, trigger.id), ciKeys.triggerToken(trigger.tokenDigest)]));
}
