/**
 * For what the service finishes in the background after answering (deletions run in the jobs
 * worker, `functions/jobs`): retries `check` until it passes, as a client polling would. The
 * worker starts within a second; the timeout is generous for a busy machine or a deployed stage.
 */
import { vi } from 'vitest';

export function eventually<T>(check: () => Promise<T> | T, timeout = 30_000): Promise<T> {
  return vi.waitFor(check, { timeout, interval: 100 });
}
