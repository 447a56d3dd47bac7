/**
 * The CI scheduler: invoked every minute by an EventBridge schedule (`infra/constructs/scheduler.ts`);
 * locally the runtime's timer (`infra/local/scheduler.ts`) calls it the same way. One run ends the
 * jobs nobody will finish (stuck pending, silent or timed-out running jobs) and deletes expired
 * artifacts (`shared/ci/commands/sweep.ts`), within the invocation's time.
 *
 * Ending a job can finish its pipeline, and a finished pipeline has listeners that sit above CI
 * (merge when the pipeline succeeds, pipeline hooks): they are registered by the API's
 * composition root, loaded here for that.
 */
import type { Context } from 'aws-lambda';
import '../api';
import { sweepCi, type SweepReport } from '../../shared/ci';

/** Time kept back from the invocation's limit: a batch under way finishes within it. */
const RESERVE_MS = 15_000;

/** The event (EventBridge's `Scheduled Event`) carries nothing the run needs: it sweeps what is due now. */
export async function handler(_event: unknown, context?: Pick<Context, 'getRemainingTimeInMillis'>): Promise<SweepReport> {
  const remaining = context?.getRemainingTimeInMillis?.();
  return sweepCi(remaining === undefined ? {} : { budgetMs: Math.max(1000, remaining - RESERVE_MS) });
}
