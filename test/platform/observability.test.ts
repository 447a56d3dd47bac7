/**
 * Metrics and traces are for the deployed stack: where they are on, and that the tests and the
 * local runtime (every function in one process) write no EMF line and never reach for an X-Ray
 * daemon, even in an environment that looks like Lambda (CloudShell, CodeBuild, a shell with
 * Lambda's variables exported).
 */
import { execFile } from 'node:child_process';
import dgram from 'node:dgram';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { afterEach, beforeEach, describe, expect, it, vi, type MockInstance } from 'vitest';
import { startLocalRuntime } from '../../infra/local/runtime';
import { config } from '../../shared/platform/config';
import { db } from '../../shared/platform/dynamo/client';
import { createTracer, traced, tracer } from '../../shared/platform/observability';
import { isolateEnvironment, setEnvironment } from '../support/environment';

// The runtime creates root at start; that needs DynamoDB, which these tests do not start.
vi.mock('../../shared/users/bootstrap', () => ({ ensureRootUser: async () => ({ created: false }) }));
// Likewise the data migrations it runs at start.
vi.mock('../../functions/bootstrap/migrations', () => ({ runMigrations: async () => 'done', continueMigrationsInBackground: async () => undefined }));

/** Internal: every variable these tests or the local runtime set, restored after each test. */
const VARIABLES = [
  'POWERTOOLS_METRICS_DISABLED',
  'POWERTOOLS_TRACE_ENABLED',
  'POWERTOOLS_DEV',
  'AWS_LAMBDA_FUNCTION_NAME',
  'AWS_EXECUTION_ENV',
  'AWS_LAMBDA_INITIALIZATION_TYPE',
  'LOCAL_ENGINES',
  'TABLE_NAME',
  'BUCKET_NAME',
  'EXTERNAL_URL',
  'AWS_REGION',
  'LOG_LEVEL',
  'HOOKS_ALLOW_LOCAL_NETWORK',
  'SECRET_BOX_KEY',
  'SECRET_BOX_KEY_SECRET_ARN',
  'AWS_ENDPOINT_URL',
  'AWS_ENDPOINT_URL_S3',
  'S3_FORCE_PATH_STYLE',
  'PROVISION',
] as const;

isolateEnvironment(VARIABLES);

afterEach(() => {
  vi.restoreAllMocks();
});

/** Internal: the names of the middlewares on a client's stack. */
const middlewareNames = (client: { middlewareStack: { identify(): string[] } }) => client.middlewareStack.identify();

/** Internal: Lambda's own variables (Powertools reads AWS_EXECUTION_ENV; the platform AWS_LAMBDA_FUNCTION_NAME). */
const LAMBDA = { AWS_LAMBDA_FUNCTION_NAME: 'project-hosting-users', AWS_EXECUTION_ENV: 'AWS_Lambda_nodejs22.x' } as const;

describe('configuration', () => {
  it.each([
    ['the tests (no Lambda variable)', {}, { metricsEnabled: false, tracingEnabled: false }],
    ['Lambda', LAMBDA, { metricsEnabled: true, tracingEnabled: true }],
    ['Lambda with POWERTOOLS_METRICS_DISABLED=true', { ...LAMBDA, POWERTOOLS_METRICS_DISABLED: 'true' }, { metricsEnabled: false, tracingEnabled: true }],
    ['Lambda with POWERTOOLS_TRACE_ENABLED=false', { ...LAMBDA, POWERTOOLS_TRACE_ENABLED: 'false' }, { metricsEnabled: true, tracingEnabled: false }],
    ['a local run asking for metrics (POWERTOOLS_METRICS_DISABLED=false)', { POWERTOOLS_METRICS_DISABLED: 'false' }, { metricsEnabled: true, tracingEnabled: false }],
    ['a local run asking for traces (no daemon to send them to)', { POWERTOOLS_TRACE_ENABLED: 'true' }, { metricsEnabled: false, tracingEnabled: false }],
  ] as const)('under %s', (_, variables, expected) => {
    // Act
    setEnvironment(variables);

    // Assess
    expect({ metricsEnabled: config().metricsEnabled, tracingEnabled: config().tracingEnabled }).toEqual(expected);
  });

  it('names the metrics namespace ProjectHosting by default', () => {
    expect(config().metricsNamespace).toBe('ProjectHosting');
  });
});

describe('AWS SDK clients', () => {
  it('are left as they are where tracing is off (the tests)', () => {
    // Act
    const client = new DynamoDBClient({ region: 'us-east-1' });
    const before = middlewareNames(client);

    // Assess
    expect(tracer().isTracingEnabled()).toBe(false);
    expect(traced(client)).toBe(client);
    expect(middlewareNames(client)).toEqual(before);
    expect(middlewareNames(db()).join()).not.toContain('XRaySDKInstrumentation');
  });

  it('are traced with X-Ray on Lambda', () => {
    // Prepare
    setEnvironment(LAMBDA);

    // Act
    const client = traced(new DynamoDBClient({ region: 'us-east-1' }));

    // Assess
    expect(tracer().isTracingEnabled()).toBe(true);
    expect(middlewareNames(client).join()).toContain('XRaySDKInstrumentation');
  });

  it('are not traced on Lambda with POWERTOOLS_TRACE_ENABLED=false, nor where only Powertools would think it is on Lambda', () => {
    // Act / Assess: the platform's switch...
    setEnvironment({ ...LAMBDA, POWERTOOLS_TRACE_ENABLED: 'false' });
    expect(createTracer().isTracingEnabled()).toBe(false);
    // ...and a container that sets AWS_EXECUTION_ENV (ECS, CodeBuild) is not Lambda.
    setEnvironment({ AWS_EXECUTION_ENV: 'AWS_ECS_FARGATE' });
    expect(createTracer().isTracingEnabled()).toBe(false);
  });
});

describe('the X-Ray SDK', () => {
  /** Internal: runs `script` (ESM) in a fresh node process with tsx, in the given environment; answers its stdout. */
  async function runFresh(script: string, environment: Record<string, string>): Promise<string> {
    const { stdout } = await promisify(execFile)(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
      cwd: resolve(__dirname, '../..'),
      env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', ...environment },
    });
    return stdout.trim();
  }

  /** Internal: creates the DynamoDB client and opens a request trace, then prints how many X-Ray SDK modules are loaded. */
  const SCRIPT = `
    import { createRequire } from 'node:module';
    const { db } = await import('./shared/platform/dynamo/client.ts');
    const { traceInvocation } = await import('./shared/platform/observability.ts');
    db();
    traceInvocation()?.end({ annotations: {}, status: 200 });
    const cache = createRequire(import.meta.url).cache;
    console.log(Object.keys(cache).filter((file) => file.includes('aws-xray-sdk-core')).length);
  `;

  it('is not loaded where tracing is off: its async hook would make every promise of the process costlier', async () => {
    expect(Number(await runFresh(SCRIPT, { AWS_REGION: 'us-east-1' }))).toBe(0);
  });

  it('is loaded with the first AWS SDK client on Lambda', async () => {
    expect(Number(await runFresh(SCRIPT, { AWS_REGION: 'us-east-1', ...LAMBDA }))).toBeGreaterThan(0);
  });
});

describe('the local runtime', () => {
  let stdout: MockInstance;
  let createSocket: MockInstance;

  beforeEach(() => {
    stdout = vi.spyOn(process.stdout, 'write');
    createSocket = vi.spyOn(dgram, 'createSocket');
  });

  /** Internal: the EMF lines written to stdout since the spy started. */
  const emfLines = () =>
    stdout.mock.calls
      .map(([chunk]) => String(chunk))
      .join('')
      .split('\n')
      .filter((line) => line.includes('"_aws"'));

  it.each([
    ['as the tests run it', {}],
    ["in an environment with Lambda's variables", LAMBDA],
  ] as const)('turns metrics and tracing off, %s', async (_, variables) => {
    // Prepare: no emulator (no data access in these requests); handlers loaded as `npm start` loads them.
    setEnvironment({ ...variables, LOCAL_ENGINES: 'false' });
    const dataDir = await mkdtemp(join(tmpdir(), 'observability-'));
    const runtime = await startLocalRuntime({ port: 0, dataDir, quiet: true });
    try {
      // Act: an anonymous route (200), and one refused without a token (401).
      const openapi = await fetch(`${runtime.url}/api/v4/openapi.json`);
      await openapi.arrayBuffer();
      const version = await fetch(`${runtime.url}/api/v4/version`);
      await version.arrayBuffer();

      // Assess
      expect([openapi.status, version.status]).toEqual([200, 401]);
      expect(process.env).toMatchObject({ POWERTOOLS_METRICS_DISABLED: 'true', POWERTOOLS_TRACE_ENABLED: 'false' });
      expect({ metricsEnabled: config().metricsEnabled, tracingEnabled: config().tracingEnabled }).toEqual({ metricsEnabled: false, tracingEnabled: false });
      expect(tracer().isTracingEnabled()).toBe(false);
      expect(middlewareNames(db()).join()).not.toContain('XRaySDKInstrumentation');
      expect(emfLines()).toEqual([]);
      expect(createSocket).not.toHaveBeenCalled();
    } finally {
      await runtime.stop();
      await rm(dataDir, { recursive: true, force: true });
    }
  });
});
