/**
 * Commit statuses reported by external systems (`POST /projects/:id/statuses/:sha`, GitLab's
 * `Ci::CreateCommitStatusService`): a status is a job of stage `external` (a `GenericCommitStatus`,
 * `generic` on the job) in a pipeline of the commit — the newest pipeline of that commit (on `ref`
 * when given; `pipeline_id` picks one), else a new pipeline with source `external` — and moves as
 * GitLab's state machine allows; the pipeline is then processed as after any job change (status,
 * Pipeline Hook, ref's latest successful pipeline, merge when pipeline succeeds).
 */
import type { ProjectSubject } from '../../auth';
import { isAncestorCommit, openRepository, ZERO_OID } from '../../repository';
import type { User } from '../../users';
import { BadRequestError, ConflictError, ForbiddenError, NotFoundError } from '../../platform/http/errors';
import { readCommit, resolveRef } from '../git';
import { canUpdateOnRef } from '../policy';
import { claimExternalPipeline, commitPipelines, externalPipelineClaim, getPipeline, insertGenericStatus, insertPipeline, newJobId, newPipelineId, newPipelineIid, readPipeline, updateJob, type Job, type JobChanges, type Pipeline } from '../store/pipelines';
import type { JobStatus } from '../status';
import { COMMIT_PIPELINES_LIMIT, findCommitShaOrNotFound } from '../queries/commit-statuses';
import { NOT_RUN, processPipeline } from './pipelines';

/** The states a status may be set to. */
export const COMMIT_STATUS_STATES = ['pending', 'running', 'success', 'failed', 'canceled', 'skipped'] as const;
export type CommitStatusState = (typeof COMMIT_STATUS_STATES)[number];

/** GitLab's `GenericCommitStatus::EXTERNAL_STAGE_IDX`: after every stage of a configuration file. */
const EXTERNAL_STAGE_IDX = 1_000_000;
/** Most branches looked at for the one containing the commit when no `ref` is given. */
const BRANCHES_LOOKED_AT = 100;

export interface CommitStatusRequest {
  subject: ProjectSubject;
  user: User;
  sha: string;
  state: CommitStatusState;
  ref?: string;
  name: string;
  targetUrl?: string;
  description?: string;
  coverage?: number;
  pipelineId?: number;
}

/**
 * Each state: GitLab's event, the statuses it moves from (`CommitStatus`'s state machine; a
 * `running` report first enqueues a created status, then runs it), and what the move sets.
 */
const TRANSITIONS: Record<CommitStatusState, { event: string; from: readonly JobStatus[] }> = {
  pending: { event: 'enqueue', from: ['created'] },
  running: { event: 'run', from: ['created', 'pending'] },
  success: { event: 'success', from: ['created', 'pending', 'running'] },
  failed: { event: 'drop', from: ['created', 'pending', 'running'] },
  canceled: { event: 'cancel', from: ['created', 'pending', 'running'] },
  skipped: { event: 'skip', from: ['created', 'pending'] },
};

/** What a status in `from` becomes when set to `state`, as GitLab's transitions stamp it. */
function moveTo(state: CommitStatusState, from: Pick<Job, 'status' | 'queuedAt' | 'startedAt'>, now: string): JobChanges & { status: JobStatus } {
  switch (state) {
    case 'pending':
      return { status: 'pending', queuedAt: now };
    case 'running':
      return { status: 'running', queuedAt: from.queuedAt ?? now, startedAt: now };
    case 'failed':
      return { status: 'failed', failureReason: 'api_failure', finishedAt: now };
    default:
      return { status: state, finishedAt: now };
  }
}

/** `state_machines`' message for a refused transition, as GitLab answers it (400). */
const refused = (event: string, from: string) => new BadRequestError(`Cannot transition status via :${event} from :${from} (Reason(s): Status cannot transition via "${event}")`);

/** The first branch (by name, as Gitaly lists them) whose history holds `sha` (GitLab's `branch_names_contains(sha).first`). */
async function branchContaining(subject: ProjectSubject, sha: string): Promise<string | undefined> {
  const repository = await openRepository(subject.project);
  const branches = (await repository.refs('refs/heads/')).sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0)).slice(0, BRANCHES_LOOKED_AT);
  for (const branch of branches) if (await isAncestorCommit(repository, sha, branch.oid)) return branch.name.slice('refs/heads/'.length);
  return undefined;
}

/** Creates a new external pipeline of the commit on `ref`. */
async function createExternalPipeline(request: CommitStatusRequest, id: number, sha: string, ref: string, tag: boolean): Promise<Pipeline> {
  const now = new Date().toISOString();
  const pipeline: Pipeline = {
    id,
    iid: await newPipelineIid(request.subject.project.id),
    projectId: request.subject.project.id,
    ref,
    tag,
    sha,
    beforeSha: ZERO_OID,
    source: 'external',
    status: 'created',
    yamlErrors: null,
    userId: request.user.id,
    commit: (await readCommit(request.subject.project, sha)) ?? null,
    variables: [],
    createdAt: now,
    updatedAt: now,
    startedAt: null,
    finishedAt: null,
    version: 1,
  };
  await insertPipeline(pipeline, []);
  return pipeline;
}

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** How long a claimed external pipeline may take to appear before its claim is taken over. */
const CLAIM_PATIENCE_MS = 30_000;

/**
 * The external pipeline of a commit's statuses on a ref (the index by commit, eventually
 * consistent, may not show it yet): the one claimed, or a new one this call claims and creates.
 * Undefined while another report's pipeline is being created.
 */
async function claimedPipeline(request: CommitStatusRequest, sha: string, ref: string, tag: boolean): Promise<Pipeline | undefined> {
  const projectId = request.subject.project.id;
  const claim = await externalPipelineClaim(projectId, sha, ref);
  let replacing: number | undefined;
  if (claim) {
    const claimed = await getPipeline(claim.pipelineId);
    if (claimed) return claimed;
    // Deleted since, or its creator died: taken over once it had time enough to appear.
    if (Date.now() - Date.parse(claim.claimedAt) < CLAIM_PATIENCE_MS) return undefined;
    replacing = claim.pipelineId;
  }
  const pipelineId = await newPipelineId();
  if (!(await claimExternalPipeline(projectId, sha, ref, pipelineId, replacing))) return undefined;
  return createExternalPipeline(request, pipelineId, sha, ref, tag);
}

/**
 * Sets a commit's status named `name` (creating it, and its pipeline, when needed) and answers it
 * as written, with its pipeline processed. GitLab's errors: 404 `Commit Not Found`, `References for
 * commit Not Found`, `Pipeline for pipeline_id, sha and ref Not Found`; 403 when the ref is
 * protected from the user; 400 for a transition the state machine refuses.
 */
export async function setCommitStatus(request: CommitStatusRequest): Promise<Job> {
  const { subject, user } = request;
  const sha = await findCommitShaOrNotFound(subject, request.sha);
  for (let attempt = 0; attempt < 8; attempt++) {
    const candidates = await commitPipelines(subject.project.id, sha, COMMIT_PIPELINES_LIMIT);
    const matching = candidates.find((pipeline) => (request.ref === undefined || pipeline.ref === request.ref) && (request.pipelineId === undefined || pipeline.id === request.pipelineId));
    const ref = request.ref ?? matching?.ref ?? (await branchContaining(subject, sha));
    if (!ref) throw new NotFoundError('References for commit');
    if (request.pipelineId !== undefined && !matching) throw new NotFoundError('Pipeline for pipeline_id, sha and ref');
    const tag = matching?.tag ?? (await resolveRef(subject.project, ref))?.tag ?? false;
    // GitLab's `update_pipeline` on the pipeline: a ref protected from the user is a 403.
    if (!(await canUpdateOnRef(user, subject, { ref, tag }))) throw new ForbiddenError();
    const pipeline = matching ?? (await claimedPipeline(request, sha, ref, tag));
    // Another first report is creating it: read again.
    if (!pipeline) {
      await pause(100 * (attempt + 1));
      continue;
    }
    const read = await readPipeline(pipeline.id);
    if (!read) continue;
    const now = new Date().toISOString();
    const existing = read.jobs.find(
      (job) => job.generic && !job.retried && (job.status === 'pending' || job.status === 'running') && job.name === request.name && job.ref === ref && job.userId === user.id,
    );
    const transition = TRANSITIONS[request.state];
    const details: JobChanges = {
      ...(request.targetUrl !== undefined ? { targetUrl: request.targetUrl } : {}),
      ...(request.description !== undefined ? { description: request.description } : {}),
      ...(request.coverage !== undefined ? { coverage: request.coverage } : {}),
    };
    let written: Job | undefined;
    if (existing) {
      if (!transition.from.includes(existing.status)) throw refused(transition.event, existing.status);
      written = await updateJob(existing, { ...details, ...moveTo(request.state, existing, now) }, [existing.status]);
      // Another report moved it meanwhile: read again.
      if (!written) continue;
    } else {
      written = {
        id: await newJobId(),
        projectId: subject.project.id,
        pipelineId: pipeline.id,
        name: request.name,
        stage: 'external',
        stageIdx: EXTERNAL_STAGE_IDX,
        when: 'on_success',
        allowFailure: false,
        ref,
        tag,
        sha,
        beforeSha: read.pipeline.beforeSha,
        userId: user.id,
        spec: { script: [], beforeScript: [], afterScript: [], services: [], variables: {}, tags: [], cache: [], retry: { max: 0, when: [] } },
        createdAt: now,
        ...NOT_RUN,
        retryCount: 0,
        generic: true,
        targetUrl: request.targetUrl ?? null,
        description: request.description ?? null,
        coverage: request.coverage ?? null,
      };
      written = { ...written, ...moveTo(request.state, written, now) };
      // The newest status of the name holds its claim; another report creating it first wins.
      const replacing = read.jobs.filter((job) => job.generic && job.name === request.name && job.ref === ref && job.userId === user.id).at(-1)?.id;
      if (!(await insertGenericStatus(written, replacing))) continue;
    }
    await processPipeline(pipeline.id);
    return written;
  }
  throw new ConflictError('Another update to this commit status is in progress');
}
