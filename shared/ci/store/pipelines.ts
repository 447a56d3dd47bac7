/**
 * Pipelines and their jobs: a pipeline is the head item of its partition and its jobs are the
 * other items there (one consistent Query reads a whole pipeline); each job also has a pointer
 * item (`CI_JOB#<id>`) so it is found by id. Status changes are conditional updates on the status
 * read (`created` → `pending` happens once whoever processes the pipeline), pipeline updates are
 * version-conditioned; claiming a pending job is one transaction conditioned on `pending`.
 *
 * A job's and a pipeline's list entries by status (jobs GSI5, pipelines GSI2) are written by the
 * same writes that change the status (a job's every status change goes through `insertJobs` /
 * `insertPipeline`, `updateJob` or `claimJob`; a pipeline is always written whole), and a
 * pipeline's entry by ref (GSI3) with the pipeline, so a filtered list reads only what it shows.
 *
 * The scheduler's index entries are written with the changes that cause them: a pending or
 * running job carries its next deadline (GSI3, `config/scheduler.ts`), set when it becomes pending
 * or running and removed when it ends; artifacts that expire carry their expiry (GSI4), removed
 * when they are kept, erased or expired. Every write of a job stamps `touchedAt` (GitLab's
 * `updated_at`: what tells a running job's runner is still there) without touching an index.
 */
import { DeleteCommand, GetCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { deleteMany, putMany } from '../../platform/dynamo/batch';
import { db, tableName } from '../../platform/dynamo/client';
import { ifConditionHolds } from '../../platform/dynamo/conditional';
import { nextId, nextIds } from '../../platform/dynamo/counters';
import { entityFields } from '../../platform/dynamo/items';
import { addIndexEntry } from '../../platform/dynamo/migrations';
import { isStorableKey, type Collection } from '../../platform/dynamo/keys';
import { getItem, isId, queryAll, queryCollection, type Item } from '../../platform/dynamo/query';
import { ConditionFailed, journalWrite, putAtVersion, transact } from '../../platform/dynamo/transactions';
import { nextDeadline } from '../config/scheduler';
import type { AutoCancelSettings, EnvironmentOptions, ReleaseDefinition, TriggerDefinition } from '../config/parse';
import type { JobStatus, PipelineStatus } from '../status';
import type { JobTestSummary } from '../junit';
import { CI_SEQUENCES, CI_SHARED_QUEUE_SHARDS, ciCollections, ciIndexKeys, ciKeys } from './keys';
import { dueItems } from './due';
import { isMergeRequestRef } from '../merge-request-variables';

/** The commit a pipeline runs, as read when it was created (what jobs embed as `commit`). */
export interface CommitSnapshot {
  id: string;
  message: string;
  authorName: string;
  authorEmail: string;
  authoredDate: string;
  committerName: string;
  committerEmail: string;
  committedDate: string;
  parentIds: string[];
}

export interface Pipeline {
  id: number;
  iid: number;
  projectId: number;
  ref: string;
  tag: boolean;
  sha: string;
  beforeSha: string;
  source: string;
  status: PipelineStatus;
  yamlErrors: string | null;
  userId: number | null;
  commit: CommitSnapshot | null;
  /** Variables given when it was created (`POST /projects/:id/pipeline`), values sealed (`pipeline-variables.ts`). */
  variables: StoredPipelineVariable[];
  createdAt: string;
  updatedAt: string;
  startedAt: string | null;
  finishedAt: string | null;
  /**
   * A merge request pipeline's merge request as it was when the pipeline was created (source
   * `merge_request_event`, ref `refs/merge-requests/<iid>/head`); absent on other pipelines.
   */
  mergeRequest?: MergeRequestSnapshot;
  /**
   * `workflow:auto_cancel` as the file (and its matching workflow rule) set it when the pipeline
   * was created (GitLab's pipeline metadata); absent: GitLab's defaults (`conservative`, `none`).
   */
  autoCancel?: AutoCancelSettings;
  /** Its name (GitLab's pipeline metadata `name`): the expanded `workflow:name`, or set with `PUT …/metadata`; absent: none. */
  name?: string;
  /** The pipeline that auto-canceled this one (GitLab's `auto_canceled_by_id`; on a job failure, itself). */
  autoCanceledById?: number;
  /**
   * A child pipeline's parent (source `parent_pipeline`): the pipeline and its trigger job that
   * created it. Such a pipeline is in none of its project's lists (GSI1 to GSI5), as GitLab's
   * lists leave child pipelines out; it is read by id.
   */
  parent?: { pipelineId: number; jobId: number };
  /** A multi-project downstream pipeline's upstream pipeline and trigger job (source `pipeline`); listed as any other. */
  upstream?: { pipelineId: number; jobId: number };
  version: number;
}

/**
 * What a merge request pipeline knows of its merge request (GitLab reads the merge request for its
 * `CI_MERGE_REQUEST_*` variables; here the merge requests feature hands them over, CI not reading
 * merge requests). Paths are full paths; labels their names, sorted; assignees their usernames.
 */
export interface MergeRequestSnapshot {
  id: number;
  iid: number;
  title: string;
  description: string;
  sourceBranch: string;
  targetBranch: string;
  projectId: number;
  projectPath: string;
  sourceProjectId: number;
  sourceProjectPath: string;
  diffBaseSha: string;
  diffId: number;
  labels: string[];
  assignees: string[];
  milestone: string | null;
  draft: boolean;
  /** Whether the target and source branches were protected when the pipeline was created. */
  targetBranchProtected: boolean;
  sourceBranchProtected: boolean;
  /**
   * Its `state`, `merge_status` and `detailed_merge_status` when the pipeline was created (the
   * Pipeline Hook's `merge_request` shows these; CI does not read merge requests). Absent on
   * pipelines created before they were kept (the hook then shows `opened`, `unchecked`, `unchecked`).
   */
  state?: string;
  mergeStatus?: string;
  detailedMergeStatus?: string;
}

/** A variable a pipeline was created with: its value sealed (`valueSealed`), or in clear (`value`) on pipelines written before sealing. */
export interface StoredPipelineVariable {
  key: string;
  variableType: string;
  valueSealed?: string;
  value?: string;
}

/** What a job runs, from `.gitlab-ci.yml` (stored as the job's `spec`). */
export interface JobSpec {
  script: string[];
  beforeScript: string[];
  afterScript: string[];
  image?: { name: string; entrypoint?: string[]; alias?: string; command?: string[] };
  services: Array<{ name: string; entrypoint?: string[]; alias?: string; command?: string[] }>;
  variables: Record<string, string>;
  tags: string[];
  artifacts?: { name?: string; paths: string[]; exclude: string[]; untracked: boolean; when: string; expireIn?: string; reports?: { junit?: string[] } };
  dependencies?: string[];
  needs?: Array<{ name: string; artifacts: boolean; optional: boolean }>;
  cache: Array<{ key: string; paths: string[]; untracked: boolean; policy: string; when: string }>;
  retry: { max: number; when: string[] };
  timeout?: number;
  allowFailureExitCodes?: number[];
  /** The environment's name, its variables expanded when the job was created (GitLab's `expanded_environment_name`). */
  environment?: string;
  /** Its `url` (expanded too), `action` and `deployment_tier`. */
  environmentOptions?: EnvironmentOptions;
  /** `release:` (GitLab's `options[:release]`): the job's release step runs release-cli with it. */
  release?: ReleaseDefinition;
  /** A trigger job's `trigger:` (GitLab's `Ci::Bridge` options). */
  trigger?: TriggerDefinition;
}

export interface JobArtifacts {
  filename: string;
  size: number;
  format: string;
  /** ISO time after which they are gone, unless kept; null: never expire. */
  expireAt: string | null;
}

export interface Job {
  id: number;
  projectId: number;
  pipelineId: number;
  name: string;
  stage: string;
  stageIdx: number;
  status: JobStatus;
  when: string;
  /** A retry of a job (GitLab's `set_enqueue_immediately!`): queued once what it waits for allows, even a manual one. */
  enqueueImmediately?: boolean;
  allowFailure: boolean;
  ref: string;
  tag: boolean;
  sha: string;
  beforeSha: string;
  userId: number | null;
  spec: JobSpec;
  createdAt: string;
  queuedAt: string | null;
  startedAt: string | null;
  finishedAt: string | null;
  erasedAt: string | null;
  runnerId: number | null;
  failureReason: string | null;
  exitCode: number | null;
  /** Replaced by a retry (its newer copy). */
  retried: boolean;
  /** How many times this job was retried before (automatic `retry:` counts). */
  retryCount: number;
  /** Digest of the job token, while a runner holds the job. */
  tokenDigest: string | null;
  /** Bytes of trace received; `traceArchived` once the job ended and the chunks became one object. */
  traceLength: number;
  traceArchived: boolean;
  artifacts: JobArtifacts | null;
  /** Counts of its uploaded JUnit report (`artifacts:reports:junit`; the cases are an S3 object); absent: none. */
  testReport?: JobTestSummary | null;
  /** When the job was last written (a trace append, a state change); absent on items written before it existed. */
  touchedAt?: string | null;
  /** Its environment (a job with `environment:`), as its pipeline's creation linked it. */
  environmentLink?: EnvironmentLink;
  /**
   * Seconds it may run, fixed when a runner took it (GitLab's `Ci::BuildMetadata#timeout`, set as
   * the build starts running): its `timeout:`, else the project's `build_timeout`, capped by the
   * runner's `maximum_timeout`. Absent until it runs, and on jobs taken before it was kept.
   */
  timeout?: number;
  /** `interruptible: true` (a newer pipeline of its ref may cancel it once started); absent: false. */
  interruptible?: boolean;
  /** The pipeline whose creation (or whose job's failure) canceled it (GitLab's `auto_canceled_by_id`). */
  autoCanceledById?: number;
  /**
   * A status reported by an external system (`POST /projects/:id/statuses/:sha`, GitLab's
   * `GenericCommitStatus`): stage `external`, no runner, never queued nor watched by the scheduler,
   * in no jobs list and not found by id (GitLab's jobs API serves builds only). Absent: a build.
   */
  generic?: true;
  /**
   * A trigger job (GitLab's `Ci::Bridge`, `spec.trigger`): never queued for runners nor watched by
   * the scheduler, in no jobs list and not found by id (GitLab's jobs API serves builds only);
   * listed by `…/pipelines/:pipeline_id/bridges`. Absent: not one.
   */
  bridge?: true;
  /** A trigger job's downstream pipeline, once created. */
  downstreamPipelineId?: number;
  /** The runner queues it was entered in when it last became pending (besides its project's); absent: its project's only. */
  runnerQueues?: RunnerQueues;
  /** A generic status's `target_url`, `description` and `coverage`. */
  targetUrl?: string | null;
  description?: string | null;
  coverage?: number | null;
  version: number;
}

/**
 * The queues beyond its project's a pending job is in (ACCESS_PATTERNS C18): the instance runners'
 * (`shared`: its project had shared runners enabled as it became pending) and its top-level
 * group's (`groupChain`: the project's groups, from the top-level one down; null in a user's namespace).
 */
export interface RunnerQueues {
  shared: boolean;
  groupChain: number[] | null;
}

/** The index attributes of a pending job in the instance and group runner queues (GSI6, GSI7). */
function runnerQueueAttributes(jobId: number, queues: RunnerQueues | undefined): Item {
  return {
    ...(queues?.shared ? ciIndexKeys.sharedQueuedJob(jobId) : {}),
    ...(queues?.groupChain?.length ? ciIndexKeys.groupQueuedJob(queues.groupChain, jobId) : {}),
  };
}

/** A job's environment: the environment, its tier for the job, the job's deployment. */
export interface EnvironmentLink {
  environmentId: number;
  /** `CI_ENVIRONMENT_TIER`: the file's `deployment_tier`, else the environment's tier. */
  tier: string;
  /** The job's deployment (jobs whose action is `start`). */
  deploymentId?: number;
}

export function pipelineFromItem(item: Item): Pipeline {
  const fields = entityFields(item);
  return { ...(fields as Pipeline), yamlErrors: fields.yamlErrors ?? null, commit: fields.commit ?? null, variables: fields.variables ?? [] };
}

export function jobFromItem(item: Item): Job {
  const fields = entityFields(item) as Job;
  return { ...fields, artifacts: fields.artifacts ?? null, tokenDigest: fields.tokenDigest ?? null };
}

function pipelineToItem(pipeline: Pipeline): Item {
  // A merge request pipeline is listed with its source branch's pipelines (GSI3: the merge
  // request's head pipeline is the newest of both kinds) and under its own ref (GSI4); one a fork
  // runs for its merge request is on the source branch itself (its ref), so in GSI3 only.
  // A child pipeline is in no list of its project (GitLab's `no_child`): its partition only.
  if (pipeline.parent) return { ...ciKeys.pipeline(pipeline.id), type: 'Pipeline', ...pipeline };
  const bySha = ciIndexKeys.projectPipelineBySha(pipeline.projectId, pipeline.sha, pipeline.id);
  const byRef = ciIndexKeys.projectPipelineByRef(pipeline.projectId, pipeline.mergeRequest?.sourceBranch ?? pipeline.ref, pipeline.id);
  const byMergeRequestRef = pipeline.mergeRequest && isMergeRequestRef(pipeline.ref) ? ciIndexKeys.projectPipelineByMergeRequestRef(pipeline.projectId, pipeline.ref, pipeline.id) : undefined;
  return {
    ...ciKeys.pipeline(pipeline.id),
    ...ciIndexKeys.projectPipeline(pipeline.projectId, pipeline.id),
    ...ciIndexKeys.projectPipelineByStatus(pipeline.projectId, pipeline.status, pipeline.id),
    // A ref too long for a key has no entry (the item would be refused); a lookup of it finds nothing either.
    ...(isStorableKey({ PK: byRef.GSI3PK, SK: byRef.GSI3SK }) ? byRef : {}),
    ...(byMergeRequestRef ?? {}),
    // Its commit's pipelines (a commit's statuses); a sha too long for a key (none is) has no entry.
    ...(isStorableKey({ PK: bySha.GSI5PK, SK: bySha.GSI5SK }) ? bySha : {}),
    type: 'Pipeline',
    ...pipeline,
  };
}

/** The scheduler's index attributes of a job as it is: its deadline (GSI3) and its artifacts' expiry (GSI4). */
function scheduleAttributes(job: Job): Item {
  const deadline = nextDeadline(job);
  return {
    ...(deadline ? ciIndexKeys.jobDeadline(job.id, deadline) : {}),
    ...(job.artifacts?.expireAt ? ciIndexKeys.artifactExpiry(job.id, job.artifacts.expireAt) : {}),
  };
}

function jobToItem(job: Job): Item {
  // A generic status is in no list, queue or scheduler index: only in its pipeline's partition.
  if (job.generic || job.bridge) return { ...ciKeys.job(job.pipelineId, job.id), type: 'Job', ...job };
  return {
    ...ciKeys.job(job.pipelineId, job.id),
    ...ciIndexKeys.projectJob(job.projectId, job.id),
    ...ciIndexKeys.projectJobByStatus(job.projectId, job.status, job.id),
    ...(job.status === 'pending' ? { ...ciIndexKeys.queuedJob(job.projectId, job.id), ...runnerQueueAttributes(job.id, job.runnerQueues) } : {}),
    ...scheduleAttributes(job),
    type: 'Job',
    ...job,
  };
}

const pointerItem = (job: Pick<Job, 'id' | 'pipelineId' | 'projectId'>): Item => ({
  ...ciKeys.jobPointer(job.id),
  type: 'JobPointer',
  pipelineId: job.pipelineId,
  projectId: job.projectId,
});

export const newPipelineId = () => nextId(CI_SEQUENCES.pipelines);
export const newPipelineIid = (projectId: number) => nextId(CI_SEQUENCES.pipelineIids(projectId));
export const newJobId = () => nextId(CI_SEQUENCES.jobs);
export const newJobIds = (count: number) => nextIds(CI_SEQUENCES.jobs, count);

/** Stores a new pipeline with its jobs (jobs first: the pipeline item makes them reachable in its lists). */
export async function insertPipeline(pipeline: Pipeline, jobs: readonly Job[]): Promise<void> {
  await putMany(jobs.flatMap(jobItems));
  const item = pipelineToItem(pipeline);
  await db().send(new PutCommand({ TableName: tableName(), Item: item, ConditionExpression: 'attribute_not_exists(PK)' }));
  await journalWrite([item]);
}

/** Adds jobs to an existing pipeline (retries). */
export async function insertJobs(jobs: readonly Job[]): Promise<void> {
  await putMany(jobs.flatMap(jobItems));
}

/** Internal: a job's items: itself and its pointer (a trigger job has none: not found by id). */
const jobItems = (job: Job): Item[] => [jobToItem(job), pointerItem(job)];

/**
 * Stores a new generic commit status in its pipeline's partition (no pointer: not found by id),
 * with the claim of its name (`statusClaim`) moved from `replacing` (the newest status of the name,
 * finished; undefined: none yet) in one transaction. False when another report claimed it first.
 */
export async function insertGenericStatus(job: Job, replacing: number | undefined): Promise<boolean> {
  const claim = ciKeys.statusClaim(job.pipelineId, job.userId ?? 0, job.ref, job.name);
  try {
    await transact({
      claim: {
        Put: {
          TableName: tableName(),
          Item: { ...claim, type: 'CommitStatusClaim', jobId: job.id },
          ConditionExpression: replacing === undefined ? 'attribute_not_exists(PK)' : 'jobId = :replacing',
          ...(replacing === undefined ? {} : { ExpressionAttributeValues: { ':replacing': replacing } }),
        },
      },
      status: { Put: { TableName: tableName(), Item: jobToItem({ ...job, generic: true }), ConditionExpression: 'attribute_not_exists(PK)' } },
    });
    return true;
  } catch (error) {
    if (error instanceof ConditionFailed) return false;
    throw error;
  }
}

/**
 * Gives a pipeline written before the index by commit existed its entry (GSI5), unless it has one
 * (or is gone); answers whether it wrote. The migration `ci-pipeline-shas-v1`.
 */
export async function indexPipelineSha(pipeline: Pick<Pipeline, 'id' | 'projectId' | 'sha'>): Promise<boolean> {
  const entry = ciIndexKeys.projectPipelineBySha(pipeline.projectId, pipeline.sha, pipeline.id);
  if (!isStorableKey({ PK: entry.GSI5PK, SK: entry.GSI5SK })) return false;
  return addIndexEntry(ciKeys.pipeline(pipeline.id), entry);
}

/** The external pipeline claimed for a commit's statuses on a ref, when one was. */
export async function externalPipelineClaim(projectId: number, sha: string, ref: string): Promise<{ pipelineId: number; claimedAt: string } | undefined> {
  const key = ciKeys.externalPipelineClaim(projectId, sha, ref);
  if (!isStorableKey(key)) return undefined;
  const item = await getItem(key);
  return item ? { pipelineId: Number(item.pipelineId), claimedAt: String(item.claimedAt) } : undefined;
}

/**
 * Claims the external pipeline of a commit's statuses on a ref for `pipelineId`, before it is
 * created (so concurrent first reports make one pipeline): while none is claimed, or in place of
 * `replacing` (a claimed pipeline that is gone). False when another claim won.
 */
export async function claimExternalPipeline(projectId: number, sha: string, ref: string, pipelineId: number, replacing?: number): Promise<boolean> {
  const key = ciKeys.externalPipelineClaim(projectId, sha, ref);
  if (!isStorableKey(key)) return true;
  const result = await ifConditionHolds(
    db().send(
      new PutCommand({
        TableName: tableName(),
        Item: { ...key, type: 'ExternalPipelineClaim', pipelineId, projectId, claimedAt: new Date().toISOString() },
        ConditionExpression: replacing === undefined ? 'attribute_not_exists(PK)' : 'pipelineId = :replacing',
        ...(replacing === undefined ? {} : { ExpressionAttributeValues: { ':replacing': replacing } }),
      }),
    ),
  );
  return result !== undefined;
}

/** A commit's pipelines, newest first (GSI5), at most `limit`, read again by id (the index is eventually consistent). */
export async function commitPipelines(projectId: number, sha: string, limit: number): Promise<Pipeline[]> {
  const ids: number[] = [];
  for await (const item of queryCollection(ciCollections.projectPipelinesBySha(projectId, sha), { ascending: false, pageSize: limit })) {
    ids.push(Number(item.id));
    if (ids.length >= limit) break;
  }
  const read = await Promise.all(ids.map((id) => getPipeline(id)));
  return read.filter((pipeline): pipeline is Pipeline => pipeline !== undefined && pipeline.sha === sha);
}

export async function getPipeline(pipelineId: number): Promise<Pipeline | undefined> {
  if (!isId(pipelineId)) return undefined;
  const item = await getItem(ciKeys.pipeline(pipelineId));
  return item ? pipelineFromItem(item) : undefined;
}

/** A pipeline and all its jobs (retried ones included), read consistently. */
export async function readPipeline(pipelineId: number): Promise<{ pipeline: Pipeline; jobs: Job[] } | undefined> {
  if (!isId(pipelineId)) return undefined;
  const items = await queryAll(ciCollections.pipelinePartition(pipelineId));
  const head = items.find((item) => item.SK === 'PIPELINE');
  if (!head) return undefined;
  return { pipeline: pipelineFromItem(head), jobs: items.filter((item) => item.type === 'Job').map(jobFromItem) };
}

/** A job by id (its pointer, then its item); a trigger job only with `bridges` (GitLab's processables: playing one). */
export async function getJob(jobId: number, options: { bridges?: boolean } = {}): Promise<Job | undefined> {
  if (!isId(jobId)) return undefined;
  const pointer = await getItem(ciKeys.jobPointer(jobId));
  if (!pointer) return undefined;
  const item = await getItem(ciKeys.job(Number(pointer.pipelineId), jobId));
  const job = item ? jobFromItem(item) : undefined;
  // A trigger job is found by id only where GitLab looks among processables (playing it).
  return job?.bridge && !options.bridges ? undefined : job;
}

/** A project's pipelines, newest first (GSI1). */
export async function* projectPipelines(projectId: number): AsyncGenerator<Pipeline> {
  for await (const item of queryCollection(ciCollections.projectPipelines(projectId), { ascending: false })) yield pipelineFromItem(item);
}

/** A project's pipelines in one status, newest first (GSI2). */
export async function* projectPipelinesInStatus(projectId: number, status: PipelineStatus): AsyncGenerator<Pipeline> {
  for await (const item of queryCollection(ciCollections.projectPipelinesByStatus(projectId, status), { ascending: false })) yield pipelineFromItem(item);
}

/** A project's jobs, oldest first (GSI1), a Query page at a time (the bulk deletion of its artifacts walks it). */
export async function* projectJobs(projectId: number, options: { fromJobId?: number; pageSize?: number } = {}): AsyncGenerator<Job> {
  for await (const item of queryCollection(ciCollections.projectJobs(projectId, options.fromJobId), { pageSize: options.pageSize })) yield jobFromItem(item);
}

/**
 * A project's pipelines of one ref (branches and tags of that name, and the merge request
 * pipelines whose source branch it is), newest first (GSI3), read `pageSize` at a time.
 */
export async function* refPipelines(projectId: number, ref: string, pageSize?: number): AsyncGenerator<Pipeline> {
  for await (const item of queryCollection(ciCollections.projectPipelinesByRef(projectId, ref), { ascending: false, pageSize })) yield pipelineFromItem(item);
}

/** A project's merge request pipelines of one merge request's ref (`refs/merge-requests/<iid>/head`, GSI4), newest first. */
export async function* mergeRequestRefPipelines(projectId: number, ref: string, pageSize?: number): AsyncGenerator<Pipeline> {
  for await (const item of queryCollection(ciCollections.projectMergeRequestPipelines(projectId, ref), { ascending: false, pageSize })) yield pipelineFromItem(item);
}

/** Up to `limit` pending jobs of a project, oldest first (GSI2: eventually consistent; claims re-check). */
export async function queuedJobs(projectId: number, limit: number): Promise<Array<{ pipelineId: number; id: number }>> {
  const found: Array<{ pipelineId: number; id: number }> = [];
  for await (const item of queryCollection(ciCollections.queue(projectId), { pageSize: limit })) {
    found.push({ pipelineId: Number(item.pipelineId), id: Number(item.id) });
    if (found.length >= limit) break;
  }
  return found;
}

/** Fields of a job a status change may set. */
export type JobChanges = Partial<Pick<Job, 'status' | 'queuedAt' | 'startedAt' | 'finishedAt' | 'erasedAt' | 'runnerId' | 'failureReason' | 'exitCode' | 'retried' | 'tokenDigest' | 'traceArchived' | 'artifacts' | 'traceLength' | 'allowFailure' | 'autoCanceledById' | 'testReport' | 'targetUrl' | 'description' | 'coverage' | 'downstreamPipelineId'>>;

/** What a job's deadline is computed from, when a change may give it one; `generic`: a generic status (no index entries). */
type JobRef = Pick<Job, 'id' | 'pipelineId' | 'projectId'> & { createdAt?: string; startedAt?: string | null; timeout?: number; spec?: Pick<JobSpec, 'timeout'>; generic?: true; bridge?: true; runnerQueues?: RunnerQueues };

/**
 * Changes a job if its status is still one of `from` (undefined: any); answers the job as written,
 * or undefined when the condition did not hold. A status change moves the job to that status's
 * list (GSI5). A pending job is in its project's queue (GSI2),
 * any other status is out of it; a job that becomes pending or running gets its deadline (GSI3),
 * any other status loses it; artifacts that expire are in the expiry index (GSI4). A job made
 * pending with `queues` enters the instance and group runner queues they name (GSI6, GSI7, in
 * the same write); any other status leaves them.
 */
export async function updateJob(job: JobRef, changes: JobChanges, from?: readonly JobStatus[], queues?: RunnerQueues): Promise<Job | undefined> {
  const now = new Date().toISOString();
  const names: Record<string, string> = { '#version': 'version' };
  const values: Record<string, unknown> = { ':one': 1 };
  const sets: string[] = [];
  const removes: string[] = [];
  const set = (attribute: string, value: unknown) => {
    names[`#${attribute}`] = attribute;
    values[`:${attribute}`] = value;
    sets.push(`#${attribute} = :${attribute}`);
  };
  for (const [name, value] of Object.entries({ touchedAt: now, ...changes })) if (value !== undefined) set(name, value);
  if (changes.status !== undefined && !job.generic && !job.bridge) {
    for (const [attribute, value] of Object.entries(ciIndexKeys.projectJobByStatus(job.projectId, changes.status, job.id))) set(attribute, value);
    if (changes.status === 'pending') {
      for (const [attribute, value] of Object.entries(ciIndexKeys.queuedJob(job.projectId, job.id))) set(attribute, value);
      if (queues) {
        set('runnerQueues', queues);
        for (const [attribute, value] of Object.entries(runnerQueueAttributes(job.id, queues))) set(attribute, value);
      }
    } else removes.push('GSI2PK', 'GSI2SK', 'GSI6PK', 'GSI6SK', 'GSI7PK', 'GSI7SK');
    const deadline = nextDeadline({
      status: changes.status,
      createdAt: job.createdAt ?? now,
      queuedAt: changes.queuedAt ?? now,
      startedAt: changes.startedAt ?? job.startedAt ?? now,
      touchedAt: now,
      timeout: job.timeout,
      spec: job.spec ?? {},
    });
    if (deadline) for (const [attribute, value] of Object.entries(ciIndexKeys.jobDeadline(job.id, deadline))) set(attribute, value);
    else removes.push('GSI3PK', 'GSI3SK');
  }
  if (changes.artifacts !== undefined) {
    const expireAt = changes.artifacts?.expireAt;
    if (expireAt) for (const [attribute, value] of Object.entries(ciIndexKeys.artifactExpiry(job.id, expireAt))) set(attribute, value);
    else removes.push('GSI4PK', 'GSI4SK');
  }
  let condition = 'attribute_exists(PK)';
  if (from) {
    names['#status'] = 'status';
    const list = from.map((status, i) => {
      values[`:from${i}`] = status;
      return `:from${i}`;
    });
    condition += ` AND #status IN (${list.join(', ')})`;
  }
  const result = await ifConditionHolds(
    db().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: ciKeys.job(job.pipelineId, job.id),
        UpdateExpression: `SET ${[...sets, '#version = #version + :one'].join(', ')}${removes.length ? ` REMOVE ${removes.join(', ')}` : ''}`,
        ConditionExpression: condition,
        ExpressionAttributeNames: names,
        ExpressionAttributeValues: values,
        ReturnValues: 'ALL_NEW',
      }),
    ),
  );
  // A status change shows at once in the lists it enters (and the queue) and, when the statuses
  // it came from are known, leaves theirs (`recent.ts`).
  if (result?.Attributes && changes.status !== undefined && !job.generic) {
    const key = ciKeys.job(job.pipelineId, job.id);
    const left = (from ?? []).map((status) => ({
      ...key,
      ...ciIndexKeys.projectJobByStatus(job.projectId, status, job.id),
      ...(status === 'pending' ? { ...ciIndexKeys.queuedJob(job.projectId, job.id), ...runnerQueueAttributes(job.id, job.runnerQueues) } : {}),
    }));
    await journalWrite([result.Attributes], left);
  }
  return result?.Attributes ? jobFromItem(result.Attributes) : undefined;
}

/**
 * Moves a running job's trace end from `from` to `to` bytes (an append reserves its range before
 * its chunk is written; a failed write gives it back): conditioned on the job still running with
 * its trace ending at `from`, so of two appends at one offset exactly one wins. Undefined when
 * the condition failed.
 */
export async function moveTraceEnd(job: JobRef, from: number, to: number): Promise<Job | undefined> {
  const result = await ifConditionHolds(
    db().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: ciKeys.job(job.pipelineId, job.id),
        UpdateExpression: 'SET traceLength = :to, touchedAt = :now, #version = #version + :one',
        ConditionExpression: '#status = :running AND traceLength = :from',
        ExpressionAttributeNames: { '#status': 'status', '#version': 'version' },
        ExpressionAttributeValues: { ':to': to, ':from': from, ':now': new Date().toISOString(), ':running': 'running', ':one': 1 },
        ReturnValues: 'ALL_NEW',
      }),
    ),
  );
  return result?.Attributes ? jobFromItem(result.Attributes) : undefined;
}

/** Writes a pipeline's changed fields if its version is still `version`; false when another writer was first. */
export async function updatePipeline(pipeline: Pipeline, changes: Partial<Pick<Pipeline, 'status' | 'startedAt' | 'finishedAt' | 'updatedAt' | 'autoCanceledById' | 'name'>>): Promise<boolean> {
  // Its status list, entered and left, shows the change at once.
  return putAtVersion(pipelineToItem({ ...pipeline, ...changes, version: pipeline.version + 1 }), pipelineToItem(pipeline));
}

/**
 * Hands a pending job to a runner: the job becomes running with the runner and the token's
 * digest, and the token item is written, in one transaction conditioned on the job still being
 * pending, so exactly one runner gets it. Answers the job as claimed, or undefined when another
 * runner was first (or it was canceled meanwhile).
 */
export async function claimJob(job: Pick<Job, 'id' | 'pipelineId' | 'projectId' | 'createdAt' | 'spec'>, runnerId: number, tokenDigest: string, now: string, timeout: number): Promise<Job | undefined> {
  const deadline = ciIndexKeys.jobDeadline(job.id, nextDeadline({ status: 'running', createdAt: job.createdAt, queuedAt: null, startedAt: now, touchedAt: now, timeout, spec: job.spec })!);
  const listed = ciIndexKeys.projectJobByStatus(job.projectId, 'running', job.id);
  try {
    await transact({
      job: {
        Update: {
          TableName: tableName(),
          Key: ciKeys.job(job.pipelineId, job.id),
          UpdateExpression:
            'SET #status = :running, runnerId = :runner, tokenDigest = :digest, startedAt = :now, touchedAt = :now, #timeout = :timeout, GSI3PK = :deadlinePk, GSI3SK = :deadlineSk, GSI5PK = :listedPk, GSI5SK = :listedSk, #version = #version + :one REMOVE GSI2PK, GSI2SK, GSI6PK, GSI6SK, GSI7PK, GSI7SK',
          ConditionExpression: '#status = :pending',
          ExpressionAttributeNames: { '#status': 'status', '#version': 'version', '#timeout': 'timeout' },
          ExpressionAttributeValues: {
            ':running': 'running',
            ':timeout': timeout,
            ':pending': 'pending',
            ':runner': runnerId,
            ':digest': tokenDigest,
            ':now': now,
            ':one': 1,
            ':deadlinePk': deadline.GSI3PK,
            ':deadlineSk': deadline.GSI3SK,
            ':listedPk': listed.GSI5PK,
            ':listedSk': listed.GSI5SK,
          },
        },
      },
      token: {
        Put: {
          TableName: tableName(),
          Item: { ...ciKeys.jobToken(tokenDigest), type: 'JobToken', jobId: job.id, pipelineId: job.pipelineId, projectId: job.projectId },
          ConditionExpression: 'attribute_not_exists(PK)',
        },
      },
      // The runner's jobs list (`GET /runners/:id/jobs`), written with the claim so it is never missing.
      runnerJob: {
        Put: {
          TableName: tableName(),
          Item: { ...ciKeys.runnerJob(runnerId, job.id), type: 'RunnerJob', runnerId, jobId: job.id, pipelineId: job.pipelineId, projectId: job.projectId },
        },
      },
    });
  } catch (error) {
    if (error instanceof ConditionFailed) return undefined;
    throw error;
  }
  const item = await getItem(ciKeys.job(job.pipelineId, job.id));
  return item ? jobFromItem(item) : undefined;
}

/** The job a job token belongs to, while the job runs. */
export async function jobTokenOwner(digest: string): Promise<{ jobId: number; pipelineId: number; projectId: number } | undefined> {
  const item = await getItem(ciKeys.jobToken(digest));
  return item ? { jobId: Number(item.jobId), pipelineId: Number(item.pipelineId), projectId: Number(item.projectId) } : undefined;
}

/** Ends a job token (the job is no longer running). */
export async function revokeJobToken(digest: string): Promise<void> {
  await db().send(new DeleteCommand({ TableName: tableName(), Key: ciKeys.jobToken(digest) }));
}

/** Removes a pipeline with its jobs and their pointers. */
export async function deletePipelineItems(pipelineId: number, jobs: readonly Job[]): Promise<void> {
  const claims = jobs.filter((job) => job.generic).map((job) => ciKeys.statusClaim(pipelineId, job.userId ?? 0, job.ref, job.name));
  const unique = [...new Map(claims.map((key) => [key.SK, key])).values()];
  await deleteMany([...jobs.flatMap((job) => (job.generic ? [ciKeys.job(pipelineId, job.id)] : [ciKeys.job(pipelineId, job.id), ciKeys.jobPointer(job.id)])), ...unique, ciKeys.pipeline(pipelineId)]);
  await deleteMany(jobs.filter((job) => job.tokenDigest).map((job) => ciKeys.jobToken(job.tokenDigest!)));
}

/**
 * Up to `limit` pending jobs of the instance runners' queue that `accept` takes, oldest first:
 * each shard (GSI6, eventually consistent; claims re-check) read in id order until it gave
 * `limit` of them or `maxRead` entries (the index holds whole jobs: tags are matched on what it
 * returns), then merged.
 */
export async function sharedQueuedJobs(limit: number, maxRead: number, accept: (job: Job) => boolean): Promise<Job[]> {
  const shards = Array.from({ length: CI_SHARED_QUEUE_SHARDS }, (_, shard) => acceptedJobs(ciCollections.sharedQueue(shard), limit, Math.ceil(maxRead / CI_SHARED_QUEUE_SHARDS), accept));
  return (await Promise.all(shards)).flat().sort((a, b) => a.id - b.id).slice(0, limit);
}

/**
 * Up to `limit` pending jobs of a group's projects and its descendants' that `accept` takes,
 * oldest first: the group's key range of its top-level group's queue (GSI7), at most `maxRead`
 * entries (sorted there by subgroup, then id: sorted by id here).
 */
export async function groupQueuedJobs(groupChain: readonly number[], limit: number, maxRead: number, accept: (job: Job) => boolean): Promise<Job[]> {
  return (await acceptedJobs(ciCollections.groupQueue(groupChain), maxRead, maxRead, accept)).sort((a, b) => a.id - b.id).slice(0, limit);
}

async function acceptedJobs(collection: Collection, limit: number, maxRead: number, accept: (job: Job) => boolean): Promise<Job[]> {
  const found: Job[] = [];
  let read = 0;
  // Pages of `limit` (a shard usually has its first matches at its head), at most 100 items.
  for await (const item of queryCollection(collection, { pageSize: Math.min(limit, maxRead, 100) })) {
    const job = jobFromItem(item);
    if (job.status === 'pending' && accept(job)) found.push(job);
    if (found.length >= limit || ++read >= maxRead) break;
  }
  return found;
}

/**
 * Takes a pending job out of the instance runners' queue (`shared`) or its group's (GSI6/GSI7):
 * its project no longer lets instance runners (or that group's runners) take it. Conditioned on it
 * still being pending; its project's queue keeps it.
 */
export async function leaveRunnerQueue(job: Job, queue: 'shared' | 'group'): Promise<void> {
  const [pk, sk] = queue === 'shared' ? ['GSI6PK', 'GSI6SK'] : ['GSI7PK', 'GSI7SK'];
  const queues: RunnerQueues = { shared: queue === 'shared' ? false : !!job.runnerQueues?.shared, groupChain: queue === 'group' ? null : job.runnerQueues?.groupChain ?? null };
  const result = await ifConditionHolds(
    db().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: ciKeys.job(job.pipelineId, job.id),
        UpdateExpression: `SET runnerQueues = :queues REMOVE ${pk}, ${sk}`,
        ConditionExpression: '#status = :pending',
        ExpressionAttributeNames: { '#status': 'status' },
        ExpressionAttributeValues: { ':queues': queues, ':pending': 'pending' },
        ReturnValues: 'ALL_NEW',
      }),
    ),
  );
  if (result?.Attributes) await journalWrite([result.Attributes], [{ ...ciKeys.job(job.pipelineId, job.id), ...runnerQueueAttributes(job.id, job.runnerQueues) }]);
}

/** The runner queues' index attributes (GSI6, GSI7): what a job in none of them lacks. */
const RUNNER_QUEUE_NAMES = ['GSI6PK', 'GSI6SK', 'GSI7PK', 'GSI7SK'];

/**
 * Puts a pending job into exactly the runner queues `queues` names (GSI6/GSI7), out of any other:
 * its project opened to instance runners (or its groups' runners) again, or moved to another
 * namespace (another group's queue, or none). Conditioned on it still being pending (a job claimed
 * or ended meanwhile is left alone); answers whether it was written.
 */
export async function enterRunnerQueues(job: Job, queues: RunnerQueues): Promise<boolean> {
  const attributes = runnerQueueAttributes(job.id, queues);
  const names = Object.keys(attributes);
  const removed = RUNNER_QUEUE_NAMES.filter((name) => !names.includes(name));
  const result = await ifConditionHolds(
    db().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: ciKeys.job(job.pipelineId, job.id),
        UpdateExpression: `SET runnerQueues = :queues${names.map((name) => `, ${name} = :${name}`).join('')}${removed.length ? ` REMOVE ${removed.join(', ')}` : ''}`,
        ConditionExpression: '#status = :pending',
        ExpressionAttributeNames: { '#status': 'status' },
        ExpressionAttributeValues: { ':queues': queues, ':pending': 'pending', ...Object.fromEntries(names.map((name) => [`:${name}`, attributes[name]])) },
        ReturnValues: 'ALL_NEW',
      }),
    ),
  );
  if (!result?.Attributes) return false;
  // The queues it left (another group's, on a move) are journaled too: their readers stop seeing it at once.
  await journalWrite([result.Attributes], [{ ...ciKeys.job(job.pipelineId, job.id), ...runnerQueueAttributes(job.id, job.runnerQueues) }]);
  return true;
}

/** A project's pending jobs, oldest first, read whole from its queue (GSI2, eventually consistent), at most `limit`. */
export async function* pendingJobsOf(projectId: number, limit: number): AsyncGenerator<Job> {
  let read = 0;
  for await (const item of queryCollection(ciCollections.queue(projectId), { pageSize: Math.min(limit, 100) })) {
    yield jobFromItem(item);
    if (++read >= limit) return;
  }
}

/** The project's queue version, changed whenever one of its jobs becomes pending. */
export async function queueVersion(projectId: number): Promise<string | undefined> {
  const { Item } = await db().send(new GetCommand({ TableName: tableName(), Key: ciKeys.queueVersion(projectId) }));
  return Item?.value as string | undefined;
}

/**
 * Moves the queue versions a newly pending job concerns: its project's, the instance runners'
 * (when it entered their queue) and its top-level group's (C5, C18).
 */
export async function bumpQueueVersion(projectId: number, value: string, queues?: RunnerQueues): Promise<void> {
  const keys = [ciKeys.queueVersion(projectId), ...(queues?.shared ? [ciKeys.instanceQueueVersion()] : []), ...(queues?.groupChain?.length ? [ciKeys.groupQueueVersion(queues.groupChain[0])] : [])];
  await Promise.all(keys.map((key) => db().send(new PutCommand({ TableName: tableName(), Item: { ...key, type: 'QueueVersion', value } }))));
}

/** A job as the scheduler found it in one of its indexes, with the index entry it was found by. */
export interface ScheduledJob {
  job: Job;
  /** The sort key of the entry (what a move or removal is conditioned on). */
  entry: string;
}

async function dueJobs(collection: Collection, limit: number): Promise<ScheduledJob[]> {
  return (await dueItems(collection, limit)).map(({ item, entry }) => ({ job: jobFromItem(item), entry }));
}

/** Up to `limit` jobs of a shard whose deadline is `now` or earlier, earliest first (GSI3: eventually consistent). */
export const dueDeadlineJobs = (shard: number, now: string, limit: number) => dueJobs(ciCollections.dueDeadlines(shard, now), limit);

/** Up to `limit` jobs of a shard whose artifacts expired at `now`, earliest first (GSI4: eventually consistent). */
export const expiredArtifactJobs = (shard: number, now: string, limit: number) => dueJobs(ciCollections.expiredArtifacts(shard, now), limit);

/** A job read consistently from the table (what the scheduler decides on, after finding it in an index). */
export async function readJob(job: Pick<Job, 'id' | 'pipelineId'>): Promise<Job | undefined> {
  const item = await getItem(ciKeys.job(job.pipelineId, job.id));
  return item ? jobFromItem(item) : undefined;
}

/**
 * Moves a job's deadline to `until` (null: removes it), if its entry is still `entry` (a state
 * change meanwhile wrote its own); false when it was not.
 */
export async function moveDeadline(job: Pick<Job, 'id' | 'pipelineId'>, entry: string, until: string | null): Promise<boolean> {
  const next = until ? ciIndexKeys.jobDeadline(job.id, until) : undefined;
  const result = await ifConditionHolds(
    db().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: ciKeys.job(job.pipelineId, job.id),
        UpdateExpression: next ? 'SET GSI3PK = :pk, GSI3SK = :sk' : 'REMOVE GSI3PK, GSI3SK',
        ConditionExpression: 'GSI3SK = :entry',
        ExpressionAttributeValues: { ':entry': entry, ...(next ? { ':pk': next.GSI3PK, ':sk': next.GSI3SK } : {}) },
      }),
    ),
  );
  return result !== undefined;
}

/**
 * Forgets a job's expired artifacts (`artifacts` null, out of the expiry index) if they still
 * expire at `expireAt` (kept or replaced meanwhile: nothing changes); answers whether it did.
 * Their object is deleted by the caller afterwards, so kept artifacts are never lost.
 */
export async function forgetExpiredArtifacts(job: Pick<Job, 'id' | 'pipelineId'>, expireAt: string): Promise<boolean> {
  return (await forgetArtifacts(job, expireAt)) !== undefined;
}

/**
 * Forgets a job's artifacts (`artifacts` null, out of the expiry index): whatever they are
 * (`DELETE …/jobs/:job_id/artifacts`, the project's bulk delete), or only while they expire at
 * `expireAt`. Answers the job as written; undefined when it has none (or other ones, or is gone).
 * Their object is deleted by the caller afterwards.
 */
export async function forgetArtifacts(job: Pick<Job, 'id' | 'pipelineId'>, expireAt?: string): Promise<Job | undefined> {
  const result = await ifConditionHolds(
    db().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: ciKeys.job(job.pipelineId, job.id),
        UpdateExpression: 'SET artifacts = :none, touchedAt = :now, #version = #version + :one REMOVE GSI4PK, GSI4SK',
        ConditionExpression: expireAt === undefined ? 'attribute_type(artifacts, :map)' : 'artifacts.expireAt = :expireAt',
        ExpressionAttributeNames: { '#version': 'version' },
        ExpressionAttributeValues: { ':none': null, ':now': new Date().toISOString(), ':one': 1, ...(expireAt === undefined ? { ':map': 'M' } : { ':expireAt': expireAt }) },
        ReturnValues: 'ALL_NEW',
      }),
    ),
  );
  return result?.Attributes ? jobFromItem(result.Attributes) : undefined;
}

/** Removes a stale expiry entry (the artifacts were kept or are gone) if it is still `entry`. */
export async function dropExpiryEntry(job: Pick<Job, 'id' | 'pipelineId'>, entry: string): Promise<void> {
  await ifConditionHolds(
    db().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: ciKeys.job(job.pipelineId, job.id),
        UpdateExpression: 'REMOVE GSI4PK, GSI4SK',
        ConditionExpression: 'GSI4SK = :entry',
        ExpressionAttributeValues: { ':entry': entry },
      }),
    ),
  );
}

/**
 * Puts a job's expiring artifacts back in the expiry index at their expiry (their pipeline is no
 * longer its ref's latest: an expiry that passed meanwhile is due at once), while they still
 * expire then.
 */
export async function restoreExpiryEntry(job: Pick<Job, 'id' | 'pipelineId'>, expireAt: string): Promise<void> {
  await setExpiryEntry(job, 'artifacts.expireAt = :expireAt', { ':expireAt': expireAt }, ciIndexKeys.artifactExpiry(job.id, expireAt));
}

/** Moves a job's expiry entry to `at` (kept artifacts, looked at again then), if it is still `entry`. */
export async function postponeExpiryEntry(job: Pick<Job, 'id' | 'pipelineId'>, entry: string, at: string): Promise<void> {
  await setExpiryEntry(job, 'GSI4SK = :entry', { ':entry': entry }, ciIndexKeys.artifactExpiry(job.id, at));
}

async function setExpiryEntry(job: Pick<Job, 'id' | 'pipelineId'>, condition: string, values: Record<string, string>, entry: { GSI4PK: string; GSI4SK: string }): Promise<void> {
  await ifConditionHolds(
    db().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: ciKeys.job(job.pipelineId, job.id),
        UpdateExpression: 'SET GSI4PK = :pk, GSI4SK = :sk',
        ConditionExpression: condition,
        ExpressionAttributeValues: { ...values, ':pk': entry.GSI4PK, ':sk': entry.GSI4SK },
      }),
    ),
  );
}

/** How often a runner's state reports are recorded on a running job. */
const TOUCH_INTERVAL_MS = 5 * 60_000;

/**
 * Records that a running job's runner reported (`PUT /jobs/:id` with `state=running`, GitLab's
 * `touch`): at most once every few minutes, so a chatty runner does not write every call. The
 * scheduler moves the job's deadline on when it finds it touched.
 */
export async function touchRunningJob(job: Pick<Job, 'id' | 'pipelineId' | 'touchedAt' | 'startedAt'>, now = new Date()): Promise<void> {
  const last = job.touchedAt ?? job.startedAt;
  if (last && now.getTime() - Date.parse(last) < TOUCH_INTERVAL_MS) return;
  await ifConditionHolds(
    db().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: ciKeys.job(job.pipelineId, job.id),
        UpdateExpression: 'SET touchedAt = :now',
        ConditionExpression: '#status = :running',
        ExpressionAttributeNames: { '#status': 'status' },
        ExpressionAttributeValues: { ':now': now.toISOString(), ':running': 'running' },
      }),
    ),
  );
}
