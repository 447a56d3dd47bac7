/**
 * Each ref's latest successful pipeline (GitLab's `Ci::Ref` with `latest_successful_for_ref`): one
 * small item per ref that ever had a successful pipeline, moved forward by the pipeline that
 * succeeds (a conditional write: the newest id wins whatever the order of the writes), moved back
 * to an older one when the latest leaves success (retried) or is deleted. Artifacts by ref are
 * read from it, and the artifacts of the pipeline it names are the ones kept
 * (`keep_latest_artifact`).
 */
import { DeleteCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { deleteMany } from '../../platform/dynamo/batch';
import { db, tableName } from '../../platform/dynamo/client';
import { ifConditionHolds } from '../../platform/dynamo/conditional';
import { isStorableKey } from '../../platform/dynamo/keys';
import { getItem, queryAll } from '../../platform/dynamo/query';
import { ciCollections, ciKeys } from './keys';

/** The id of the ref's latest successful pipeline, if it has one. */
export async function latestSuccessfulPipelineId(projectId: number, ref: string): Promise<number | undefined> {
  const key = ciKeys.ref(projectId, ref);
  if (!isStorableKey(key)) return undefined;
  const item = await getItem(key);
  return item ? Number(item.pipelineId) : undefined;
}

/**
 * Makes `pipelineId` the ref's latest successful pipeline unless a newer one is (`replacing`:
 * only while the ref's is still that one, as when falling back to an older pipeline; null: only
 * while the ref has none). Answers the pipeline it replaced (undefined: none), or false when
 * nothing changed.
 */
export async function setLatestSuccessfulPipeline(
  projectId: number,
  ref: string,
  pipelineId: number,
  replacing?: number | null,
): Promise<number | undefined | false> {
  const key = ciKeys.ref(projectId, ref);
  if (!isStorableKey(key)) return false;
  const condition =
    replacing === undefined ? 'attribute_not_exists(pipelineId) OR pipelineId < :id' : replacing === null ? 'attribute_not_exists(pipelineId)' : 'pipelineId = :replacing';
  const result = await ifConditionHolds(
    db().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: key,
        UpdateExpression: 'SET pipelineId = :id, projectId = :projectId, #ref = :ref, updatedAt = :now',
        ConditionExpression: condition,
        ExpressionAttributeNames: { '#ref': 'ref' },
        ExpressionAttributeValues: {
          ':id': pipelineId,
          ':projectId': projectId,
          ':ref': ref,
          ':now': new Date().toISOString(),
          ...(typeof replacing === 'number' ? { ':replacing': replacing } : {}),
        },
        ReturnValues: 'ALL_OLD',
      }),
    ),
  );
  if (!result) return false;
  return result.Attributes?.pipelineId === undefined ? undefined : Number(result.Attributes.pipelineId);
}

/** Forgets the ref's latest successful pipeline while it is still `pipelineId` (no older one succeeded). */
export async function clearLatestSuccessfulPipeline(projectId: number, ref: string, pipelineId: number): Promise<boolean> {
  const key = ciKeys.ref(projectId, ref);
  if (!isStorableKey(key)) return false;
  const result = await ifConditionHolds(
    db().send(new DeleteCommand({ TableName: tableName(), Key: key, ConditionExpression: 'pipelineId = :id', ExpressionAttributeValues: { ':id': pipelineId } })),
  );
  return result !== undefined;
}

/** The ids of the project's refs' latest successful pipelines (one per ref: a project has few refs). */
export async function latestSuccessfulPipelineIds(projectId: number): Promise<Set<number>> {
  return new Set((await queryAll(ciCollections.refs(projectId))).map((item) => Number(item.pipelineId)));
}

/** Deletes the project's refs (the project is deleted). */
export async function deleteRefs(projectId: number): Promise<void> {
  await deleteMany((await queryAll(ciCollections.refs(projectId))).map((item) => ({ PK: String(item.PK), SK: String(item.SK) })));
}
