/**
 * Pipeline schedules (GitLab's `Ci::PipelineSchedule` and `Ci::PipelineScheduleVariable`): one item
 * per schedule in its project's partition (`CI_SCHEDULES#<projectId>`, listed by id with one
 * Query), its variables inside it (a schedule holds few, and the pipeline it creates needs them
 * all at once), and one small item per pipeline it created in the schedule's own partition
 * (`CI_SCHEDULE#<scheduleId>`), so its pipelines and its last one are read without a scan.
 *
 * An active schedule carries its next run in GSI3 (`CI_SCHEDULES_DUE#<shard>`, sorted by time):
 * the scheduler reads what is due from there, as it reads jobs' deadlines. Every write moves the
 * item's `version`; the API's writes put the whole item conditioned on the version read, and the
 * scheduler moves a due run on conditioned on the index entry it found (and moves the version
 * too), so of two scheduler runs only one takes a tick, and an edit racing a tick is read again.
 *
 * Variable values are secrets: stored only sealed (`valueSealed`), as project CI/CD variables
 * are; this module neither seals nor opens.
 */
import { DeleteCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { deleteMany } from '../../platform/dynamo/batch';
import { db, tableName } from '../../platform/dynamo/client';
import { ifConditionHolds } from '../../platform/dynamo/conditional';
import { nextId } from '../../platform/dynamo/counters';
import { entityFields } from '../../platform/dynamo/items';
import { getEntity, queryAll, queryCollection, type Item } from '../../platform/dynamo/query';
import { transactOr } from '../../platform/dynamo/transactions';
import { projectIsLive } from '../../projects';
import { CI_SEQUENCES, ciCollections, ciIndexKeys, ciKeys } from './keys';
import { dueItems } from './due';

/** A variable of a schedule, its value sealed. */
export interface StoredScheduleVariable {
  key: string;
  variableType: 'env_var' | 'file';
  valueSealed: string;
}

/** A schedule's input (GitLab's `Ci::PipelineScheduleInput`): a name and a value of any JSON type. */
export interface ScheduleInput {
  name: string;
  value: unknown;
}

export interface Schedule {
  id: number;
  projectId: number;
  /** Who the scheduled pipelines run as (GitLab's `owner`); null once that user is deleted. */
  ownerId: number | null;
  description: string;
  /** A full ref (`refs/heads/<branch>`, `refs/tags/<tag>`), as GitLab stores it. */
  ref: string;
  cron: string;
  cronTimezone: string;
  /** The cron's next time (null when it never runs again). */
  nextRunAt: string | null;
  active: boolean;
  variables: StoredScheduleVariable[];
  /** Values for the configuration file's `spec:inputs`, in the order given (absent on schedules saved before inputs). */
  inputs?: ScheduleInput[];
  createdAt: string;
  updatedAt: string;
  version: number;
}

/** A due schedule found in the index, and its entry (what moving it on is conditioned on). */
export interface DueSchedule {
  schedule: Schedule;
  entry: string;
}

export type ScheduleWriteFailure = 'project_gone';

export const scheduleFromItem = (item: Item): Schedule => entityFields(item) as Schedule;

function scheduleToItem(schedule: Schedule): Item {
  const due = schedule.active && schedule.nextRunAt ? ciIndexKeys.scheduleNextRun(schedule.id, schedule.nextRunAt) : {};
  return { ...ciKeys.schedule(schedule.projectId, schedule.id), type: 'CiPipelineSchedule', ...due, ...schedule };
}

export const newScheduleId = () => nextId(CI_SEQUENCES.schedules);

/** Adds a schedule while its project is live. */
export function insertSchedule(schedule: Schedule): Promise<ScheduleWriteFailure | undefined> {
  return transactOr(
    {
      project: projectIsLive(schedule.projectId),
      schedule: { Put: { TableName: tableName(), Item: scheduleToItem(schedule), ConditionExpression: 'attribute_not_exists(PK)' } },
    },
    [['project', 'project_gone']],
  );
}

export function getSchedule(projectId: number, scheduleId: number): Promise<Schedule | undefined> {
  return getEntity(ciKeys.schedule(projectId, scheduleId), scheduleFromItem);
}

/**
 * Writes a schedule whole (its index entry follows `active` and `nextRunAt`), if it is still at
 * `version` (the one read); false when it changed or went meanwhile. `schedule.version` is the new one.
 */
export async function putSchedule(schedule: Schedule, version: number): Promise<boolean> {
  const written = await ifConditionHolds(
    db().send(
      new PutCommand({
        TableName: tableName(),
        Item: scheduleToItem(schedule),
        ConditionExpression: '#version = :version',
        ExpressionAttributeNames: { '#version': 'version' },
        ExpressionAttributeValues: { ':version': version },
      }),
    ),
  );
  return written !== undefined;
}

/** Deletes a schedule (if still there: false otherwise), then the entries of its pipelines (the pipelines stay). */
export async function deleteSchedule(schedule: Pick<Schedule, 'projectId' | 'id'>): Promise<boolean> {
  const deleted = await ifConditionHolds(
    db().send(new DeleteCommand({ TableName: tableName(), Key: ciKeys.schedule(schedule.projectId, schedule.id), ConditionExpression: 'attribute_exists(PK)' })),
  );
  if (deleted === undefined) return false;
  await deleteMany((await queryAll(ciCollections.schedulePipelines(schedule.id))).map((item) => ciKeys.schedulePipeline(schedule.id, Number(item.pipelineId))));
  return true;
}

/** Up to `limit` active schedules of a shard whose next run is `now` or earlier, earliest first (GSI3: eventually consistent). */
export async function dueSchedules(shard: number, now: string, limit: number): Promise<DueSchedule[]> {
  return (await dueItems(ciCollections.dueSchedules(shard, now), limit)).map(({ item, entry }) => ({ schedule: scheduleFromItem(item), entry }));
}

/**
 * Takes a due run of a schedule: moves its next run to `next` (out of the index when null, or
 * when `deactivate`: then `active` becomes false too), conditioned on the index entry found. Of
 * concurrent takers exactly one gets true; the others, and a schedule edited meanwhile, false.
 */
export async function takeScheduledRun(schedule: Pick<Schedule, 'projectId' | 'id'>, entry: string, next: string | null, deactivate = false): Promise<boolean> {
  const due = next && !deactivate ? ciIndexKeys.scheduleNextRun(schedule.id, next) : undefined;
  const sets = ['nextRunAt = :next', '#version = #version + :one', ...(due ? ['GSI3PK = :pk', 'GSI3SK = :sk'] : []), ...(deactivate ? ['active = :false'] : [])];
  const written = await ifConditionHolds(
    db().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: ciKeys.schedule(schedule.projectId, schedule.id),
        UpdateExpression: `SET ${sets.join(', ')}${due ? '' : ' REMOVE GSI3PK, GSI3SK'}`,
        ConditionExpression: 'GSI3SK = :entry',
        ExpressionAttributeNames: { '#version': 'version' },
        ExpressionAttributeValues: {
          ':entry': entry,
          ':next': next,
          ':one': 1,
          ...(due ? { ':pk': due.GSI3PK, ':sk': due.GSI3SK } : {}),
          ...(deactivate ? { ':false': false } : {}),
        },
      }),
    ),
  );
  return written !== undefined;
}

/** Records that the schedule created this pipeline. */
export async function recordSchedulePipeline(scheduleId: number, pipelineId: number, projectId: number): Promise<void> {
  await db().send(new PutCommand({ TableName: tableName(), Item: { ...ciKeys.schedulePipeline(scheduleId, pipelineId), type: 'CiSchedulePipeline', scheduleId, pipelineId, projectId } }));
}

/** The id of the newest pipeline the schedule created (GitLab's `last_pipeline`), if any. */
export async function lastSchedulePipelineId(scheduleId: number): Promise<number | undefined> {
  for await (const item of queryCollection(ciCollections.schedulePipelines(scheduleId), { ascending: false, pageSize: 1 })) return Number(item.pipelineId);
  return undefined;
}

/** Deletes a project's schedules and their pipeline entries (the project is being deleted). */
export async function deleteSchedules(projectId: number): Promise<void> {
  const schedules = (await queryAll(ciCollections.schedules(projectId))).map(scheduleFromItem);
  for (const schedule of schedules) {
    const entries = await queryAll(ciCollections.schedulePipelines(schedule.id));
    await deleteMany([...entries.map((item) => ciKeys.schedulePipeline(schedule.id, Number(item.pipelineId))), ciKeys.schedule(projectId, schedule.id)]);
  }
}
