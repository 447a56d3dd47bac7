/**
 * Environment variables for unit tests that exercise the configuration (`config()` caches what it
 * reads, so every change is followed by `resetConfig()`), and the Lambda context the middlewares read.
 */
import type { Context } from 'aws-lambda';
import { afterAll, afterEach, beforeAll, beforeEach } from 'vitest';
import { resetConfig } from '../../shared/platform/config';

/** Sets (or, for `undefined`, removes) environment variables, then makes `config()` read them afresh. */
export function setEnvironment(variables: Record<string, string | undefined>): void {
  for (const [name, value] of Object.entries(variables)) {
    if (value === undefined) delete process.env[name];
    else process.env[name] = value;
  }
  resetConfig();
}

/** Removes `names` from the environment before each test of the file and restores them after it. */
export function isolateEnvironment(names: readonly string[]): void {
  let saved: Record<string, string | undefined> = {};
  beforeEach(() => {
    saved = Object.fromEntries(names.map((name) => [name, process.env[name]]));
    setEnvironment(Object.fromEntries(names.map((name) => [name, undefined])));
  });
  afterEach(() => setEnvironment(saved));
}

/** Sets `variables` (`undefined` removes one) for the whole test file, restoring the previous values after it. */
export function withEnvironment(variables: Record<string, string | undefined>): void {
  let saved: Record<string, string | undefined> = {};
  beforeAll(() => {
    saved = Object.fromEntries(Object.keys(variables).map((name) => [name, process.env[name]]));
    setEnvironment(variables);
  });
  afterAll(() => setEnvironment(saved));
}

/** The parts of a Lambda context the middlewares read, for a function named `functionName`. */
export const lambdaContext = (awsRequestId = 'lambda-req', functionName = 'users'): Context => ({
  awsRequestId,
  functionName,
  functionVersion: '$LATEST',
  invokedFunctionArn: `arn:aws:lambda:us-east-1:000000000000:function:${functionName}`,
  memoryLimitInMB: '512',
  logGroupName: `/aws/lambda/${functionName}`,
  logStreamName: 'stream',
  callbackWaitsForEmptyEventLoop: true,
  getRemainingTimeInMillis: () => 10_000,
  done: () => undefined,
  fail: () => undefined,
  succeed: () => undefined,
});
