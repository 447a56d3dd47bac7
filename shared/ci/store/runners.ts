/**
 * Runners (project runners registered with a project's runners token) and the lookup from a
 * registration token to its project. A runner's item is keyed by the SHA-256 digest of its token,
 * which every runner call presents: authenticating a runner is one GetItem.
 */
import { DeleteCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { db, tableName } from '../../platform/dynamo/client';
import { ifConditionHolds } from '../../platform/dynamo/conditional';
import { nextId } from '../../platform/dynamo/counters';
import { entityFields } from '../../platform/dynamo/items';
import { getItem, queryAll, type Item } from '../../platform/dynamo/query';
import { CI_SEQUENCES, ciCollections, ciIndexKeys, ciKeys } from './keys';

export interface Runner {
  id: number;
  tokenDigest: string;
  projectId: number;
  description: string;
  active: boolean;
  locked: boolean;
  runUntagged: boolean;
  tags: string[];
  maximumTimeout: number | null;
  accessLevel: string;
  /** What the runner last said about itself (`info`: name, version, platform, architecture, executor). */
  info: Record<string, string>;
  ipAddress: string | null;
  contactedAt: string | null;
  createdAt: string;
}

const runnerFromItem = (item: Item): Runner => entityFields(item) as Runner;

export const newRunnerId = () => nextId(CI_SEQUENCES.runners);

export async function insertRunner(runner: Runner): Promise<void> {
  await db().send(
    new PutCommand({
      TableName: tableName(),
      Item: { ...ciKeys.runner(runner.tokenDigest), ...ciIndexKeys.projectRunner(runner.projectId, runner.id), type: 'Runner', ...runner },
      ConditionExpression: 'attribute_not_exists(PK)',
    }),
  );
}

export async function runnerByDigest(digest: string): Promise<Runner | undefined> {
  const item = await getItem(ciKeys.runner(digest));
  return item ? runnerFromItem(item) : undefined;
}

export async function projectRunners(projectId: number): Promise<Runner[]> {
  return (await queryAll(ciCollections.projectRunners(projectId))).map(runnerFromItem);
}

/** Deletes a runner; false when it was already gone. */
export async function deleteRunner(digest: string): Promise<boolean> {
  const result = await ifConditionHolds(
    db().send(new DeleteCommand({ TableName: tableName(), Key: ciKeys.runner(digest), ConditionExpression: 'attribute_exists(PK)', ReturnValues: 'ALL_OLD' })),
  );
  return result !== undefined;
}

/** Records that the runner called (at most once a minute, so idle polling does not write every time). */
export async function recordRunnerContact(runner: Runner, now: string): Promise<void> {
  if (runner.contactedAt && Date.parse(now) - Date.parse(runner.contactedAt) < 60_000) return;
  await ifConditionHolds(
    db().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: ciKeys.runner(runner.tokenDigest),
        UpdateExpression: 'SET contactedAt = :now',
        ConditionExpression: 'attribute_exists(PK)',
        ExpressionAttributeValues: { ':now': now },
      }),
    ),
  );
}

/** Which project a registration token (by digest) belongs to. */
export async function registrationTokenProject(digest: string): Promise<number | undefined> {
  const item = await getItem(ciKeys.registrationToken(digest));
  return item ? Number(item.projectId) : undefined;
}

/** Records that a registration token belongs to a project (idempotent). */
export async function putRegistrationToken(digest: string, projectId: number): Promise<void> {
  await db().send(new PutCommand({ TableName: tableName(), Item: { ...ciKeys.registrationToken(digest), type: 'RegistrationToken', projectId } }));
}
