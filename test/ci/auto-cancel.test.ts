/** Which jobs of an older pipeline a newer commit cancels, per `workflow:auto_cancel:on_new_commit` (GitLab's strategies). */
import { describe, expect, it } from 'vitest';
import { jobsToAutoCancel } from '../../shared/ci/commands/auto-cancel';
import type { Job } from '../../shared/ci/store/pipelines';

const job = (id: number, status: Job['status'], interruptible = false, retried = false) => ({ id, status, interruptible, retried }) as Job;
const chosen = (picked: ReturnType<typeof jobsToAutoCancel>) => picked.map(([j, { from }]) => [j.id, from.includes('running')]);

describe('jobsToAutoCancel', () => {
  it('conservative: all cancelable jobs unless a non-interruptible one started; interruptible: only those; none: nothing', () => {
    const pending = [job(1, 'running', true), job(2, 'pending'), job(3, 'created', true), job(4, 'success', true), job(5, 'failed', false, true)];
    // A non-interruptible job is canceled only from a status where it has not started (the cancel's condition).
    expect(chosen(jobsToAutoCancel('conservative', pending))).toEqual([[1, true], [2, false], [3, true]]);
    expect(jobsToAutoCancel('conservative', [...pending, job(6, 'success')])).toEqual([]);
    expect(chosen(jobsToAutoCancel('interruptible', [...pending, job(6, 'running')]))).toEqual([[1, true], [3, true]]);
    expect(jobsToAutoCancel('none', pending)).toEqual([]);
  });
});
