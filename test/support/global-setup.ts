/**
 * Global setup of the integration project: gives the tests a base URL and root's token.
 *
 * With `API_URL` (a deployed stage, or a runtime started by hand) the tests run against it, and
 * `ROOT_TOKEN` must be root's token there. Otherwise the local runtime is started in this process
 * on a free port, on a fresh data directory, with a random root token, and torn down afterwards:
 * the same tests then cover the deployed stack and the local one.
 */
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';

declare module 'vitest' {
  export interface ProvidedContext {
    /** Base URL of the service, without `/api/v4` and without a trailing slash. */
    apiUrl: string;
    /** A personal access token of the admin `root` with the `api` scope. */
    rootToken: string;
  }
}

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const external = process.env.API_URL;
  if (external) {
    const token = process.env.ROOT_TOKEN;
    if (!token) {
      throw new Error('API_URL is set, so ROOT_TOKEN must be set too: a personal access token (scope api) of the admin root there.');
    }
    const apiUrl = external.replace(/\/+$/, '').replace(/\/api\/v4$/, '');
    project.provide('apiUrl', apiUrl);
    project.provide('rootToken', token);
    return async () => undefined;
  }

  // The suite's data is thrown away at the end: the table in DynamoDB Local's memory, the bucket on
  // a RAM disk where there is one (Linux). The runtime is otherwise the same.
  const dataDir = await mkdtemp(join(existsSync('/dev/shm') ? '/dev/shm' : tmpdir(), 'project-hosting-it-'));
  const rootToken = `glpat-${randomBytes(15).toString('base64url')}`;
  // Each response names its route's writes (X-Route-Writes), for the guard rail that a refused
  // request writes nothing (test/platform/hostile-input.integration.test.ts).
  process.env.WRITE_AUDIT ??= 'true';
  // DynamoDB Local's JVM with the serial collector: its concurrent collector threads compete with
  // the API and the tests for the 2 cores (the issues files ran ~5% faster: 105 s against 112 s,
  // mean of 3 runs each); the optimizing compiler stays (the quick one alone made the whole suite
  // slower). A JAVA_TOOL_OPTIONS already set wins.
  process.env.JAVA_TOOL_OPTIONS ??= '-XX:+UseSerialGC';
  // A job payload cap a test can reach with a few variables (deployed: 16 MB): test/ci/variables.integration.test.ts.
  process.env.JOB_PAYLOAD_LIMIT_BYTES ??= '250000';
  // Imported here so that running against API_URL never loads the handlers or the engines.
  const { startLocalRuntime } = await import('../../infra/local/runtime');
  let runtime;
  try {
    runtime = await startLocalRuntime({ port: 0, dataDir, rootToken, quiet: true, dynamoInMemory: true });
  } catch (error) {
    await rm(dataDir, { recursive: true, force: true });
    throw error;
  }
  const previousRootToken = process.env.ROOT_TOKEN;
  process.env.API_URL = runtime.url;
  process.env.ROOT_TOKEN = rootToken;
  project.provide('apiUrl', runtime.url);
  project.provide('rootToken', rootToken);

  return async () => {
    // Restore them, so that a re-run of this setup (watch mode) starts a fresh runtime.
    delete process.env.API_URL;
    if (previousRootToken === undefined) delete process.env.ROOT_TOKEN;
    else process.env.ROOT_TOKEN = previousRootToken;
    await runtime.stop();
    await rm(dataDir, { recursive: true, force: true });
  };
}
