/**
 * Auto-cancel of redundant pipelines (GitLab's `Ci::PipelineCreation::CancelRedundantPipelinesService`,
 * the project setting `auto_cancel_pending_pipelines` and `workflow:auto_cancel:on_new_commit`):
 * which older pipelines of a new pipeline's ref it makes redundant, and which of their jobs go.
 * The cancels themselves are `pipelines.ts`'s (`cancelRedundantPipelines`, `cancelPipeline`).
 *
 * GitLab's rules: the project setting is enabled; the older pipeline has the same ref (a merge
 * request pipeline: the same merge request's ref), was created before the new one and less than
 * a week ago, is still cancelable (created, pending, running), and runs neither the new
 * pipeline's commit nor the commit the ref points at now. Its own `on_new_commit` decides:
 * `conservative` (default) cancels it whole unless a job that is not `interruptible` has started
 * (running, success, failed); `interruptible` cancels only its interruptible jobs; `none` nothing.
 */
import { ciSettingsOf, type Project } from '../../projects';
import type { OnNewCommit } from '../config/parse';
import { refHead } from '../git';
import { refPipelines, type Job, type Pipeline } from '../store/pipelines';
import { CANCELABLE, type JobStatus } from '../status';

/** How many of the ref's newest pipelines are looked at (GSI3, newest first): the read is bounded whatever the project's history. */
export const REDUNDANT_LOOKBACK = 100;
/** Older pipelines are left alone (GitLab's `pipelines_created_after`: 7 days). */
const MAX_AGE_MS = 7 * 24 * 3600 * 1000;
/** Pipeline statuses a newer commit cancels (GitLab's `CANCELABLE_STATUSES` of pipelines, as statuses are kept here). */
export const PIPELINE_CANCELABLE: ReadonlySet<string> = new Set(['created', 'pending', 'running']);
/** A job in one of these has started (GitLab's `STARTED_STATUSES`). */
const STARTED: ReadonlySet<JobStatus> = new Set(['running', 'success', 'failed']);
/** What a job that is not interruptible is canceled from: never once it started (a runner taking it meanwhile wins). */
const NOT_STARTED: readonly JobStatus[] = [...CANCELABLE].filter((status) => !STARTED.has(status));

/**
 * The older pipelines of `pipeline`'s ref it makes redundant, oldest first (GitLab cancels the
 * oldest first), as the ref's index shows them (their status is read again before any cancel).
 * Reads at most {@link REDUNDANT_LOOKBACK} entries of the ref's partition (GSI3, `ACCESS_PATTERNS.md` C3e),
 * and the ref's head commit only when a candidate runs another commit than the new pipeline.
 */
export async function redundantPipelines(project: Project, pipeline: Pipeline): Promise<Pipeline[]> {
  if (ciSettingsOf(project).autoCancelPendingPipelines !== 'enabled') return [];
  const since = Date.parse(pipeline.createdAt) - MAX_AGE_MS;
  const found: Pipeline[] = [];
  let read = 0;
  // A merge request pipeline is listed under its source branch, with that branch's pipelines.
  for await (const older of refPipelines(pipeline.projectId, pipeline.mergeRequest?.sourceBranch ?? pipeline.ref, 25)) {
    if (++read > REDUNDANT_LOOKBACK) break;
    // Ids grow with time: past the first one older than a week, all are.
    if (Date.parse(older.createdAt) < since) break;
    if (older.id >= pipeline.id || older.ref !== pipeline.ref || older.tag !== pipeline.tag) continue;
    if (!PIPELINE_CANCELABLE.has(older.status) || older.sha === pipeline.sha || older.autoCancel?.onNewCommit === 'none') continue;
    found.push(older);
  }
  if (found.length === 0) return [];
  const head = await refHead(project, pipeline.ref, pipeline.tag);
  return found.filter((older) => older.sha !== head).reverse();
}

/**
 * The jobs of an older pipeline its `on_new_commit` strategy cancels, each with the statuses it
 * may be canceled from (none: the pipeline is left running). Retried jobs are not looked at.
 */
export function jobsToAutoCancel(strategy: OnNewCommit, jobs: readonly Job[]): Array<[Job, { from: readonly JobStatus[] }]> {
  const current = jobs.filter((job) => !job.retried);
  const cancelable = current.filter((job) => CANCELABLE.has(job.status));
  switch (strategy) {
    case 'none':
      return [];
    case 'interruptible':
      return cancelable.filter((job) => job.interruptible).map((job) => [job, { from: [...CANCELABLE] }]);
    case 'conservative':
      if (current.some((job) => !job.interruptible && STARTED.has(job.status))) return [];
      return cancelable.map((job) => [job, { from: job.interruptible ? [...CANCELABLE] : NOT_STARTED }]);
  }
}
