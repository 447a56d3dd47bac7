/**
 * The runner side of CI (what `gitlab-runner` calls): registering with a project's runners token,
 * asking for a job (a pending job of the runner's project matching its tags, claimed by exactly
 * one runner), reporting the job's state, appending its trace and uploading its artifacts. Runner
 * and job tokens are returned once and stored only as SHA-256 digests.
 */
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { openSecret } from '../../platform/crypto/secret-box';
import { getNamespace } from '../../namespaces';
import { ciSettingsOf, getProject, projectIdForRunnersToken, type Project } from '../../projects';
import { parseDuration } from '../config/durations';
import { refProtected, type RefProtections } from '../git';
import { gunzipSync } from 'node:zlib';
import { parseJunit, summarize, type JobTestResult } from '../junit';
import { putArtifacts, putTestReport, putTraceChunk } from '../store/blobs';
import { claimJob, getJob, groupQueuedJobs, leaveRunnerQueue, moveTraceEnd, readPipeline, sharedQueuedJobs, updateJob, type Job, type JobArtifacts, type Pipeline } from '../store/pipelines';
import {
  addRunnerManager,
  deleteRunner,
  insertRunner,
  moveRunnerToken,
  newRunnerId,
  newRunnerManagerId,
  queueScopeOf,
  recordRunnerContact,
  runnerByDigest,
  runnerQueuedJobs,
  runnerQueueVersion,
  runnerTypeOf,
  runnerWithQueueVersion,
  type QueueScope,
  type Runner,
  type RunnerManager,
} from '../store/runners';
import { endJob, jobChanged, processPipeline, type JobVerdict } from './pipelines';

export const digestOf = (secret: string): string => createHash('sha256').update(secret, 'utf8').digest('hex');

export interface RegisterInput {
  token: string;
  description?: string;
  info?: Record<string, unknown>;
  active?: boolean;
  paused?: boolean;
  locked?: boolean;
  runUntagged?: boolean;
  tagList?: string[];
  maximumTimeout?: number;
  accessLevel?: string;
  maintenanceNote?: string;
  ipAddress?: string | null;
}

/**
 * Registers a runner for the project whose runners token is given (found through the projects
 * feature's lookup, written when the project was created); undefined for an unknown token.
 */
export async function registerRunner(input: RegisterInput): Promise<{ runner: Runner; token: string } | undefined> {
  const projectId = await projectIdForRunnersToken(input.token);
  const project = projectId ? await getProject(projectId) : undefined;
  if (!project || project.deleting || !project.runnersTokenSealed) return undefined;
  // A project beneath a group being deleted is gone already (its namespace reads as missing).
  if (!(await getNamespace(project.namespaceId))) return undefined;
  // The lookup only says where to look: the token must be the project's own, compared in constant time.
  const current = Buffer.from(await openSecret(project.runnersTokenSealed));
  const given = Buffer.from(input.token);
  if (current.length !== given.length || !timingSafeEqual(current, given)) return undefined;
  return storeNewRunner({ projectId: project.id }, { ...input, locked: input.locked ?? true });
}

/** What `POST /user/runners` sets on a runner it creates. */
export type CreateRunnerInput = Omit<RegisterInput, 'token' | 'info' | 'ipAddress'>;

/** Whose runner a new one is: a project's, a group's, or the instance's (`{}`). */
export type RunnerOwner = { projectId: number } | { groupId: number } | Record<string, never>;

/**
 * Creates a runner for a user who may (GitLab's `Ci::Runners::CreateRunnerService`,
 * `registration_type: authenticated_user`): a project's, a group's or an instance runner. The
 * runner exists from now on, and `gitlab-runner register --token` (`POST /runners/verify`) then
 * attaches a machine to it. Unlocked unless asked.
 */
export async function createRunner(owner: RunnerOwner, input: CreateRunnerInput): Promise<{ runner: Runner; token: string }> {
  return storeNewRunner(owner, { ...input, locked: input.locked ?? false });
}

async function storeNewRunner(owner: RunnerOwner, input: Omit<RegisterInput, 'token'> & { locked: boolean }): Promise<{ runner: Runner; token: string }> {
  const token = newRunnerToken();
  const kind = 'projectId' in owner ? { projectId: owner.projectId } : 'groupId' in owner ? { projectId: null, runnerType: 'group_type' as const, groupId: owner.groupId } : { projectId: null, runnerType: 'instance_type' as const };
  const runner: Runner = {
    id: await newRunnerId(),
    tokenDigest: digestOf(token),
    ...kind,
    description: input.description ?? '',
    active: input.paused === undefined ? input.active ?? true : !input.paused,
    locked: input.locked,
    runUntagged: input.runUntagged ?? true,
    tags: [...new Set((input.tagList ?? []).map((tag) => tag.trim()).filter(Boolean))],
    maximumTimeout: input.maximumTimeout ?? null,
    accessLevel: input.accessLevel ?? 'not_protected',
    info: infoOf(input.info),
    ipAddress: input.ipAddress ?? null,
    contactedAt: null,
    createdAt: new Date().toISOString(),
    ...(input.maintenanceNote ? { maintenanceNote: input.maintenanceNote } : {}),
  };
  await insertRunner(runner);
  return { runner, token };
}

const newRunnerToken = () => `glrt-${randomBytes(20).toString('base64url')}`;

/**
 * Gives the runner a new token (GitLab's `reset_token!`): the old one stops working at once.
 * `runner_gone` when the runner went meanwhile (deleted, or its token reset by another call);
 * `too_many_projects` when it is enabled in more projects than one transaction can repoint.
 */
export async function resetRunnerToken(runner: Runner): Promise<{ token: string } | 'runner_gone' | 'too_many_projects'> {
  let current: Runner | undefined = runner;
  for (let attempt = 0; attempt < 5 && current; attempt += 1) {
    const token = newRunnerToken();
    const moved = await moveRunnerToken(current, digestOf(token));
    if (moved === 'moved') return { token };
    if (moved === 'too_many_projects') return moved;
    // Enabled in or disabled from a project meanwhile: moved with its projects as they are now.
    current = await runnerByDigest(current.tokenDigest);
  }
  if (!current) return 'runner_gone';
  throw new Error(`runner ${runner.id}: its token could not be moved (its projects kept changing)`);
}

/** Who is calling for a runner: the machine's `system_id` and what it says of itself (`info`). */
export interface RunnerCaller {
  systemId?: string;
  info?: Record<string, unknown>;
}

/**
 * A runner's call (`POST /runners/verify`, `POST /jobs/request`), as GitLab's `authenticate_runner!`
 * records it: the calling machine becomes one of its managers when first seen (`ensure_manager`,
 * contacted now), and the runner and that manager are contacted ({@link recordRunnerContact}).
 */
export async function runnerCalled(runner: Runner, caller: RunnerCaller, now: Date): Promise<void> {
  const { systemId } = caller;
  if (systemId && !runner.managers?.[systemId]) {
    const manager: RunnerManager = { id: await newRunnerManagerId(), createdAt: now.toISOString(), contactedAt: now.toISOString(), info: infoOf(caller.info), ipAddress: null };
    await addRunnerManager(runner, systemId, manager);
  }
  await recordRunnerContact(runner, now, Math.random, systemId && runner.managers?.[systemId] ? systemId : undefined);
}

function infoOf(info: Record<string, unknown> | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  for (const key of ['name', 'version', 'revision', 'platform', 'architecture', 'executor', 'shell']) {
    if (typeof info?.[key] === 'string') out[key] = info[key];
  }
  return out;
}

export async function runnerForToken(token: string | undefined): Promise<Runner | undefined> {
  return token ? runnerByDigest(digestOf(token)) : undefined;
}

export async function unregisterRunner(runner: Runner): Promise<void> {
  await deleteRunner(runner.tokenDigest);
}

/**
 * Whether a runner may take a job: its tags include the job's, and an untagged job needs
 * `run_untagged`. A `ref_protected` runner also needs the job's ref protected: `pickJob` checks
 * that (it reads the project's protections).
 */
export function runnerMatches(runner: Runner, job: Job): boolean {
  if (!runner.active) return false;
  const tags = job.spec.tags ?? [];
  if (tags.length === 0) return runner.runUntagged;
  return tags.every((tag) => runner.tags.includes(tag));
}

export type JobRequestResult =
  | { result: 'job'; job: Job; token: string; pipeline: Pipeline; project: Project }
  | { result: 'none'; lastUpdate: string }
  /**
   * Jobs were waiting but others took each one first (or the queue was behind): GitLab's 409,
   * which tells the runner to ask again at once, without a `last_update` that would park it.
   */
  | { result: 'conflict' };

/** How many queued jobs one request looks at before answering "nothing". */
const CANDIDATES = 25;

/** The most projects a `last_update` names (beyond, the poll reads the runner, then the versions). */
const LAST_UPDATE_MAX_PROJECTS = 24;

/**
 * The `X-GitLab-Last-Update` a runner gets back (opaque to gitlab-runner, which sends it as
 * `last_update` on its next poll): the scope of the queue version and the version, so that the
 * next poll reads the runner and those versions in one batch: `<id>_<id>…:<version>` (a project
 * runner's projects), `i:<version>` (an instance runner), `g<groupId>:<version>` (a group runner).
 */
export function lastUpdateHeader(scope: QueueScope, version: string): string {
  if (scope.kind === 'instance') return `i:${version}`;
  if (scope.kind === 'group') return `g${scope.groupId}:${version}`;
  return scope.projectIds.length <= LAST_UPDATE_MAX_PROJECTS ? `${scope.projectIds.join('_')}:${version}` : version;
}

/** The scope and version a `last_update` names; undefined for anything else (an older format, a made-up value). */
export function parseLastUpdate(value: string | undefined): { scope: QueueScope; version: string } | undefined {
  const match = /^(i|g\d{1,15}|\d{1,15}(?:_\d{1,15}){0,23}):([0-9a-z]{1,64})$/.exec(value ?? '');
  if (!match) return undefined;
  if (match[1] === 'i') return { scope: { kind: 'instance' }, version: match[2] };
  if (match[1].startsWith('g')) return { scope: { kind: 'group', groupId: Number(match[1].slice(1)) }, version: match[2] };
  const projectIds = match[1].split('_').map(Number);
  if (new Set(projectIds).size !== projectIds.length || projectIds.some((id) => id <= 0)) return undefined;
  return { scope: { kind: 'projects', projectIds }, version: match[2] };
}

const sameScope = (a: QueueScope, b: QueueScope): boolean =>
  a.kind === 'projects' && b.kind === 'projects'
    ? a.projectIds.length === b.projectIds.length && a.projectIds.every((id, index) => id === b.projectIds[index])
    : a.kind === 'group' && b.kind === 'group'
      ? a.groupId === b.groupId
      : a.kind === b.kind;

/**
 * A job request (`POST /jobs/request`) of the runner whose token is given; undefined when the
 * token is no runner's (403). An idle runner sending back the `last_update` it was given costs
 * one BatchGetItem: its runner item and the queue version(s) that value names. When those are
 * still the runner's and no version moved, nothing was queued since it last found nothing:
 * answered without reading the queue. Otherwise (a project enabled or disabled meanwhile, a job
 * queued, no or an unknown `last_update`) the queue is looked at.
 */
export async function requestJob(token: string, lastUpdate: string | undefined, caller: RunnerCaller = {}): Promise<{ runner: Runner; found: JobRequestResult } | undefined> {
  const digest = digestOf(token);
  const told = parseLastUpdate(lastUpdate);
  let runner: Runner | undefined;
  let version: string | undefined;
  if (told) {
    const read = await runnerWithQueueVersion(digest, told.scope);
    runner = read.runner;
    if (runner && sameScope(queueScopeOf(runner), told.scope)) version = read.version;
  } else {
    runner = await runnerByDigest(digest);
  }
  if (!runner) return undefined;
  version ??= await runnerQueueVersion(runner);
  return { runner, found: await pickJob(runner, lastUpdateHeader(queueScopeOf(runner), version), lastUpdate, caller) };
}

/**
 * The seconds a job may run, fixed as a runner takes it (GitLab's `Ci::Builds::TimeoutCalculator`,
 * `Ci::BuildMetadata#update_timeout_state`): its `timeout:`, else the project's `build_timeout`;
 * the runner's `maximum_timeout`, when it has one, caps either.
 */
export function jobTimeout(job: Pick<Job, 'spec'>, project: Project | undefined, runner: Pick<Runner, 'maximumTimeout'>): number {
  const timeout = job.spec.timeout ?? (project ? ciSettingsOf(project).buildTimeout : 3600);
  return runner.maximumTimeout ? Math.min(timeout, runner.maximumTimeout) : timeout;
}

/** How many entries of the instance or a group's queue one request reads at most (tags are matched on them). */
const SHARED_QUEUE_READ = 400;

/**
 * The pending jobs a runner looks at, oldest first (C4, C18): a project runner's projects'
 * queues; an instance runner's queue (the jobs it matches among the oldest); a group runner's
 * group's range of its top-level group's queue (the group's current chain: one GetItem; none when
 * the group is gone).
 */
async function candidatesFor(runner: Runner): Promise<Array<{ pipelineId: number; id: number }>> {
  const type = runnerTypeOf(runner);
  if (type === 'project_type') return runnerQueuedJobs(runner, CANDIDATES);
  const accept = (job: Job) => runnerMatches(runner, job);
  if (type === 'instance_type') return sharedQueuedJobs(CANDIDATES, SHARED_QUEUE_READ, accept);
  const group = await getNamespace(runner.groupId!);
  if (!group || group.kind !== 'group') return [];
  return groupQueuedJobs([...group.ancestorIds].reverse().concat(group.id), CANDIDATES, SHARED_QUEUE_READ, accept);
}

/**
 * Whether an instance or a group runner may still take a job of this project (checked at claim
 * time): an instance runner while the project has shared runners enabled; a group runner while
 * the project is beneath its group and has group runners enabled. A job it may not take leaves that runner queue.
 */
async function openToRunner(runner: Runner, job: Job, project: Project | undefined): Promise<boolean> {
  const type = runnerTypeOf(runner);
  if (type === 'project_type') return true;
  if (type === 'instance_type') {
    if (project && project.sharedRunnersEnabled !== false) return true;
    if (project) await leaveRunnerQueue(job, 'shared');
    return false;
  }
  const namespace = project && project.groupRunnersEnabled !== false ? await getNamespace(project.namespaceId) : undefined;
  if (namespace && (namespace.id === runner.groupId || namespace.ancestorIds.includes(runner.groupId!))) return true;
  if (project) await leaveRunnerQueue(job, 'group');
  return false;
}

/**
 * The oldest pending job of the runner's queue it matches, claimed for it (a job another
 * runner claimed first is passed over); `current` is the runner's `last_update` as of now. Each
 * project is read once, before its first job is claimed (its `build_timeout` fixes the job's timeout).
 */
async function pickJob(runner: Runner, current: string, lastUpdate: string | undefined, caller: RunnerCaller): Promise<JobRequestResult> {
  const now = new Date();
  await runnerCalled(runner, caller, now);
  if (lastUpdate === current) return { result: 'none', lastUpdate: current };
  let lost = false;
  const protections: RefProtections = new Map();
  const projects = new Map<number, Promise<Project | undefined>>();
  const projectOf = (id: number) => {
    let project = projects.get(id);
    if (!project) projects.set(id, (project = getProject(id)));
    return project;
  };
  for (const candidate of await candidatesFor(runner)) {
    const job = await getJobIn(candidate.pipelineId, candidate.id);
    if (job && !runnerMatches(runner, job)) continue;
    if (job && runner.accessLevel === 'ref_protected' && !(await refProtected(job, protections))) continue;
    if (!job || job.status !== 'pending') {
      lost = true;
      continue;
    }
    const project = await projectOf(job.projectId);
    if (!(await openToRunner(runner, job, project))) continue;
    const token = `glcbt-${randomBytes(20).toString('base64url')}`;
    const claimed = await claimJob(job, runner.id, digestOf(token), now.toISOString(), jobTimeout(job, project, runner));
    if (!claimed) {
      lost = true;
      continue;
    }
    // A project beneath a group being deleted is gone: its job is not handed out (the deletion removes it).
    const [pipeline, namespace] = await Promise.all([readPipeline(job.pipelineId), project && getNamespace(project.namespaceId)]);
    await jobChanged(claimed, pipeline?.pipeline);
    if (!pipeline || !project || !namespace) continue;
    await processPipeline(job.pipelineId);
    return { result: 'job', job: claimed, token, pipeline: pipeline.pipeline, project };
  }
  return lost ? { result: 'conflict' } : { result: 'none', lastUpdate: current };
}

async function getJobIn(pipelineId: number, jobId: number): Promise<Job | undefined> {
  const read = await getJob(jobId);
  return read?.pipelineId === pipelineId ? read : undefined;
}

/** The job a runner call names, when the token given is the job's. */
export async function jobForToken(jobId: number, token: string | undefined): Promise<Job | undefined> {
  if (!token) return undefined;
  const job = await getJob(jobId);
  if (!job?.tokenDigest) return undefined;
  const given = Buffer.from(digestOf(token));
  const stored = Buffer.from(job.tokenDigest);
  return given.length === stored.length && timingSafeEqual(given, stored) ? job : undefined;
}

export const FAILURE_REASONS = [
  'unknown_failure', 'script_failure', 'api_failure', 'stuck_or_timeout_failure', 'runner_system_failure', 'missing_dependency_failure',
  'runner_unsupported', 'stale_schedule', 'job_execution_timeout', 'archived_failure', 'unmet_prerequisites', 'scheduler_failure',
  'data_integrity_failure', 'forward_deployment_failure', 'user_blocked', 'project_deleted', 'insufficient_bridge_permissions',
  'downstream_bridge_project_not_found', 'invalid_bridge_trigger', 'bridge_pipeline_is_child_pipeline', 'downstream_pipeline_creation_failed',
  'secrets_provider_not_found', 'reached_max_descendant_pipelines_depth', 'ip_restriction_failure', 'reached_max_pipeline_hierarchy_size',
  'job_token_expired',
] as const;

/**
 * Ends a running job with the runner's verdict: success, or failed with a reason (an exit code
 * listed in `allow_failure: exit_codes` is allowed to fail; `retry:` makes a new attempt), through
 * {@link endJob} (token revoked, trace archived, pipeline processed). Answers the job as it is.
 */
export async function finishJob(job: Job, state: 'success' | 'failed', details: { failureReason?: string; exitCode?: number | null }): Promise<Job> {
  const exitCode = details.exitCode ?? null;
  const verdict: JobVerdict =
    state === 'success'
      ? { status: 'success', exitCode }
      : {
          status: 'failed',
          failureReason: (FAILURE_REASONS as readonly string[]).includes(details.failureReason ?? '') ? details.failureReason! : 'script_failure',
          exitCode,
          allowFailure: job.allowFailure || (exitCode !== null && (job.spec.allowFailureExitCodes ?? []).includes(exitCode)),
        };
  return (await endJob(job, verdict, ['running'])) ?? (await getJob(job.id)) ?? job;
}

export type TraceAppend = { result: 'appended'; length: number } | { result: 'range_not_satisfiable'; length: number };

/**
 * Appends a chunk of trace at byte `start` (the `Content-Range` the runner sent): it must start
 * exactly where the trace ends (a gap or an overlap is refused with the current length).
 */
export async function appendTrace(job: Job, start: number, data: Buffer): Promise<TraceAppend> {
  if (start !== job.traceLength) return { result: 'range_not_satisfiable', length: job.traceLength };
  if (data.length === 0) return { result: 'appended', length: job.traceLength };
  const end = start + data.length;
  // The range is reserved first: of two appends at one offset one wins, and its chunk is the one written.
  const updated = await moveTraceEnd(job, start, end);
  if (!updated) {
    const current = await getJob(job.id);
    return { result: 'range_not_satisfiable', length: current?.traceLength ?? job.traceLength };
  }
  try {
    await putTraceChunk(job.id, start, data);
  } catch (error) {
    await moveTraceEnd(job, end, start);
    throw error;
  }
  return { result: 'appended', length: updated.traceLength };
}

/** Stores a job's artifacts archive and records it on the job (with its expiry). */
export async function storeArtifacts(job: Job, file: { filename: string; data: Buffer; contentType: string }, options: { format?: string; expireIn?: string }): Promise<Job | undefined> {
  await putArtifacts(job.id, file.data, file.contentType || 'application/zip');
  const expireIn = options.expireIn ?? job.spec.artifacts?.expireIn;
  const seconds = expireIn && expireIn !== 'never' ? parseDuration(expireIn) : undefined;
  // GitLab's default expiry for artifacts without `expire_in` is 30 days.
  const expireAt = expireIn === 'never' ? null : new Date(Date.now() + (seconds ?? 30 * 86_400) * 1000).toISOString();
  const artifacts: JobArtifacts = { filename: file.filename || 'artifacts.zip', size: file.data.length, format: options.format ?? 'zip', expireAt };
  return updateJob(job, { artifacts });
}

/**
 * The most a JUnit report may hold once decompressed: it is read whole in memory when uploaded (a
 * 10 MB report of 75,000 cases takes about 90 MB of heap and 2 s), its cases kept; a larger one
 * leaves the job's suite errored.
 */
export const JUNIT_MAX_BYTES = 10 * 1024 * 1024;

/** The report's text: gitlab-runner sends it gzipped (one member per file, read as one text), else as is. */
function junitText(data: Buffer, format: string | undefined): string {
  const raw = format === 'gzip' ? gunzipSync(data, { maxOutputLength: JUNIT_MAX_BYTES + 1 }) : data;
  if (raw.length > JUNIT_MAX_BYTES) throw new RangeError('too large');
  return new TextDecoder().decode(raw);
}

/**
 * Reads a job's uploaded JUnit report (`artifact_type=junit`) and keeps what the pipeline's test
 * reports show: its cases as an S3 object, its counts on the job. A report that cannot be read
 * (not gzip, too large, not XML) is kept as an errored suite, as GitLab shows it.
 */
export async function storeTestReport(job: Job, data: Buffer, format: string | undefined): Promise<Job | undefined> {
  let result: JobTestResult;
  try {
    result = parseJunit(junitText(data, format));
  } catch (error) {
    const tooLarge = error instanceof RangeError;
    const message = tooLarge ? `the report is larger than ${JUNIT_MAX_BYTES} bytes` : (error as Error).message;
    result = { suiteError: `JUnit data parsing failed: ${message}`, time: 0, cases: [] };
  }
  await putTestReport(job.id, result);
  return updateJob(job, { testReport: summarize(result) }, ['running']);
}
