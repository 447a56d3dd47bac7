/**
 * Job and pipeline statuses and how they compose, as GitLab's `Ci::HasStatus` and
 * `Gitlab::Ci::Status::Composite`, and which waiting jobs may start (`Ci::ProcessPipelineService`:
 * stages in order, or a job's `needs`). Pure.
 */

export type JobStatus = 'created' | 'pending' | 'running' | 'success' | 'failed' | 'canceled' | 'skipped' | 'manual';
export type PipelineStatus = JobStatus;

/** What `scope` accepts on the jobs lists (the spec's Job status section). */
export const JOB_SCOPES = ['created', 'pending', 'running', 'failed', 'success', 'canceled', 'skipped', 'manual'] as const;

export const COMPLETED: ReadonlySet<JobStatus> = new Set(['success', 'failed', 'canceled', 'skipped']);
export const ACTIVE: ReadonlySet<JobStatus> = new Set(['pending', 'running']);
/** Statuses a cancel acts on (`Ci::HasStatus::CANCELABLE_STATUSES`). */
export const CANCELABLE: ReadonlySet<JobStatus> = new Set(['created', 'pending', 'running', 'manual']);

export interface StatusInput {
  status: JobStatus;
  allowFailure: boolean;
}

/**
 * The composite status of several jobs (GitLab's `Composite#status`): failed or canceled jobs
 * allowed to fail, and manual jobs allowed to fail, are ignored; undefined for no jobs.
 */
export function compositeStatus(jobs: readonly StatusInput[]): JobStatus | undefined {
  if (jobs.length === 0) return undefined;
  const counts = new Map<string, number>();
  for (const job of jobs) {
    const ignored = job.allowFailure && (job.status === 'failed' || job.status === 'canceled' || job.status === 'manual');
    const key = ignored ? (job.status === 'manual' ? 'ignored' : 'success_with_warnings') : job.status;
    counts.set(key, (counts.get(key) ?? 0) + 1);
  }
  const only = (...statuses: string[]) => [...counts.keys()].every((status) => statuses.includes(status));
  const any = (...statuses: string[]) => statuses.some((status) => counts.has(status));
  if (only('skipped', 'ignored')) return 'skipped';
  if (only('success', 'skipped', 'success_with_warnings', 'ignored')) return 'success';
  if (only('created', 'ignored')) return 'created';
  if (only('canceled', 'success', 'skipped', 'success_with_warnings', 'ignored')) return 'canceled';
  if (only('pending', 'created', 'skipped', 'success_with_warnings', 'ignored')) return 'pending';
  if (any('running', 'pending')) return 'running';
  if (any('manual')) return 'manual';
  if (any('created')) return 'running';
  return 'failed';
}

export interface ProcessableJob extends StatusInput {
  id: number;
  name: string;
  stageIdx: number;
  when: string;
  /** A retried job: a manual one runs without being played. */
  enqueueImmediately?: boolean;
  needs?: string[];
  /** A job replaced by its retry: ignored. */
  retried?: boolean;
}

/**
 * What each waiting (`created`) job becomes now, given the others (`Ci::ProcessPipelineService`'s
 * `ProcessBuildService`): the status of what it waits for (earlier stages, or its `needs`) decides.
 * `on_success` runs after success, `on_failure` after a failure, `always` after anything, and
 * `manual` becomes a manual action after success; a job whose condition can no longer hold is skipped.
 */
export function nextStatuses(jobs: readonly ProcessableJob[]): Map<number, JobStatus> {
  const current = jobs.filter((job) => !job.retried);
  const changes = new Map<number, JobStatus>();
  const statusOf = (job: ProcessableJob) => changes.get(job.id) ?? job.status;
  // A stage's jobs can only start once the ones before it settled, so passes go stage by stage;
  // `needs` may point into the same stage, so repeat until nothing changes.
  for (let changed = true; changed; ) {
    changed = false;
    for (const job of current) {
      if (statusOf(job) !== 'created') continue;
      const upstream = job.needs
        ? current.filter((other) => job.needs!.includes(other.name))
        : current.filter((other) => other.stageIdx < job.stageIdx);
      const status = compositeStatus(upstream.map((other) => ({ status: statusOf(other), allowFailure: other.allowFailure }))) ?? 'success';
      const next = decide(job.enqueueImmediately && job.when === 'manual' ? 'on_success' : job.when, status);
      if (next && next !== 'created') {
        changes.set(job.id, next);
        changed = true;
      }
    }
  }
  return changes;
}

function decide(when: string, upstream: JobStatus): JobStatus | undefined {
  const settled = COMPLETED.has(upstream) || upstream === 'manual';
  if (!settled) return undefined;
  // A blocking manual job upstream holds the pipeline (`manual` composite).
  if (upstream === 'manual') return when === 'always' ? 'pending' : undefined;
  const succeeded = upstream === 'success' || upstream === 'skipped';
  switch (when) {
    case 'on_success':
      return succeeded ? 'pending' : 'skipped';
    case 'manual':
      return succeeded ? 'manual' : 'skipped';
    case 'on_failure':
      return upstream === 'failed' ? 'pending' : 'skipped';
    case 'always':
      return 'pending';
    default:
      return succeeded ? 'pending' : 'skipped';
  }
}
