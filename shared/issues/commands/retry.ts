/** Internal to the commands: version-conditioned writes that re-read and apply again after a lost race. */
import { ConflictError } from '../../platform/http/errors';

/** What a write attempt answers when it lost a race (the record changed since it was read). */
export const AGAIN = Symbol('again');

/**
 * Runs `attempt` on the record as first read, then, while it answers {@link AGAIN}, on a fresh
 * read (`reread`), `attempts` times in all; after that 409 with `conflict` as the message.
 *
 * @example
 * return retried(issue, () => findIssueOrNotFound(subject, user, issue.iid), async (current) => {
 *   const result = await replaceIssue(current, next(current));
 *   return result === 'issue_changed' ? AGAIN : result;
 * }, { attempts: 5, conflict: 'The issue was modified by another request; try again' });
 */
export async function retried<T, R>(
  first: T,
  reread: () => Promise<T>,
  attempt: (current: T) => Promise<R | typeof AGAIN>,
  options: { attempts: number; conflict: string },
): Promise<R> {
  for (let count = 1; ; count++) {
    const result = await attempt(count === 1 ? first : await reread());
    if (result !== AGAIN) return result;
    if (count >= options.attempts) throw new ConflictError(options.conflict);
  }
}
