/**
 * Deleting a user in the background: the request queues a job and marks the user (it stops
 * authenticating and disappears from reads at once); the jobs worker (`functions/jobs`) runs
 * {@link runUserDeletion}, which removes everything (`deleteUser`) and, run again after an
 * interruption, finishes what the previous run began.
 */
import { enqueueJob } from '../../platform/jobs';
import { markUserDeleting, type User } from '../store/users';
import { deleteUser } from './delete-user';

/** The kind of background job that deletes a user (`shared/platform/jobs.ts`). */
export const USER_DELETION = 'user_deletion';

/**
 * Queues the deletion of a user, then marks it: a crash between the two leaves a job that
 * deletes it anyway, never a marked user nobody deletes. `options` travel with the job.
 */
export async function scheduleUserDeletion(user: User, options: Record<string, unknown> = {}): Promise<boolean> {
  await enqueueJob(USER_DELETION, user.id, options);
  return markUserDeleting(user.id, options.onlyIfPending === true ? 'blocked_pending_approval' : undefined);
}

/** The work of a user deletion job. */
export async function runUserDeletion(id: number, options: Record<string, unknown> = {}): Promise<void> {
  await deleteUser(id, { hardDelete: options.hardDelete === true, onlyIfPending: options.onlyIfPending === true });
}
