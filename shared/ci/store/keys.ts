/**
 * The CI feature's keys: every key, index attribute and collection of its items is built here, and
 * only here. Its access patterns are listed in ACCESS_PATTERNS.md beside this folder.
 *
 * A pipeline and its jobs share one partition (`CI_PIPELINE#<id>`), so processing a pipeline reads
 * all of it with one consistent Query. A job is found by id through its pointer (`CI_JOB#<id>`).
 */
import { indexCollection, pad, tableCollection, type Collection, type Key, type KeySpace } from '../../platform/dynamo/keys';

export const ciKeys = {
  /** A pipeline (the head item of its partition). */
  pipeline: (pipelineId: number): Key => ({ PK: `CI_PIPELINE#${pipelineId}`, SK: 'PIPELINE' }),
  /** A job, in its pipeline's partition. */
  job: (pipelineId: number, jobId: number): Key => ({ PK: `CI_PIPELINE#${pipelineId}`, SK: `JOB#${pad(jobId)}` }),
  /** Where a job is, by its id (`PUT /jobs/:id`, `GET /projects/:id/jobs/:job_id`). */
  jobPointer: (jobId: number): Key => ({ PK: `CI_JOB#${jobId}`, SK: 'JOB' }),
  /** A running job's token, by its SHA-256 digest (the runner API and git clones); removed when the job ends. */
  jobToken: (digest: string): Key => ({ PK: `CI_JOB_TOKEN#${digest}`, SK: 'TOKEN' }),
  /** A runner, by the digest of its token (every runner call presents it). */
  runner: (digest: string): Key => ({ PK: `CI_RUNNER#${digest}`, SK: 'RUNNER' }),
  /** Which project a runners registration token belongs to, by its digest. */
  registrationToken: (digest: string): Key => ({ PK: `CI_REGISTRATION#${digest}`, SK: 'TOKEN' }),
  /** The project's queue version: changes whenever a job of the project becomes pending (`X-GitLab-Last-Update`). */
  queueVersion: (projectId: number): Key => ({ PK: `CI_QUEUE_VERSION#${projectId}`, SK: 'QUEUE' }),
} as const;

export const ciIndexKeys = {
  /** A pipeline in its project's list (GSI1, newest first by id). */
  projectPipeline: (projectId: number, pipelineId: number) => ({ GSI1PK: `CI_PROJECT_PIPELINES#${projectId}`, GSI1SK: pad(pipelineId) }),
  /** A job in its project's list (GSI1). */
  projectJob: (projectId: number, jobId: number) => ({ GSI1PK: `CI_PROJECT_JOBS#${projectId}`, GSI1SK: pad(jobId) }),
  /** A runner in its project's list (GSI1). */
  projectRunner: (projectId: number, runnerId: number) => ({ GSI1PK: `CI_PROJECT_RUNNERS#${projectId}`, GSI1SK: pad(runnerId) }),
  /** A pending job in its project's queue (GSI2), only while pending. */
  queuedJob: (projectId: number, jobId: number) => ({ GSI2PK: `CI_QUEUE#${projectId}`, GSI2SK: pad(jobId) }),
} as const;

export const ciCollections = {
  /** A pipeline and its jobs (consistent). */
  pipelinePartition: (pipelineId: number): Collection => tableCollection(`CI_PIPELINE#${pipelineId}`, ''),
  /** A pipeline's jobs. */
  pipelineJobs: (pipelineId: number): Collection => tableCollection(`CI_PIPELINE#${pipelineId}`, 'JOB#'),
  projectPipelines: (projectId: number): Collection => indexCollection('GSI1', `CI_PROJECT_PIPELINES#${projectId}`),
  projectJobs: (projectId: number): Collection => indexCollection('GSI1', `CI_PROJECT_JOBS#${projectId}`),
  projectRunners: (projectId: number): Collection => indexCollection('GSI1', `CI_PROJECT_RUNNERS#${projectId}`),
  queue: (projectId: number): Collection => indexCollection('GSI2', `CI_QUEUE#${projectId}`),
} as const;

export const CI_SEQUENCES = { pipelines: 'ci_pipelines', jobs: 'ci_jobs', runners: 'ci_runners', pipelineIids: (projectId: number) => `ci_pipeline_iids#${projectId}` } as const;

export const keySpace: KeySpace = {
  partitions: ['CI_PIPELINE#', 'CI_JOB#', 'CI_JOB_TOKEN#', 'CI_RUNNER#', 'CI_REGISTRATION#', 'CI_QUEUE_VERSION#'],
  sortKeys: {
    'CI_PIPELINE#': ['PIPELINE', 'JOB#'],
    'CI_JOB#': ['JOB'],
    'CI_JOB_TOKEN#': ['TOKEN'],
    'CI_RUNNER#': ['RUNNER'],
    'CI_REGISTRATION#': ['TOKEN'],
    'CI_QUEUE_VERSION#': ['QUEUE'],
  },
  indexPartitions: { GSI1: ['CI_PROJECT_PIPELINES#', 'CI_PROJECT_JOBS#', 'CI_PROJECT_RUNNERS#'], GSI2: ['CI_QUEUE#'] },
  sequences: ['ci_pipelines', 'ci_jobs', 'ci_runners', 'ci_pipeline_iids#'],
};
