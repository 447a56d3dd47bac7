/**
 * Background jobs: work a request hands off because it may outlast API Gateway's 29 s (deleting a
 * project, a group tree or a user), and a deploy's data migrations that outlast the bootstrap's
 * invocation. A job is one item, `JOB#<kind>#<target id>`, written by the request; the table's
 * stream, filtered to queued jobs ({@link JOB_STREAM_FILTER}), invokes the worker
 * (`functions/jobs/handler.ts`), which claims the job, runs it and deletes it (or, when its run
 * stopped part way, queues it again at once: {@link continueJob}).
 *
 * It always finishes: every job carries a lease (`leaseUntil`, indexed in GSI1 `JOBS_BY_LEASE`
 * by time). A running job whose worker died (timeout, crash) or failed, or a queued job whose
 * stream record was never delivered, outlives its lease; the worker's scheduled sweep puts it
 * back in the queue (a new `round`, hence a new stream record) and a worker runs it again. The
 * work itself must therefore be resumable: run again, it finishes what a previous run began
 * (deletions are: they mark first and remove what is still there).
 *
 * Rounds make the stream idempotent: a worker claims a job only in the round its record names and
 * only while queued, so a record delivered twice, or late, runs nothing twice.
 */
import { DeleteCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { db, tableName } from './dynamo/client';
import { ifConditionHolds } from './dynamo/conditional';
import { indexCollection, type Key } from './dynamo/keys';
import { queryCollection, type Item } from './dynamo/query';

/** The item type of a job (what the stream filter selects). */
export const JOB_TYPE = 'BackgroundJob';

/** How long a queued job waits for its stream record before the sweep queues it again. */
export const QUEUED_LEASE_MS = 2 * 60_000;
/** How long a claimed job may run: the worker's 15-minute limit and a margin. */
export const RUNNING_LEASE_MS = 16 * 60_000;
/** The longest wait before a failing job is tried again (it doubles from a minute). */
const MAX_BACKOFF_MS = 60 * 60_000;

export interface Job {
  /** What to do (`project`, `group`, `user`: the deletion of one). */
  kind: string;
  /** The id of what it is done to. */
  targetId: number;
  /** What the request asked for besides (e.g. `hard_delete`). */
  options: Record<string, unknown>;
  phase: 'queued' | 'running';
  /** Incremented each time the job is queued again. */
  round: number;
  /** Runs started so far. */
  attempts: number;
  createdAt: string;
  /** When the sweep takes the job back (queued: its record was lost; running: its worker is gone). */
  leaseUntil: string;
  /** Where the work stopped so far (its own cursor, {@link saveJobProgress}): the next run resumes there. */
  progress?: string;
}

/** The keys of jobs: the item, and the sweep's index partition. */
export const jobKeys = {
  job: (kind: string, targetId: number): Key => ({ PK: `JOB#${kind}#${targetId}`, SK: 'JOB' }),
  byLease: (leaseUntil: string, kind: string, targetId: number) => ({ GSI1PK: 'JOBS_BY_LEASE', GSI1SK: `${leaseUntil}#${kind}#${targetId}` }),
} as const;

/**
 * The stream records that start a worker: a job inserted or queued again (a running job's own
 * updates and its deletion select nothing). The same pattern serves the deployed event source
 * mapping and the local stream poller.
 */
export const JOB_STREAM_FILTER = {
  eventName: ['INSERT', 'MODIFY'],
  dynamodb: { NewImage: { type: { S: [JOB_TYPE] }, phase: { S: ['queued'] } } },
} as const;

const at = (now: number, ms: number) => new Date(now + ms).toISOString();

function jobFromItem(item: Item): Job {
  return {
    kind: String(item.kind),
    targetId: Number(item.targetId),
    options: (item.options as Record<string, unknown> | undefined) ?? {},
    phase: item.phase === 'running' ? 'running' : 'queued',
    round: Number(item.round ?? 0),
    attempts: Number(item.attempts ?? 0),
    createdAt: String(item.createdAt),
    leaseUntil: String(item.leaseUntil),
    ...(typeof item.progress === 'string' ? { progress: item.progress } : {}),
  };
}

/** A job from a stream record's (unmarshalled) new image. */
export const jobFromImage = jobFromItem;

/**
 * Queues a job, unless one of the same kind and target is already pending (then that one does
 * the work: `already_queued`).
 */
export async function enqueueJob(kind: string, targetId: number, options: Record<string, unknown> = {}, now = Date.now()): Promise<'queued' | 'already_queued'> {
  const leaseUntil = at(now, QUEUED_LEASE_MS);
  const put = db().send(
    new PutCommand({
      TableName: tableName(),
      Item: {
        ...jobKeys.job(kind, targetId),
        ...jobKeys.byLease(leaseUntil, kind, targetId),
        type: JOB_TYPE,
        kind,
        targetId,
        // Only when there are any: an empty map does not survive every stream reader's decoding.
        ...(Object.keys(options).length > 0 ? { options } : {}),
        phase: 'queued',
        round: 0,
        attempts: 0,
        createdAt: new Date(now).toISOString(),
        leaseUntil,
      },
      ConditionExpression: 'attribute_not_exists(PK)',
    }),
  );
  return (await ifConditionHolds(put)) ? 'queued' : 'already_queued';
}

/**
 * Claims a queued job for a run, in the round its record named: false when it is not queued in
 * that round any more (a duplicate or late record, or another worker has it).
 */
export async function claimJob(job: Job, now = Date.now()): Promise<Job | undefined> {
  const leaseUntil = at(now, RUNNING_LEASE_MS);
  const claimed = await ifConditionHolds(
    db().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: jobKeys.job(job.kind, job.targetId),
        UpdateExpression: 'SET phase = :running, leaseUntil = :lease, GSI1SK = :sk ADD attempts :one',
        ConditionExpression: 'phase = :queued AND round = :round',
        ExpressionAttributeValues: {
          ':running': 'running',
          ':queued': 'queued',
          ':round': job.round,
          ':lease': leaseUntil,
          ':sk': jobKeys.byLease(leaseUntil, job.kind, job.targetId).GSI1SK,
          ':one': 1,
        },
        ReturnValues: 'ALL_NEW',
      }),
    ),
  );
  return claimed?.Attributes ? jobFromItem(claimed.Attributes) : undefined;
}

/** Removes a job whose work is done (only in the round that did it). */
export async function finishJob(job: Job): Promise<void> {
  await ifConditionHolds(
    db().send(
      new DeleteCommand({
        TableName: tableName(),
        Key: jobKeys.job(job.kind, job.targetId),
        ConditionExpression: 'round = :round',
        ExpressionAttributeValues: { ':round': job.round },
      }),
    ),
  );
}

/**
 * Records how far a running job got (a cursor of its own making), so that a run stopped part way,
 * by its time or by a crash, is resumed there rather than from the start. Only by the round that
 * runs it: false when the job was taken back meanwhile (another run now owns it).
 */
export async function saveJobProgress(job: Job, progress: string): Promise<boolean> {
  const saved = await ifConditionHolds(
    db().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: jobKeys.job(job.kind, job.targetId),
        UpdateExpression: 'SET progress = :progress',
        ConditionExpression: 'phase = :running AND round = :round',
        ExpressionAttributeValues: { ':running': 'running', ':round': job.round, ':progress': progress },
      }),
    ),
  );
  return saved !== undefined;
}

/** The wait before a job that failed `attempts` times is tried again: 1, 2, 4 … minutes, at most an hour. */
export const backoffMs = (attempts: number): number => Math.min(MAX_BACKOFF_MS, 60_000 * 2 ** Math.max(0, attempts - 1));

/** Leaves a failed run's job to the sweep, which queues it again after {@link backoffMs}. */
export async function deferJob(job: Job, now = Date.now()): Promise<void> {
  const leaseUntil = at(now, backoffMs(job.attempts));
  await ifConditionHolds(
    db().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: jobKeys.job(job.kind, job.targetId),
        UpdateExpression: 'SET leaseUntil = :lease, GSI1SK = :sk',
        ConditionExpression: 'phase = :running AND round = :round',
        ExpressionAttributeValues: { ':running': 'running', ':round': job.round, ':lease': leaseUntil, ':sk': jobKeys.byLease(leaseUntil, job.kind, job.targetId).GSI1SK },
      }),
    ),
  );
}

/** The jobs whose lease ended before `now` (GSI1, oldest first), a Query page at a time. */
export async function* expiredJobs(now = Date.now()): AsyncGenerator<Job> {
  const collection = indexCollection('GSI1', 'JOBS_BY_LEASE', { below: new Date(now).toISOString() });
  for await (const item of queryCollection(collection)) yield jobFromItem(item);
}

/**
 * Queues a job whose lease ended again, in a new round (a new stream record starts a worker);
 * nothing when it changed since it was read (claimed, finished, deferred).
 */
export const requeueJob = (job: Job, now = Date.now()): Promise<boolean> =>
  queueAgain(job, 'round = :round AND leaseUntil = :was', { ':was': job.leaseUntil }, now);

/**
 * Queues again, in a new round and at once, a running job whose run stopped part way because its
 * time was up (long work done over several invocations: data migrations); the new round's stream
 * record starts the next run.
 */
export const continueJob = (job: Job, now = Date.now()): Promise<boolean> =>
  queueAgain(job, 'phase = :running AND round = :round', { ':running': 'running' }, now);

/** Puts a job back in the queue in its next round, if `condition` holds: false when it did not. */
async function queueAgain(job: Job, condition: string, values: Record<string, unknown>, now: number): Promise<boolean> {
  const leaseUntil = at(now, QUEUED_LEASE_MS);
  const queued = await ifConditionHolds(
    db().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: jobKeys.job(job.kind, job.targetId),
        UpdateExpression: 'SET phase = :queued, leaseUntil = :lease, GSI1SK = :sk, round = :next',
        ConditionExpression: condition,
        ExpressionAttributeValues: {
          ...values,
          ':queued': 'queued',
          ':round': job.round,
          ':next': job.round + 1,
          ':lease': leaseUntil,
          ':sk': jobKeys.byLease(leaseUntil, job.kind, job.targetId).GSI1SK,
        },
      }),
    ),
  );
  return queued !== undefined;
}
