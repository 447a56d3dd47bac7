/**
 * Marks the work of the functions that on AWS are invocations of their own — stream-invoked (hook
 * delivery, the jobs worker) and scheduled (the CI scheduler, the jobs sweep) — but here share
 * the process with the API: the benchmarks tell their DynamoDB calls apart from a request's
 * (`test/bench/support.ts`).
 */
import { AsyncLocalStorage } from 'node:async_hooks';

const backgroundInvocations = new AsyncLocalStorage<true>();

/** Whether the caller runs inside a stream-invoked or scheduled function's invocation (not an API request's). */
export const inBackgroundInvocation = (): boolean => backgroundInvocations.getStore() === true;

/** Runs `work` as such an invocation. */
export const asBackgroundInvocation = <T>(work: () => Promise<T>): Promise<T> => backgroundInvocations.run(true, work);
