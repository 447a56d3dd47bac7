/**
 * The local stand-in for an EventBridge schedule: calls a handler every `intervalMs`, in-process,
 * as the deployed rule invokes `functions/ci_scheduler` (`infra/constructs/scheduler.ts`). Runs
 * never overlap (the next waits for the one under way); a failing run is logged, and the next
 * tick is its retry, as the deployed rule (no retries) does. Each run is a background invocation
 * (`invocations.ts`), as it is another Lambda invocation on AWS.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { logger as rootLogger, type Logger } from '../../shared/platform/logger';
import { asBackgroundInvocation } from './invocations';

export interface ScheduleOptions {
  /** What the rule invokes, with the event EventBridge sends (the fields a handler may read). */
  handler: (event: { source: 'aws.events'; 'detail-type': 'Scheduled Event'; time: string; detail: Record<string, never> }) => Promise<unknown>;
  /** Pause between the end of a run and the start of the next. */
  intervalMs: number;
  /** Whether the first run happens at once (else after one interval). @default false */
  runAtStart?: boolean;
  /** @default - the service logger, tagged `component: scheduler` */
  logger?: Logger;
}

export interface Schedule {
  /** Ends the loop; resolves once the run under way (if any) has finished. */
  stop(): Promise<void>;
}

/**
 * Starts calling the handler on a fixed rate.
 *
 * @example
 * const schedule = startSchedule({ handler, intervalMs: 60_000 });
 * await schedule.stop();
 */
export function startSchedule(options: ScheduleOptions): Schedule {
  const logger = options.logger ?? rootLogger.child({ component: 'scheduler' });
  const abort = new AbortController();
  const { signal } = abort;
  const pause = () => sleep(options.intervalMs, undefined, { signal }).catch(() => undefined);

  const loop = async () => {
    if (!options.runAtStart) await pause();
    while (!signal.aborted) {
      try {
        await asBackgroundInvocation(() => options.handler({ source: 'aws.events', 'detail-type': 'Scheduled Event', time: new Date().toISOString(), detail: {} }));
      } catch (error) {
        logger.error('scheduled run failed; the next one retries', { error });
      }
      await pause();
    }
  };
  const running = loop();

  let stopping: Promise<void> | undefined;
  return {
    stop: () =>
      (stopping ??= (async () => {
        abort.abort();
        await running;
      })()),
  };
}
