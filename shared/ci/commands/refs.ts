/**
 * Each ref's latest successful pipeline follows the pipelines' statuses (GitLab's `Ci::Ref` and
 * its unlocking of older pipelines' artifacts, `Ci::Refs::UnlockPreviousPipelinesWorker`):
 *
 * - a pipeline that succeeds becomes its ref's latest unless a newer one is; the one it replaces
 *   has its artifacts unlocked: those whose expiry passed while they were kept come due again;
 * - the latest that leaves success (a retry) or is deleted hands over to the ref's newest other
 *   successful pipeline among its last {@link FALLBACK_WINDOW}, or to none.
 *
 * While a project keeps its latest artifacts (`keep_latest_artifact`, GitLab's default), the
 * artifacts of a ref's latest successful pipeline do not expire ({@link artifactsKept}) and the
 * bulk deletion leaves them.
 */
import { ciSettingsOf, getProject } from '../../projects';
import { logger } from '../../platform/logger';
import type { PipelineStatus } from '../status';
import { isMergeRequestRef } from '../merge-request-variables';
import { indexPipelineSha, mergeRequestRefPipelines, projectPipelines, projectPipelinesInStatus, readPipeline, refPipelines, restoreExpiryEntry, type Job, type Pipeline } from '../store/pipelines';
import { clearLatestSuccessfulPipeline, latestSuccessfulPipelineId, setLatestSuccessfulPipeline } from '../store/refs';

/** How many of a ref's newest pipelines are looked through for an older successful one. */
const FALLBACK_WINDOW = 100;

/** A pipeline's status moved from `before` to `pipeline.status`: its ref's latest successful pipeline follows. Never throws. */
export async function refFollowsPipeline(pipeline: Pipeline, before: PipelineStatus): Promise<void> {
  try {
    if (pipeline.status === 'success' && before !== 'success') {
      const replaced = await setLatestSuccessfulPipeline(pipeline.projectId, pipeline.ref, pipeline.id);
      if (typeof replaced === 'number' && replaced !== pipeline.id) await unlockArtifacts(replaced);
    } else if (before === 'success' && pipeline.status !== 'success') {
      await handOver(pipeline);
    }
  } catch (error) {
    logger.error('ci ref: latest successful pipeline not moved', { pipelineId: pipeline.id, ref: pipeline.ref, error });
  }
}

/** A pipeline is deleted: if it was its ref's latest successful one, an older one takes over. Never throws. */
export async function refForgetsPipeline(pipeline: Pipeline): Promise<void> {
  try {
    await handOver(pipeline);
  } catch (error) {
    logger.error('ci ref: latest successful pipeline not handed over', { pipelineId: pipeline.id, ref: pipeline.ref, error });
  }
}

/** While `pipeline` is its ref's latest successful one, the newest other successful pipeline of the ref (if any) becomes it. */
async function handOver(pipeline: Pipeline): Promise<void> {
  if ((await latestSuccessfulPipelineId(pipeline.projectId, pipeline.ref)) !== pipeline.id) return;
  const older = await newestOtherSuccess(pipeline);
  if (older) await setLatestSuccessfulPipeline(pipeline.projectId, pipeline.ref, older.id, pipeline.id);
  else await clearLatestSuccessfulPipeline(pipeline.projectId, pipeline.ref, pipeline.id);
}

/**
 * The ref's newest successful pipeline other than `pipeline`, among its last {@link FALLBACK_WINDOW}
 * (GSI3 of the ref; a merge request's ref, `refs/merge-requests/<iid>/head`, lists its merge
 * request pipelines in GSI4, its GSI3 entries being its source branch's).
 */
async function newestOtherSuccess(pipeline: Pipeline): Promise<Pipeline | undefined> {
  let seen = 0;
  const candidates = pipeline.mergeRequest && isMergeRequestRef(pipeline.ref) ? mergeRequestRefPipelines(pipeline.projectId, pipeline.ref, 25) : refPipelines(pipeline.projectId, pipeline.ref, 25);
  for await (const candidate of candidates) {
    if (candidate.id !== pipeline.id && candidate.ref === pipeline.ref && candidate.status === 'success') return candidate;
    if (++seen >= FALLBACK_WINDOW) break;
  }
  return undefined;
}

/** The artifacts of a pipeline no longer its ref's latest: those that expire are due at their expiry again. */
async function unlockArtifacts(pipelineId: number): Promise<void> {
  const read = await readPipeline(pipelineId);
  for (const job of read?.jobs ?? []) {
    if (job.artifacts?.expireAt) await restoreExpiryEntry(job, job.artifacts.expireAt);
  }
}

/**
 * Whether a job's artifacts are kept past their expiry: its pipeline is its ref's latest
 * successful one and the project keeps the latest artifacts (GitLab's locked artifacts).
 */
export async function artifactsKept(job: Pick<Job, 'projectId' | 'pipelineId' | 'ref'>): Promise<boolean> {
  if ((await latestSuccessfulPipelineId(job.projectId, job.ref)) !== job.pipelineId) return false;
  const project = await getProject(job.projectId);
  return project !== undefined && ciSettingsOf(project).keepLatestArtifact;
}

/** The data migration's step for one project: each ref's latest successful pipeline, for pipelines that succeeded before refs were kept. */
export async function indexProjectRefs(projectId: number): Promise<number> {
  const seen = new Set<string>();
  for await (const pipeline of projectPipelinesInStatus(projectId, 'success')) {
    if (seen.has(pipeline.ref)) continue;
    seen.add(pipeline.ref);
    await setLatestSuccessfulPipeline(projectId, pipeline.ref, pipeline.id);
  }
  return seen.size;
}

/** The name of that migration. */
export const CI_REFS_MIGRATION = 'ci-refs-v1';

/**
 * The migration `ci-pipeline-shas-v1`, per project: every pipeline written before the index of a
 * commit's pipelines (GSI5, the commit statuses API) gets its entry; one conditional UpdateItem per
 * pipeline, walking the project's pipelines (GSI1). Answers how many it indexed.
 */
export async function indexProjectPipelineShas(projectId: number): Promise<number> {
  let written = 0;
  for await (const pipeline of projectPipelines(projectId)) if (await indexPipelineSha(pipeline)) written++;
  return written;
}

/** The name of that migration. */
export const CI_PIPELINE_SHAS_MIGRATION = 'ci-pipeline-shas-v1';
