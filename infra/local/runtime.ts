/**
 * The local runtime: the deployed architecture on one machine. DynamoDB Local and s3rver stand
 * in for DynamoDB and S3, an HTTP server stands in for API Gateway, and the very same group
 * handlers the stack deploys to Lambda are invoked in-process.
 *
 * With `AWS_ENDPOINT_URL` set (LocalStack) or `LOCAL_ENGINES=false`, no emulator is started: the
 * handlers use whatever endpoints and credentials the environment gives the AWS SDK, and the
 * table and bucket are created only if `PROVISION=true`.
 *
 * Webhooks: where the runtime provisions the table, a stream poller (`streams.ts`) stands in for
 * the Lambda event source mapping and runs `functions/hook_delivery` in-process; it reads
 * DynamoDB Local's stream, or LocalStack's with `AWS_ENDPOINT_URL` set.
 *
 * CI scheduler: where the runtime provisions the table, a timer (`scheduler.ts`) stands in for the
 * EventBridge schedule and runs `functions/ci_scheduler` in-process every minute
 * (`CI_SCHEDULER_INTERVAL_SECONDS`; 0 turns it off).
 *
 * Background jobs (deletions): where the runtime provisions the table, a second stream poller and
 * a timer run `functions/jobs` in-process, as its deployed stream mapping and schedule do
 * (`JOBS_SWEEP_INTERVAL_SECONDS`, default a minute; 0 turns the sweep off).
 */
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { ensureKeyFile } from '../../shared/platform/crypto/secret-box';
import { routeCatalog, type GroupName } from '../../shared/catalog';
import { createApiServer, type ProxyHandler } from './api-gateway';
import { installStreamingRuntime } from './lambda-streaming';
import { startEngines, type Engines } from './engines';
import type { StreamHandler } from './streams';
import { resetConfig } from '../../shared/platform/config';

export interface LocalRuntimeOptions {
  /** HTTP port on 127.0.0.1; 0 picks a free one (see `url`). */
  port: number;
  /** Where the engines persist their data; reuse it to keep data across restarts. */
  dataDir: string;
  /** Secret of root's personal access token when root is created; random otherwise. */
  rootToken?: string;
  /** Only warnings and errors from the handlers' logs (unless LOG_LEVEL is set). */
  quiet?: boolean;
  /** The table lives in DynamoDB Local's memory only, not in `dataDir` (tests: faster, thrown away anyway). */
  dynamoInMemory?: boolean;
}

export interface LocalRuntime {
  /** Base URL, e.g. `http://127.0.0.1:3000` (the API is under `/api/v4`). */
  url: string;
  /** True when this start created root (first start on an empty data directory). */
  rootCreated: boolean;
  /** Root's token when root was created now (the generated one, or the one given); else the one given, if any. */
  rootToken?: string;
  /** Stops the HTTP server and the engines (no process is left behind). Safe to call twice. */
  stop(): Promise<void>;
}

type BootstrapModule = {
  ensureRootUser(options: { token?: string }): Promise<{ created: boolean; token?: string }>;
};

/** Sets a variable only if the environment does not already define it. */
function setDefault(name: string, value: string): void {
  if (process.env[name] === undefined || process.env[name] === '') process.env[name] = value;
}

/**
 * Webhook delivery: the stream poller stands in for the event source mapping, invoking the same
 * handler with the same filter. Only where this runtime provisioned the table: against a stack
 * deployed to LocalStack, its own mapping delivers (LocalStack's streams work with the poller too,
 * but both would send every hook twice). Hooks may target 127.0.0.1 here, so tests can receive
 * them; never on AWS. Resolves once the poller reads the stream's end; returns its stop.
 */
async function startHookDelivery(): Promise<() => Promise<void>> {
  let handler: StreamHandler;
  try {
    ({ handler } = await import('../../functions/hook_delivery/handler'));
  } catch (error) {
    throw new Error(`could not load functions/hook_delivery/handler.ts: ${(error as Error).message}`, { cause: error });
  }
  const { startStreamPoller } = await import('./streams');
  const { HOOK_EVENT_STREAM_FILTER } = await import('../../shared/hooks/store/hook-events');
  const poller = await startStreamPoller({ tableName: process.env.TABLE_NAME!, handler, filter: HOOK_EVENT_STREAM_FILTER });
  return () => poller.stop();
}

/** The local stand-in's pause between sweeps of the jobs worker, in ms: `JOBS_SWEEP_INTERVAL_SECONDS`, else the deployed rate (0: off). */
export function jobsSweepIntervalMs(env: NodeJS.ProcessEnv = process.env): number {
  const seconds = Number(env.JOBS_SWEEP_INTERVAL_SECONDS);
  if (env.JOBS_SWEEP_INTERVAL_SECONDS === undefined || env.JOBS_SWEEP_INTERVAL_SECONDS.trim() === '' || !Number.isFinite(seconds) || seconds < 0) return 60_000;
  return Math.round(seconds * 1000);
}

/**
 * The background jobs worker (deletions): the stream poller stands in for its event source
 * mapping (queued jobs, `JOB_STREAM_FILTER`) and a timer for its schedule (the sweep), both
 * invoking `functions/jobs` in-process as the deployed triggers do (`infra/constructs/jobs.ts`).
 * Only where this runtime provisioned the table. Returns their stop.
 */
async function startJobsWorker(): Promise<() => Promise<void>> {
  let handler: StreamHandler & ((event: { source: string }) => Promise<unknown>);
  try {
    ({ handler } = (await import('../../functions/jobs/handler')) as unknown as { handler: typeof handler });
  } catch (error) {
    throw new Error(`could not load functions/jobs/handler.ts: ${(error as Error).message}`, { cause: error });
  }
  const { startStreamPoller } = await import('./streams');
  const { startSchedule } = await import('./scheduler');
  const { JOB_STREAM_FILTER } = await import('../../shared/platform/jobs');
  const poller = await startStreamPoller({ tableName: process.env.TABLE_NAME!, handler: async (event) => void (await handler(event)), filter: JOB_STREAM_FILTER });
  const intervalMs = jobsSweepIntervalMs();
  const schedule = intervalMs > 0 ? startSchedule({ handler, intervalMs }) : undefined;
  return async () => {
    await schedule?.stop();
    await poller.stop();
  };
}

/** The local stand-in's pause between CI scheduler runs, in ms: `CI_SCHEDULER_INTERVAL_SECONDS`, else the deployed rate (0: off). */
export function ciSchedulerIntervalMs(env: NodeJS.ProcessEnv = process.env): number {
  const seconds = Number(env.CI_SCHEDULER_INTERVAL_SECONDS);
  if (env.CI_SCHEDULER_INTERVAL_SECONDS === undefined || env.CI_SCHEDULER_INTERVAL_SECONDS.trim() === '' || !Number.isFinite(seconds) || seconds < 0) return 60_000;
  return Math.round(seconds * 1000);
}

/**
 * The CI scheduler: a timer stands in for the EventBridge schedule, invoking the same handler.
 * Only where this runtime provisioned the table (a LocalStack deployment has its own rule).
 * Returns its stop.
 */
async function startCiScheduler(): Promise<() => Promise<void>> {
  const intervalMs = ciSchedulerIntervalMs();
  if (intervalMs === 0) return async () => undefined;
  let handler: (event: unknown) => Promise<unknown>;
  try {
    ({ handler } = await import('../../functions/ci_scheduler/handler'));
  } catch (error) {
    throw new Error(`could not load functions/ci_scheduler/handler.ts: ${(error as Error).message}`, { cause: error });
  }
  const { startSchedule } = await import('./scheduler');
  const schedule = startSchedule({ handler, intervalMs });
  return () => schedule.stop();
}

/** Whether to run the emulators, or use the endpoints already configured (LocalStack, AWS). */
export function usesLocalEngines(env: NodeJS.ProcessEnv = process.env): boolean {
  return !env.AWS_ENDPOINT_URL && env.LOCAL_ENGINES !== 'false';
}

export async function startLocalRuntime(options: LocalRuntimeOptions): Promise<LocalRuntime> {
  const cleanups: Array<() => Promise<void>> = [];
  const stopAll = async () => {
    for (const cleanup of cleanups.splice(0).reverse()) {
      try {
        await cleanup();
      } catch {
        // Keep stopping the rest.
      }
    }
  };

  // Listen first: EXTERNAL_URL must hold the real port before any handler reads the config.
  // Requests wait for `ready` (handlers loaded, table and root provisioned).
  let markReady!: () => void;
  let markFailed!: (error: unknown) => void;
  const ready = new Promise<void>((resolve, reject) => {
    markReady = resolve;
    markFailed = reject;
  });
  ready.catch(() => undefined);
  const handlers: Partial<Record<GroupName, ProxyHandler>> = {};
  const server = createApiServer({ handlers, ready });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
  cleanups.push(
    () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  );
  const port = (server.address() as AddressInfo).port;
  const url = `http://127.0.0.1:${port}`;

  try {
    // Everything the handlers and the SDK read from the environment, set before importing them.
    setDefault('TABLE_NAME', 'project-hosting');
    setDefault('BUCKET_NAME', 'project-hosting');
    setDefault('EXTERNAL_URL', url);
    setDefault('AWS_REGION', 'us-east-1');
    if (options.quiet) setDefault('LOG_LEVEL', 'warn');
    // Hooks may target 127.0.0.1 here, so tests can receive them (read only where this runtime delivers).
    setDefault('HOOKS_ALLOW_LOCAL_NETWORK', 'true');
    // Metrics (EMF lines on stdout) and X-Ray traces are for the deployed stack: off unless asked
    // (POWERTOOLS_METRICS_DISABLED=false prints the metrics); no X-Ray daemon is ever contacted.
    setDefault('POWERTOOLS_METRICS_DISABLED', 'true');
    setDefault('POWERTOOLS_TRACE_ENABLED', 'false');

    const local = usesLocalEngines();
    if (local) {
      setDefault('AWS_ACCESS_KEY_ID', 'local');
      setDefault('AWS_SECRET_ACCESS_KEY', 'local');
      const engines: Engines = await startEngines({
        dataDir: options.dataDir,
        dynamoPort: 0,
        s3Port: 0,
        bucket: process.env.BUCKET_NAME!,
        accessKeyId: process.env.AWS_ACCESS_KEY_ID,
        dynamoInMemory: options.dynamoInMemory,
      });
      cleanups.push(() => engines.stop());
      process.env.AWS_ENDPOINT_URL_DYNAMODB = engines.dynamoEndpoint;
      process.env.AWS_ENDPOINT_URL_S3 = engines.s3Endpoint;
      process.env.S3_FORCE_PATH_STYLE = 'true';
    } else if (process.env.AWS_ENDPOINT_URL || process.env.AWS_ENDPOINT_URL_S3) {
      // LocalStack serves buckets path-style only.
      setDefault('S3_FORCE_PATH_STYLE', 'true');
    }

    // Stored secrets (hook tokens) are sealed with a key kept beside the data, so that a
    // restarted runtime still opens them (see shared/platform/crypto/secret-box.ts).
    if (!process.env.SECRET_BOX_KEY && !process.env.SECRET_BOX_KEY_SECRET_ARN) {
      process.env.SECRET_BOX_KEY = await ensureKeyFile(join(options.dataDir, 'secret-box.key'));
    }

    // Dynamic imports, after the environment is final (and read afresh: config() caches it).
    resetConfig();
    // Streaming groups call Lambda's `awslambda.streamifyResponse` as they load.
    installStreamingRuntime();
    for (const group of Object.keys(routeCatalog) as GroupName[]) {
      let module: { handler?: unknown };
      try {
        module = (await import(`../../functions/${group}/handler.ts`)) as { handler?: unknown };
      } catch (error) {
        throw new Error(`could not load functions/${group}/handler.ts: ${(error as Error).message}`, { cause: error });
      }
      if (typeof module.handler !== 'function') throw new Error(`functions/${group}/handler.ts does not export a handler`);
      handlers[group] = module.handler as ProxyHandler;
    }

    if (local || process.env.PROVISION === 'true') {
      const { ensureBucket, ensureTable } = await import('./provision');
      await ensureTable(process.env.TABLE_NAME!);
      await ensureBucket(process.env.BUCKET_NAME!);
      cleanups.push(await startHookDelivery());
      cleanups.push(await startCiScheduler());
      cleanups.push(await startJobsWorker());
    }

    const bootstrap: BootstrapModule = await import('../../shared/users/bootstrap');
    const root = await bootstrap.ensureRootUser({ token: options.rootToken });
    // As the bootstrap does on deploy (without its time limit): a migration another process holds
    // (one stopped mid-run keeps its lease a while) is left to the jobs worker, which retries it.
    const { continueMigrationsInBackground, runMigrations } = await import('../../functions/bootstrap/migrations');
    if ((await runMigrations()) !== 'done') await continueMigrationsInBackground();
    markReady();

    let stopping: Promise<void> | undefined;
    return {
      url,
      rootCreated: root.created,
      rootToken: root.created ? (root.token ?? options.rootToken) : options.rootToken,
      stop: () => (stopping ??= stopAll()),
    };
  } catch (error) {
    markFailed(error);
    await stopAll();
    throw error;
  }
}
