/**
 * GitLab's runner entities: `Entities::Ci::Runner` (lists, a job's `runner`, enable/disable
 * answers) and `Entities::Ci::RunnerDetails` (one runner: its settings, what it last said about
 * itself, the projects it is enabled in that the caller may see, a group runner's group). An
 * instance runner is `is_shared: true`; its type is `runner_type`. The token is never shown.
 *
 * `status` is GitLab's REST status (`deprecated_rest_status`): `stale` (created or last contacted
 * over 7 days ago), `never_contacted`, `paused`, `online` (contacted within 2 hours) or `offline`.
 * GitLab's `job_execution_status` and `created_by` are left out: the first would cost a read per
 * runner of a list.
 */
import { runnerTypeOf, type Runner, type RunnerManager } from '../store/runners';

/** A runner contacted within this long is online (GitLab's `ONLINE_CONTACT_TIMEOUT`). */
export const ONLINE_CONTACT_TIMEOUT_MS = 2 * 3600_000;
/** A runner neither created nor contacted within this long is stale (GitLab's `STALE_TIMEOUT`). */
export const STALE_TIMEOUT_MS = 7 * 86_400_000;

export function runnerOnline(runner: Pick<Runner, 'contactedAt'>, now = Date.now()): boolean {
  return runner.contactedAt !== null && now - Date.parse(runner.contactedAt) < ONLINE_CONTACT_TIMEOUT_MS;
}

export function runnerStale(runner: Pick<Runner, 'createdAt' | 'contactedAt'>, now = Date.now()): boolean {
  const latest = Math.max(Date.parse(runner.createdAt), runner.contactedAt ? Date.parse(runner.contactedAt) : 0);
  return now - latest >= STALE_TIMEOUT_MS;
}

export type RunnerRestStatus = 'stale' | 'never_contacted' | 'paused' | 'online' | 'offline';

export function runnerStatus(runner: Runner, now = Date.now()): RunnerRestStatus {
  if (runnerStale(runner, now)) return 'stale';
  if (runner.contactedAt === null) return 'never_contacted';
  if (!runner.active) return 'paused';
  return runnerOnline(runner, now) ? 'online' : 'offline';
}

export function presentRunner(runner: Runner) {
  return {
    id: runner.id,
    description: runner.description,
    ip_address: runner.ipAddress ?? null,
    active: runner.active,
    paused: !runner.active,
    is_shared: runnerTypeOf(runner) === 'instance_type',
    runner_type: runnerTypeOf(runner),
    name: runner.info?.name ?? null,
    online: runnerOnline(runner),
    created_at: runner.createdAt,
    status: runnerStatus(runner),
  };
}

/**
 * One runner with its settings. `projects` are the caller's view of the projects it is enabled in
 * (already presented); `maintenance_note` is shown to those who may update the runner.
 */
export function presentRunnerDetails(runner: Runner, projects: unknown[], options: { canUpdate: boolean; groups?: unknown[] }) {
  const info = runner.info ?? {};
  return {
    ...presentRunner(runner),
    tag_list: runner.tags ?? [],
    run_untagged: runner.runUntagged,
    locked: runner.locked,
    maximum_timeout: runner.maximumTimeout ?? null,
    access_level: runner.accessLevel,
    version: info.version ?? null,
    revision: info.revision ?? null,
    platform: info.platform ?? null,
    architecture: info.architecture ?? null,
    contacted_at: runner.contactedAt,
    maintenance_note: options.canUpdate ? (runner.maintenanceNote ?? null) : null,
    projects,
    groups: options.groups ?? [],
  };
}

/**
 * GitLab's `Entities::Ci::RunnerManager`, its `status` as `Ci::RunnerManager#status`: `stale`,
 * `never_contacted`, `online` or `offline`. `job_execution_status` is left out: jobs are not
 * recorded per manager.
 */
export function presentRunnerManager(systemId: string, manager: RunnerManager, now = Date.now()) {
  const status = runnerStale(manager, now) ? 'stale' : manager.contactedAt === null ? 'never_contacted' : runnerOnline(manager, now) ? 'online' : 'offline';
  return {
    id: manager.id,
    system_id: systemId,
    version: manager.info.version ?? null,
    revision: manager.info.revision ?? null,
    platform: manager.info.platform ?? null,
    architecture: manager.info.architecture ?? null,
    created_at: manager.createdAt,
    contacted_at: manager.contactedAt,
    ip_address: manager.ipAddress,
    status,
  };
}
