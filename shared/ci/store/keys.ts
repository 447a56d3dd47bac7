/**
 * The CI feature's keys: every key, index attribute and collection of its items is built here, and
 * only here. Its access patterns are listed in ACCESS_PATTERNS.md beside this folder.
 *
 * A pipeline and its jobs share one partition (`CI_PIPELINE#<id>`), so processing a pipeline reads
 * all of it with one consistent Query. A job is found by id through its pointer (`CI_JOB#<id>`).
 */
import { indexCollection, pad, tableCollection, type Collection, type Key, type KeySpace } from '../../platform/dynamo/keys';
import { readYourWrites } from '../../platform/dynamo/recent';

export const ciKeys = {
  /** A pipeline (the head item of its partition). */
  pipeline: (pipelineId: number): Key => ({ PK: `CI_PIPELINE#${pipelineId}`, SK: 'PIPELINE' }),
  /** A job, in its pipeline's partition. */
  job: (pipelineId: number, jobId: number): Key => ({ PK: `CI_PIPELINE#${pipelineId}`, SK: `JOB#${pad(jobId)}` }),
  /**
   * The claim of a generic commit status's name (its user, ref and name) in a pipeline: the newest
   * status of that name, written with it, so two reports of a new status make one.
   */
  statusClaim: (pipelineId: number, userId: number, ref: string, name: string): Key => ({ PK: `CI_PIPELINE#${pipelineId}`, SK: `STATUS#${userId}#${ref}\u0001${name}` }),
  /** The external pipeline a commit's statuses on a ref were put in (`POST /projects/:id/statuses/:sha`), claimed before it is created. */
  externalPipelineClaim: (projectId: number, sha: string, ref: string): Key => ({ PK: `CI_EXTERNAL_PIPELINE#${projectId}#${sha}`, SK: `REF#${ref}` }),
  /** Where a job is, by its id (`PUT /jobs/:id`, `GET /projects/:id/jobs/:job_id`). */
  jobPointer: (jobId: number): Key => ({ PK: `CI_JOB#${jobId}`, SK: 'JOB' }),
  /** A running job's token, by its SHA-256 digest (the runner API and git clones); removed when the job ends. */
  jobToken: (digest: string): Key => ({ PK: `CI_JOB_TOKEN#${digest}`, SK: 'TOKEN' }),
  /** A runner, by the digest of its token (every runner call presents it). */
  runner: (digest: string): Key => ({ PK: `CI_RUNNER#${digest}`, SK: 'RUNNER' }),
  /** Where a runner is, by its id (the Runners API, a job's `runner`): the head of the runner's id partition. */
  runnerPointer: (runnerId: number): Key => ({ PK: `CI_RUNNER_ID#${runnerId}`, SK: 'RUNNER' }),
  /** A project a runner is enabled in (its owner project included), in the runner's id partition. */
  runnerProject: (runnerId: number, projectId: number): Key => ({ PK: `CI_RUNNER_ID#${runnerId}`, SK: `PROJECT#${pad(projectId)}` }),
  /** A job the runner took (`GET /runners/:id/jobs`), in the runner's id partition. */
  runnerJob: (runnerId: number, jobId: number): Key => ({ PK: `CI_RUNNER_ID#${runnerId}`, SK: `JOB#${pad(jobId)}` }),
  /** The project's queue version: changes whenever a job of the project becomes pending (`X-GitLab-Last-Update`). */
  queueVersion: (projectId: number): Key => ({ PK: `CI_QUEUE_VERSION#${projectId}`, SK: 'QUEUE' }),
  /** The instance runners' queue version: changes whenever a job of a project with shared runners enabled becomes pending. */
  instanceQueueVersion: (): Key => ({ PK: 'CI_QUEUE_VERSION#instance', SK: 'QUEUE' }),
  /** A top-level group's queue version: changes whenever a job of a project beneath it becomes pending (its group runners' `X-GitLab-Last-Update`). */
  groupQueueVersion: (rootGroupId: number): Key => ({ PK: `CI_QUEUE_VERSION#group${rootGroupId}`, SK: 'QUEUE' }),
  /** An instance runner's entry in the list of instance runners, in its id partition. */
  runnerInstance: (runnerId: number): Key => ({ PK: `CI_RUNNER_ID#${runnerId}`, SK: 'INSTANCE' }),
  /** A group runner's entry in its group's runner list, in its id partition. */
  runnerGroup: (runnerId: number, groupId: number): Key => ({ PK: `CI_RUNNER_ID#${runnerId}`, SK: `GROUP#${pad(groupId)}` }),
  /**
   * A CI/CD variable of a project or a group, one per (key, environment scope), in its owner's
   * variables partition. Neither a key (`[A-Za-z0-9_]`) nor a scope holds `#`, and `#` sorts
   * before every character a key may hold: the partition lists by key, then by scope.
   */
  variable: (owner: VariableOwner, key: string, environmentScope: string): Key => ({ PK: variablesPk(owner), SK: `VARIABLE#${key}#${environmentScope}` }),
  /** How many variables the owner has (its plan limit is checked by the write that adds one). */
  variableCount: (owner: VariableOwner): Key => ({ PK: variablesPk(owner), SK: 'COUNT' }),
  /** A pipeline trigger token of a project, by id, in the project's triggers partition. */
  trigger: (projectId: number, triggerId: number): Key => ({ PK: `CI_TRIGGERS#${projectId}`, SK: `TRIGGER#${pad(triggerId)}` }),
  /** Where a trigger token is, by the SHA-256 digest of its token (`POST …/trigger/pipeline` presents it). */
  triggerToken: (digest: string): Key => ({ PK: `CI_TRIGGER_TOKEN#${digest}`, SK: 'TRIGGER' }),
  /**
   * A project's CI/CD job token scope (GitLab's `ci_inbound_job_token_scope_enabled`, and how many
   * allowlist entries it has), in the project's partition: absent until first changed (inbound
   * enabled, no entries). Deleted with the project's partition.
   */
  jobTokenScope: (projectId: number): Key => ({ PK: `PROJECT#${projectId}`, SK: 'CI_JOB_TOKEN_SCOPE' }),
  /** A project or group on a project's job token inbound allowlist, in the project's partition. */
  jobTokenAllowlistEntry: (projectId: number, target: AllowlistTarget): Key => ({ PK: `PROJECT#${projectId}`, SK: `${allowlistPrefix(target.kind)}${pad(target.id)}` }),
  /** An environment of a project, by id, in the project's environments partition. */
  environment: (projectId: number, environmentId: number): Key => ({ PK: `CI_ENVIRONMENTS#${projectId}`, SK: `ENVIRONMENT#${pad(environmentId)}` }),
  /** An environment's name, claimed in the same partition (names are unique in a project): where a name's environment is. */
  environmentName: (projectId: number, name: string): Key => ({ PK: `CI_ENVIRONMENTS#${projectId}`, SK: `NAME#${name}` }),
  /** A deployment of a project, by id, in the project's deployments partition. */
  deployment: (projectId: number, deploymentId: number): Key => ({ PK: `CI_DEPLOYMENTS#${projectId}`, SK: `DEPLOYMENT#${pad(deploymentId)}` }),
  /** A deployment in its project's list by ref (`order_by=ref`), in the deployments partition: a ref never changes, so the entry is written once. */
  deploymentRef: (projectId: number, ref: string, deploymentId: number): Key => ({ PK: `CI_DEPLOYMENTS#${projectId}`, SK: `REF#${ref}\u0001${pad(deploymentId)}` }),
  /** A pipeline schedule of a project (with its variables), by id, in the project's schedules partition. */
  schedule: (projectId: number, scheduleId: number): Key => ({ PK: `CI_SCHEDULES#${projectId}`, SK: `SCHEDULE#${pad(scheduleId)}` }),
  /**
   * A ref's latest successful pipeline (GitLab's `Ci::Ref` and `latest_successful_for_ref`), in
   * its project's refs partition: what artifacts by ref read, and what keeps the newest artifacts.
   */
  ref: (projectId: number, ref: string): Key => ({ PK: `CI_REFS#${projectId}`, SK: `REF#${ref}` }),
  /** A pipeline a schedule created (`GET …/pipeline_schedules/:id/pipelines`, `last_pipeline`), in the schedule's own partition. */
  schedulePipeline: (scheduleId: number, pipelineId: number): Key => ({ PK: `CI_SCHEDULE#${scheduleId}`, SK: `PIPELINE#${pad(pipelineId)}` }),
} as const;

/** What a job token allowlist entry lets in: the jobs of a project, or of every project beneath a group. */
export interface AllowlistTarget {
  kind: 'project' | 'group';
  id: number;
}

const allowlistPrefix = (kind: AllowlistTarget['kind']) => (kind === 'project' ? 'CI_JOB_TOKEN_ALLOW#PROJECT#' : 'CI_JOB_TOKEN_ALLOW#GROUP#');

/**
 * Whose CI/CD variables: a project's (GitLab's `Ci::Variable`), a group's (`Ci::GroupVariable`) or
 * the instance's (`Ci::InstanceVariable`, id 0), each in a partition of its own.
 */
export interface VariableOwner {
  kind: 'project' | 'group' | 'instance';
  id: number;
}

const variablesPk = (owner: VariableOwner) =>
  owner.kind === 'project' ? `CI_VARIABLES#${owner.id}` : owner.kind === 'group' ? `CI_GROUP_VARIABLES#${owner.id}` : 'CI_INSTANCE_VARIABLES';

export const ciIndexKeys = {
  /** A pipeline in its project's list (GSI1, newest first by id). */
  projectPipeline: (projectId: number, pipelineId: number) => ({ GSI1PK: `CI_PROJECT_PIPELINES#${projectId}`, GSI1SK: pad(pipelineId) }),
  /** A job in its project's list (GSI1). */
  projectJob: (projectId: number, jobId: number) => ({ GSI1PK: `CI_PROJECT_JOBS#${projectId}`, GSI1SK: pad(jobId) }),
  /** A job in its project's list of jobs in its status (GSI5, `GET /projects/:id/jobs?scope=`), moved by every status change. */
  projectJobByStatus: (projectId: number, status: string, jobId: number) => ({ GSI5PK: projectJobsByStatus(projectId, status), GSI5SK: pad(jobId) }),
  /** A pipeline in its commit's list (GSI5, a commit's statuses). */
  projectPipelineBySha: (projectId: number, sha: string, pipelineId: number) => ({ GSI5PK: `CI_PROJECT_PIPELINES_BY_SHA#${projectId}#${sha}`, GSI5SK: pad(pipelineId) }),
  /** A pipeline in its project's list of pipelines in its status (GSI2, `status=`, `scope=running|pending|finished`). */
  projectPipelineByStatus: (projectId: number, status: string, pipelineId: number) => ({ GSI2PK: projectPipelinesByStatus(projectId, status), GSI2SK: pad(pipelineId) }),
  /**
   * A pipeline in its project's list of pipelines of its ref (GSI3, `ref=`, a merge request's
   * head pipeline): branches and tags of one name share it, as GitLab's `ref` filter matches both.
   */
  projectPipelineByRef: (projectId: number, ref: string, pipelineId: number) => ({ GSI3PK: projectPipelinesByRef(projectId, ref), GSI3SK: pad(pipelineId) }),
  /**
   * A merge request pipeline in its project's list of the pipelines of its own ref
   * (`refs/merge-requests/<iid>/head`, GSI4, `ref=refs/merge-requests/<iid>/head`); its GSI3 entry
   * is its source branch's (what the merge request's head pipeline reads).
   */
  projectPipelineByMergeRequestRef: (projectId: number, ref: string, pipelineId: number) => ({ GSI4PK: projectMergeRequestPipelines(projectId, ref), GSI4SK: pad(pipelineId) }),
  /** A runner in a project's list (GSI1), on the runner ↔ project item. */
  projectRunner: (projectId: number, runnerId: number) => ({ GSI1PK: `CI_PROJECT_RUNNERS#${projectId}`, GSI1SK: pad(runnerId) }),
  /** A runner in the list of every runner (GSI1, `GET /runners/all`), on its pointer. */
  anyRunner: (runnerId: number) => ({ GSI1PK: 'CI_ALL_RUNNERS', GSI1SK: pad(runnerId) }),
  /** A pending job in its project's queue (GSI2), only while pending. */
  queuedJob: (projectId: number, jobId: number) => ({ GSI2PK: `CI_QUEUE#${projectId}`, GSI2SK: pad(jobId) }),
  /**
   * A pending job of a project with shared runners enabled, in the instance runners' queue (GSI6),
   * only while pending: spread over {@link CI_SHARED_QUEUE_SHARDS} partitions by job id.
   */
  sharedQueuedJob: (jobId: number) => ({ GSI6PK: `CI_SHARED_QUEUE#${jobId % CI_SHARED_QUEUE_SHARDS}`, GSI6SK: pad(jobId) }),
  /**
   * A pending job of a project in a group, in its top-level group's queue (GSI7), only while
   * pending: sorted by the project's group chain (ids from the top, `/`-separated, then `/#`), then job id,
   * so the pending jobs of a group and its descendants are one key range (`<chain>/`).
   */
  groupQueuedJob: (groupChain: readonly number[], jobId: number) => ({ GSI7PK: `CI_GROUP_QUEUE#${groupChain[0]}`, GSI7SK: `${groupQueuePrefix(groupChain)}/#${pad(jobId)}` }),
  /** An instance runner in the list of instance runners (GSI1). */
  instanceRunner: (runnerId: number) => ({ GSI1PK: 'CI_INSTANCE_RUNNERS', GSI1SK: pad(runnerId) }),
  /** A group runner in its group's list (GSI1). */
  groupRunner: (groupId: number, runnerId: number) => ({ GSI1PK: `CI_GROUP_RUNNERS#${groupId}`, GSI1SK: pad(runnerId) }),
  /**
   * A pending or running job's next deadline (GSI3), sorted by it: what the scheduler looks at
   * (`config/scheduler.ts`). Spread over {@link CI_SCHEDULE_SHARDS} partitions by job id.
   */
  jobDeadline: (jobId: number, at: string) => ({ GSI3PK: `CI_DEADLINES#${jobId % CI_SCHEDULE_SHARDS}`, GSI3SK: `${at}#${pad(jobId)}` }),
  /** A job's artifacts that expire (GSI4), sorted by expiry; absent when kept or never expiring. */
  artifactExpiry: (jobId: number, expireAt: string) => ({ GSI4PK: `CI_ARTIFACT_EXPIRY#${jobId % CI_SCHEDULE_SHARDS}`, GSI4SK: `${expireAt}#${pad(jobId)}` }),
  /** An environment in its project's list of environments in its state (GSI1, `states=`), moved by every change of state. */
  environmentByState: (projectId: number, state: string, environmentId: number) => ({ GSI1PK: environmentsByState(projectId, state), GSI1SK: pad(environmentId) }),
  /**
   * When the scheduler next acts on an environment (GSI3), sorted by it: an available one's
   * auto-stop time (`auto_stop_in`), a stopped one's scheduled deletion (`review_apps`). Spread
   * over {@link CI_SCHEDULE_SHARDS} partitions by id; absent when neither applies.
   */
  environmentDue: (environmentId: number, at: string) => ({ GSI3PK: `CI_ENV_DUE#${environmentId % CI_SCHEDULE_SHARDS}`, GSI3SK: `${at}#${pad(environmentId)}` }),
  /** An environment in its project's list by lowercased name (GSI2, `search=`: GitLab's case-insensitive prefix match). */
  environmentByName: (projectId: number, name: string, environmentId: number) => ({ GSI2PK: `CI_PROJECT_ENVIRONMENT_NAMES#${projectId}`, GSI2SK: `${name.toLowerCase()}\u0001${pad(environmentId)}` }),
  /**
   * A deployment's entries, each moved by the change of status that writes it: its environment's
   * list (GSI1), its project's list of its status (GSI2), its environment's list of its status
   * (GSI3), its project's list by last update (GSI4), and, while successful, its project's list
   * by when it finished (GSI5).
   */
  deployment: (deployment: { projectId: number; environmentId: number; id: number; status: string; updatedAt: string; finishedAt: string | null }) => ({
    GSI1PK: `CI_ENV_DEPLOYMENTS#${deployment.environmentId}`,
    GSI1SK: pad(deployment.id),
    GSI2PK: deploymentsByStatus(deployment.projectId, deployment.status),
    GSI2SK: pad(deployment.id),
    GSI3PK: environmentDeploymentsByStatus(deployment.environmentId, deployment.status),
    GSI3SK: pad(deployment.id),
    GSI4PK: `CI_PROJECT_DEPLOYMENTS_BY_UPDATE#${deployment.projectId}`,
    GSI4SK: `${deployment.updatedAt}#${pad(deployment.id)}`,
    ...(deployment.status === 'success' && deployment.finishedAt
      ? { GSI5PK: `CI_PROJECT_DEPLOYMENTS_FINISHED#${deployment.projectId}`, GSI5SK: `${deployment.finishedAt}#${pad(deployment.id)}` }
      : {}),
  }),
  /**
   * An active pipeline schedule's next run (GSI3), sorted by it: what the scheduler runs when it
   * passed. Spread over {@link CI_SCHEDULE_SHARDS} partitions by schedule id; absent while inactive.
   */
  scheduleNextRun: (scheduleId: number, at: string) => ({ GSI3PK: `CI_SCHEDULES_DUE#${scheduleId % CI_SCHEDULE_SHARDS}`, GSI3SK: `${at}#${pad(scheduleId)}` }),
} as const;

const environmentsByState = (projectId: number, state: string) => `CI_PROJECT_ENVIRONMENTS_BY_STATE#${projectId}#${state}`;
const deploymentsByStatus = (projectId: number, status: string) => `CI_PROJECT_DEPLOYMENTS_BY_STATUS#${projectId}#${status}`;
const environmentDeploymentsByStatus = (environmentId: number, status: string) => `CI_ENV_DEPLOYMENTS_BY_STATUS#${environmentId}#${status}`;

/*
 * The project id is digits and ends at the first `#`, so a status or ref after it (a ref may hold
 * `#` too) never makes one project's partition another's.
 */
const projectJobsByStatus = (projectId: number, status: string) => `CI_PROJECT_JOBS_BY_STATUS#${projectId}#${status}`;
const projectPipelinesByStatus = (projectId: number, status: string) => `CI_PROJECT_PIPELINES_BY_STATUS#${projectId}#${status}`;
const projectPipelinesByRef = (projectId: number, ref: string) => `CI_PROJECT_PIPELINES_BY_REF#${projectId}#${ref}`;
const projectMergeRequestPipelines = (projectId: number, ref: string) => `CI_PROJECT_MR_PIPELINES#${projectId}#${ref}`;

/**
 * How many partitions the scheduler's indexes (deadlines, artifact expiry) are spread over, so
 * that job state changes do not all write one index partition; each run of the scheduler reads
 * every shard.
 */
export const CI_SCHEDULE_SHARDS = 4;

/** Partitions of the instance runners' queue (GSI6): every enqueue of the instance spread over them. */
export const CI_SHARED_QUEUE_SHARDS = 4;

/** A group chain (group ids from the top-level group down) as the group queue's sort key starts: `1/5/9`. */
const groupQueuePrefix = (groupChain: readonly number[]): string => groupChain.join('/');

/** Sort keys of deadlines and expiries up to `now` (ISO) sort before this bound (`#` < `$`). */
const dueBefore = (now: string) => `${now}$`;

export const ciCollections = {
  /** A pipeline and its jobs (consistent). */
  pipelinePartition: (pipelineId: number): Collection => tableCollection(`CI_PIPELINE#${pipelineId}`, ''),
  /** A pipeline's jobs. */
  pipelineJobs: (pipelineId: number): Collection => tableCollection(`CI_PIPELINE#${pipelineId}`, 'JOB#'),
  projectPipelines: (projectId: number): Collection => indexCollection('GSI1', `CI_PROJECT_PIPELINES#${projectId}`),
  /** A project's jobs by id (GSI1); from `fromJobId` on, when given (a walk resumed). */
  projectJobs: (projectId: number, fromJobId?: number): Collection =>
    indexCollection('GSI1', `CI_PROJECT_JOBS#${projectId}`, fromJobId === undefined ? {} : { from: pad(fromJobId) }),
  /** A project's jobs in one status, by id (GSI5); several statuses are merged by id. */
  projectJobsByStatus: (projectId: number, status: string): Collection => indexCollection('GSI5', projectJobsByStatus(projectId, status)),
  /** A project's pipelines of one commit, by id (GSI5). */
  projectPipelinesBySha: (projectId: number, sha: string): Collection => indexCollection('GSI5', `CI_PROJECT_PIPELINES_BY_SHA#${projectId}#${sha}`),
  /** A project's pipelines in one status, by id (GSI2). */
  projectPipelinesByStatus: (projectId: number, status: string): Collection => indexCollection('GSI2', projectPipelinesByStatus(projectId, status)),
  /** A project's pipelines of one ref (branch or tag name), by id (GSI3). */
  projectPipelinesByRef: (projectId: number, ref: string): Collection => indexCollection('GSI3', projectPipelinesByRef(projectId, ref)),
  /** A project's merge request pipelines of one merge request ref (`refs/merge-requests/<iid>/head`), by id (GSI4). */
  projectMergeRequestPipelines: (projectId: number, ref: string): Collection => indexCollection('GSI4', projectMergeRequestPipelines(projectId, ref)),
  projectRunners: (projectId: number): Collection => indexCollection('GSI1', `CI_PROJECT_RUNNERS#${projectId}`),
  /** Every runner, by id (GSI1). */
  allRunners: (): Collection => indexCollection('GSI1', 'CI_ALL_RUNNERS'),
  /** A runner's pointer, projects and jobs. */
  runnerPartition: (runnerId: number): Collection => tableCollection(`CI_RUNNER_ID#${runnerId}`, ''),
  runnerProjects: (runnerId: number): Collection => tableCollection(`CI_RUNNER_ID#${runnerId}`, 'PROJECT#'),
  runnerJobs: (runnerId: number): Collection => tableCollection(`CI_RUNNER_ID#${runnerId}`, 'JOB#'),
  queue: (projectId: number): Collection => indexCollection('GSI2', `CI_QUEUE#${projectId}`),
  /** One shard of the instance runners' queue, by job id (GSI6). */
  sharedQueue: (shard: number): Collection => indexCollection('GSI6', `CI_SHARED_QUEUE#${shard}`),
  /** The pending jobs of a group's projects and its descendants' (GSI7: its top-level group's queue, the group's key range). */
  groupQueue: (groupChain: readonly number[]): Collection => ({ ...indexCollection('GSI7', `CI_GROUP_QUEUE#${groupChain[0]}`), prefix: `${groupQueuePrefix(groupChain)}/` }),
  /** The instance runners, by id (GSI1). */
  instanceRunners: (): Collection => indexCollection('GSI1', 'CI_INSTANCE_RUNNERS'),
  /** A group's own runners, by id (GSI1). */
  groupRunners: (groupId: number): Collection => indexCollection('GSI1', `CI_GROUP_RUNNERS#${groupId}`),
  /** Deadlines of one shard that passed at `now`, earliest first (GSI3). */
  dueDeadlines: (shard: number, now: string): Collection => indexCollection('GSI3', `CI_DEADLINES#${shard}`, { below: dueBefore(now) }),
  /** Artifacts of one shard that expired at `now`, earliest first (GSI4). */
  expiredArtifacts: (shard: number, now: string): Collection => indexCollection('GSI4', `CI_ARTIFACT_EXPIRY#${shard}`, { below: dueBefore(now) }),
  /** A project's or a group's CI/CD variables, by key then environment scope. */
  variables: (owner: VariableOwner): Collection => tableCollection(variablesPk(owner), 'VARIABLE#'),
  /** An owner's variables of one key, one per environment scope. */
  variablesOfKey: (owner: VariableOwner, key: string): Collection => tableCollection(variablesPk(owner), `VARIABLE#${key}#`),
  /** Everything of an owner's variables partition (its variables and their count): what its deletion removes. */
  variablesPartition: (owner: VariableOwner): Collection => tableCollection(variablesPk(owner), ''),
  /** A project's trigger tokens, by id. */
  triggers: (projectId: number): Collection => tableCollection(`CI_TRIGGERS#${projectId}`, 'TRIGGER#'),
  /** A project's refs with a successful pipeline (their latest), by ref. */
  refs: (projectId: number): Collection => tableCollection(`CI_REFS#${projectId}`, 'REF#'),
  /** A project's pipeline schedules, by id. */
  schedules: (projectId: number): Collection => tableCollection(`CI_SCHEDULES#${projectId}`, 'SCHEDULE#'),
  /** The pipelines a schedule created, by id. */
  schedulePipelines: (scheduleId: number): Collection => tableCollection(`CI_SCHEDULE#${scheduleId}`, 'PIPELINE#'),
  /** Active schedules of one shard whose next run passed at `now`, earliest first (GSI3). */
  dueSchedules: (shard: number, now: string): Collection => indexCollection('GSI3', `CI_SCHEDULES_DUE#${shard}`, { below: dueBefore(now) }),
  /** A project's job token allowlist entries of one kind (projects or groups), by target id. */
  jobTokenAllowlist: (projectId: number, kind: AllowlistTarget['kind']): Collection => tableCollection(`PROJECT#${projectId}`, allowlistPrefix(kind)),
  /** A project's environments, by id. */
  environments: (projectId: number): Collection => tableCollection(`CI_ENVIRONMENTS#${projectId}`, 'ENVIRONMENT#'),
  /** Everything of a project's environments partition (environments and their names): what the project's deletion removes. */
  environmentsPartition: (projectId: number): Collection => tableCollection(`CI_ENVIRONMENTS#${projectId}`, ''),
  /** A project's environments in one state, by id (GSI1). */
  environmentsByState: (projectId: number, state: string): Collection => indexCollection('GSI1', environmentsByState(projectId, state)),
  /** A project's environments whose lowercased name starts with `prefix`, by name (GSI2). */
  environmentsByNamePrefix: (projectId: number, prefix: string): Collection => ({ ...indexCollection('GSI2', `CI_PROJECT_ENVIRONMENT_NAMES#${projectId}`), prefix: prefix.toLowerCase() }),
  /** Environments of one shard due at `now` (to stop, or to delete), earliest first (GSI3). */
  dueEnvironments: (shard: number, now: string): Collection => indexCollection('GSI3', `CI_ENV_DUE#${shard}`, { below: dueBefore(now) }),
  /** A project's deployments, by id. */
  deployments: (projectId: number): Collection => tableCollection(`CI_DEPLOYMENTS#${projectId}`, 'DEPLOYMENT#'),
  /** A project's deployments by ref, then id (their ref entries). */
  deploymentsByRef: (projectId: number): Collection => tableCollection(`CI_DEPLOYMENTS#${projectId}`, 'REF#'),
  /** Everything of a project's deployments partition (deployments and their ref entries): what the project's deletion removes. */
  deploymentsPartition: (projectId: number): Collection => tableCollection(`CI_DEPLOYMENTS#${projectId}`, ''),
  /** An environment's deployments, by id (GSI1). */
  environmentDeployments: (environmentId: number): Collection => indexCollection('GSI1', `CI_ENV_DEPLOYMENTS#${environmentId}`),
  /** A project's deployments in one status, by id (GSI2). */
  deploymentsByStatus: (projectId: number, status: string): Collection => indexCollection('GSI2', deploymentsByStatus(projectId, status)),
  /** An environment's deployments in one status, by id (GSI3). */
  environmentDeploymentsByStatus: (environmentId: number, status: string): Collection => indexCollection('GSI3', environmentDeploymentsByStatus(environmentId, status)),
  /** A project's deployments by last update, then id (GSI4), within `[from, below)` when given (ISO times). */
  deploymentsByUpdate: (projectId: number, range: { from?: string; below?: string } = {}): Collection =>
    indexCollection('GSI4', `CI_PROJECT_DEPLOYMENTS_BY_UPDATE#${projectId}`, range),
  /** A project's successful deployments by when they finished, then id (GSI5), within `[from, below)` when given. */
  deploymentsByFinish: (projectId: number, range: { from?: string; below?: string } = {}): Collection =>
    indexCollection('GSI5', `CI_PROJECT_DEPLOYMENTS_FINISHED#${projectId}`, range),
} as const;

/**
 * The lists a client reads right after a write (a pipeline created, then listed; a job queued,
 * then requested by a runner told the queue moved) show it at once (`recent.ts`).
 */
readYourWrites('CI_PROJECT_ENVIRONMENTS_BY_STATE#', 'CI_PROJECT_ENVIRONMENT_NAMES#', 'CI_ENV_DEPLOYMENTS#', 'CI_PROJECT_DEPLOYMENTS_BY_STATUS#', 'CI_ENV_DEPLOYMENTS_BY_STATUS#', 'CI_PROJECT_DEPLOYMENTS_BY_UPDATE#', 'CI_PROJECT_DEPLOYMENTS_FINISHED#');
readYourWrites('CI_PROJECT_PIPELINES#', 'CI_PROJECT_JOBS#', 'CI_PROJECT_PIPELINES_BY_STATUS#', 'CI_PROJECT_PIPELINES_BY_REF#', 'CI_PROJECT_MR_PIPELINES#', 'CI_PROJECT_JOBS_BY_STATUS#', 'CI_QUEUE#', 'CI_PROJECT_PIPELINES_BY_SHA#');
readYourWrites('CI_SHARED_QUEUE#', 'CI_GROUP_QUEUE#');

export const CI_SEQUENCES = {
  pipelines: 'ci_pipelines',
  jobs: 'ci_jobs',
  runners: 'ci_runners',
  runnerManagers: 'ci_runner_managers',
  triggers: 'ci_triggers',
  schedules: 'ci_pipeline_schedules',
  environments: 'ci_environments',
  deployments: 'ci_deployments',
  pipelineIids: (projectId: number) => `ci_pipeline_iids#${projectId}`,
  deploymentIids: (projectId: number) => `ci_deployment_iids#${projectId}`,
} as const;

export const keySpace: KeySpace = {
  partitions: ['CI_PIPELINE#', 'CI_JOB#', 'CI_JOB_TOKEN#', 'CI_RUNNER#', 'CI_RUNNER_ID#', 'CI_QUEUE_VERSION#', 'CI_VARIABLES#', 'CI_GROUP_VARIABLES#', 'CI_TRIGGERS#', 'CI_TRIGGER_TOKEN#', 'CI_INSTANCE_VARIABLES', 'CI_ENVIRONMENTS#', 'CI_DEPLOYMENTS#', 'CI_SCHEDULES#', 'CI_SCHEDULE#', 'CI_REFS#', 'CI_EXTERNAL_PIPELINE#'],
  sortKeys: {
    'CI_PIPELINE#': ['PIPELINE', 'JOB#', 'STATUS#'],
    'CI_EXTERNAL_PIPELINE#': ['REF#'],
    'CI_JOB#': ['JOB'],
    'CI_JOB_TOKEN#': ['TOKEN'],
    'CI_RUNNER#': ['RUNNER'],
    'CI_RUNNER_ID#': ['RUNNER', 'PROJECT#', 'JOB#', 'INSTANCE', 'GROUP#'],
    'CI_QUEUE_VERSION#': ['QUEUE'],
    'CI_VARIABLES#': ['VARIABLE#', 'COUNT'],
    'CI_GROUP_VARIABLES#': ['VARIABLE#', 'COUNT'],
    'CI_INSTANCE_VARIABLES': ['VARIABLE#', 'COUNT'],
    'CI_TRIGGERS#': ['TRIGGER#'],
    'CI_TRIGGER_TOKEN#': ['TRIGGER'],
    'CI_ENVIRONMENTS#': ['ENVIRONMENT#', 'NAME#'],
    'CI_DEPLOYMENTS#': ['DEPLOYMENT#', 'REF#'],
    'CI_SCHEDULES#': ['SCHEDULE#'],
    'CI_SCHEDULE#': ['PIPELINE#'],
    'CI_REFS#': ['REF#'],
    // The job token scope of a project and its allowlist, in the projects feature's partition.
    'PROJECT#': ['CI_JOB_TOKEN_SCOPE', 'CI_JOB_TOKEN_ALLOW#'],
  },
  indexPartitions: {
    GSI1: ['CI_PROJECT_PIPELINES#', 'CI_PROJECT_JOBS#', 'CI_PROJECT_RUNNERS#', 'CI_ALL_RUNNERS', 'CI_INSTANCE_RUNNERS', 'CI_GROUP_RUNNERS#', 'CI_PROJECT_ENVIRONMENTS_BY_STATE#', 'CI_ENV_DEPLOYMENTS#'],
    GSI2: ['CI_QUEUE#', 'CI_PROJECT_PIPELINES_BY_STATUS#', 'CI_PROJECT_ENVIRONMENT_NAMES#', 'CI_PROJECT_DEPLOYMENTS_BY_STATUS#'],
    GSI3: ['CI_DEADLINES#', 'CI_PROJECT_PIPELINES_BY_REF#', 'CI_SCHEDULES_DUE#', 'CI_ENV_DEPLOYMENTS_BY_STATUS#', 'CI_ENV_DUE#'],
    GSI4: ['CI_ARTIFACT_EXPIRY#', 'CI_PROJECT_MR_PIPELINES#', 'CI_PROJECT_DEPLOYMENTS_BY_UPDATE#'],
    GSI5: ['CI_PROJECT_JOBS_BY_STATUS#', 'CI_PROJECT_DEPLOYMENTS_FINISHED#', 'CI_PROJECT_PIPELINES_BY_SHA#'],
    GSI6: ['CI_SHARED_QUEUE#'],
    GSI7: ['CI_GROUP_QUEUE#'],
  },
  sequences: ['ci_pipelines', 'ci_jobs', 'ci_runners', 'ci_runner_managers', 'ci_triggers', 'ci_pipeline_schedules', 'ci_environments', 'ci_deployments', 'ci_pipeline_iids#', 'ci_deployment_iids#'],
};
