/**
 * A project's runner settings changed (`PUT /projects/:id`, the projects feature's
 * `onProjectUpdated`, wired by the composition root): when `shared_runners_enabled` or
 * `group_runners_enabled` is turned back on, its pending jobs enter the instance (or its groups')
 * runner queue, as GitLab moves pending builds when the setting changes, so that those runners
 * take the jobs queued while the setting was off. Turning a setting off needs nothing here: such a
 * runner's claim checks the project again and takes the job out of its queue (`openToRunner`).
 *
 * A project moved to another namespace (the projects feature's `onProjectTransferred`) has its
 * pending jobs moved to its new groups' runner queue (or out of any group's, into a user's
 * namespace): the old group's runners would refuse them at their claim, and the new group's would
 * never see them.
 */
import { randomBytes } from 'node:crypto';
import type { Project } from '../../projects';
import { bumpQueueVersion, enterRunnerQueues, pendingJobsOf, type Job, type RunnerQueues } from '../store/pipelines';
import { runnerQueuesOf } from './pipelines';

/** The most pending jobs of a project moved into the runner queues at one settings change. */
export const REQUEUE_LIMIT = 1000;

export async function requeueOnRunnerSettings(previous: Project, next: Project): Promise<void> {
  const shared = previous.sharedRunnersEnabled === false && next.sharedRunnersEnabled !== false;
  const group = previous.groupRunnersEnabled === false && next.groupRunnersEnabled !== false;
  if (!shared && !group) return;
  await requeue(next.id, (job, queues) => {
    const missing = (queues.shared && !job.runnerQueues?.shared) || (queues.groupChain?.length && !job.runnerQueues?.groupChain?.length);
    return missing ? { shared: queues.shared || !!job.runnerQueues?.shared, groupChain: queues.groupChain ?? job.runnerQueues?.groupChain ?? null } : undefined;
  });
}

/** A project moved: each pending job not queued for its new group chain is put into exactly the queues it belongs in now. */
export async function requeueOnTransfer(projectId: number): Promise<void> {
  const chainOf = (chain: readonly number[] | null | undefined) => (chain ?? []).join('/');
  await requeue(projectId, (job, queues) =>
    chainOf(job.runnerQueues?.groupChain) === chainOf(queues.groupChain) ? undefined : { shared: !!job.runnerQueues?.shared, groupChain: queues.groupChain },
  );
}

/**
 * Puts each pending job of the project (at most {@link REQUEUE_LIMIT}) into the queues `target`
 * gives it from the project as it is now (a concurrent change wins: a claim checks it again
 * anyway); `undefined` leaves the job as it is. Idle instance and group runners then learn of the
 * jobs from their queue versions.
 */
async function requeue(projectId: number, target: (job: Job, queues: RunnerQueues) => RunnerQueues | undefined): Promise<void> {
  const queues = await runnerQueuesOf(projectId);
  let entered = false;
  for await (const job of pendingJobsOf(projectId, REQUEUE_LIMIT)) {
    const queuesOfJob = job.status === 'pending' ? target(job, queues) : undefined;
    if (queuesOfJob && (await enterRunnerQueues(job, queuesOfJob))) entered = true;
  }
  if (entered) await bumpQueueVersion(projectId, randomBytes(8).toString('hex'), queues);
}
