/**
 * What the API benchmarks (`bench.ts`, `issues.ts`) share: settings from the environment, the
 * target (the local runtime started in this process, or a deployment given by `API_URL` and
 * `ROOT_TOKEN`), the DynamoDB call counter, HTTP calls, a bounded pool, percentiles, aligned
 * tables, and the cleanup of the runtime and its temporary data directory at the end, also on
 * failure or Ctrl-C.
 *
 * DynamoDB calls are counted with a middleware on the shared document client (`db()` of
 * shared/platform/dynamo/client.ts), which every handler uses: this works because the local
 * runtime invokes the handlers in this very process. It counts SDK commands (one per `send`, SDK
 * retries are not counted again); S3 requests are counted the same way on the shared S3 client.
 */
import { cp, mkdtemp, rename, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';

// ---------------------------------------------------------------------------------------------
// Settings
// ---------------------------------------------------------------------------------------------

export function intEnv(name: string, fallback: number, min = 1): number {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < min) throw new Error(`${name} must be an integer >= ${min}, got '${raw}'`);
  return value;
}

/** No single request may hang the benchmark (API Gateway itself gives up after 29 s). */
export const REQUEST_TIMEOUT_MS = 30_000;

export const progress = (message: string) => process.stderr.write(`${message}\n`);

// ---------------------------------------------------------------------------------------------
// DynamoDB call counting (local mode only)
// ---------------------------------------------------------------------------------------------

export interface CallCounter {
  /** Calls made by requests (the API functions' invocations). */
  total: number;
  byCommand: Map<string, number>;
  /**
   * Calls made meanwhile by stream-invoked and scheduled functions (hook delivery, the jobs
   * worker and sweep, the CI scheduler), which on AWS are invocations of their own, not part of
   * the request that wrote the record (`infra/local/invocations.ts`).
   */
  background: number;
  /** S3 requests (the runner's trace appends write one object each). */
  s3: number;
  /** While set, each request's DynamoDB call is also recorded here (to be replayed raw: the floor of a request's own calls). */
  recording?: RecordedCall[];
}

/** One DynamoDB call a request made, as the document client was given it, and when it was in flight. */
export interface RecordedCall {
  /** The operation (`GetItem`, `Query`, `BatchGetItem`, ...). */
  name: string;
  input: Record<string, unknown>;
  started: number;
  ended: number;
}

/** Installs the counter on the shared document client and the shared S3 client (the ones every handler uses). */
export async function installCallCounter(): Promise<CallCounter> {
  const { db } = await import('../../shared/platform/dynamo/client');
  const { s3 } = await import('../../shared/platform/s3/client');
  const { inBackgroundInvocation } = await import('../../infra/local/invocations');
  const counter: CallCounter = { total: 0, byCommand: new Map(), background: 0, s3: 0 };
  (await s3()).client.middlewareStack.add(
    (next) => async (args) => {
      counter.s3++;
      return next(args);
    },
    { step: 'initialize', name: 'benchS3CallCounter' },
  );
  db().middlewareStack.add(
    (next, context) => async (args) => {
      if (inBackgroundInvocation()) {
        counter.background++;
        return next(args);
      }
      counter.total++;
      // `commandName` is the low-level operation (GetItemCommand for a document GetCommand).
      const name = String((context as { commandName?: string }).commandName ?? 'unknown').replace(/Command$/, '');
      counter.byCommand.set(name, (counter.byCommand.get(name) ?? 0) + 1);
      const recording = counter.recording;
      if (!recording) return next(args);
      const call: RecordedCall = { name, input: structuredClone((args as { input: Record<string, unknown> }).input), started: performance.now(), ended: 0 };
      recording.push(call);
      try {
        return await next(args);
      } finally {
        call.ended = performance.now();
      }
    },
    { step: 'initialize', name: 'benchCallCounter' },
  );
  return counter;
}

export function snapshot(counter: CallCounter | undefined): CallCounter | undefined {
  return counter && { total: counter.total, byCommand: new Map(counter.byCommand), background: counter.background, s3: counter.s3 };
}

// ---------------------------------------------------------------------------------------------
// HTTP
// ---------------------------------------------------------------------------------------------

export interface Target {
  /** Base URL without `/api/v4`. */
  base: string;
  token: string;
  /** Local mode: every URL must stay on this origin (loopback only). */
  onlyOrigin?: string;
}

export interface Reply {
  status: number;
  headers: Headers;
  body: unknown;
  ms: number;
}

export interface CallOptions {
  /** Sent without root's `PRIVATE-TOKEN` (the runner API authenticates with the runner's or job's token). */
  anonymous?: boolean;
  headers?: Record<string, string>;
  /** Sent as is instead of JSON (a trace chunk). */
  raw?: Buffer;
}

export async function call(
  target: Target,
  method: 'GET' | 'POST' | 'PUT' | 'PATCH',
  pathOrUrl: string,
  body?: unknown,
  options: CallOptions = {},
): Promise<Reply> {
  const url = new URL(/^https?:/.test(pathOrUrl) ? pathOrUrl : `${target.base}/api/v4${pathOrUrl}`);
  if (target.onlyOrigin && url.origin !== target.onlyOrigin) {
    throw new Error(`refusing to call ${url.origin}: the benchmark only talks to ${target.onlyOrigin}`);
  }
  const headers: Record<string, string> = options.anonymous ? {} : { 'PRIVATE-TOKEN': target.token };
  if (body !== undefined) headers['Content-Type'] = 'application/json';
  Object.assign(headers, options.headers);
  const started = performance.now();
  const response = await fetch(url, {
    method,
    headers,
    body: options.raw ?? (body === undefined ? undefined : JSON.stringify(body)),
    redirect: 'manual',
    signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
  });
  const text = await response.text();
  const ms = performance.now() - started;
  let parsed: unknown = text;
  if (text && /json/i.test(response.headers.get('content-type') ?? '')) {
    try {
      parsed = JSON.parse(text);
    } catch {
      // keep the text
    }
  }
  return { status: response.status, headers: response.headers, body: parsed, ms };
}

/** The URL of `rel="next"` in a Link header, if any. */
export function nextLink(headers: Headers): string | undefined {
  for (const part of (headers.get('link') ?? '').split(',')) {
    const match = /<([^>]+)>\s*;\s*rel="?next"?/.exec(part);
    if (match) return match[1];
  }
  return undefined;
}

export const describe = (reply: Reply) => `${reply.status} ${JSON.stringify(reply.body).slice(0, 300)}`;

/** Runs `task(i)` for i in [0, total) with at most `concurrency` at once; stops starting new ones past `deadline`. */
export async function pool(total: number, concurrency: number, deadline: number, task: (i: number) => Promise<void>): Promise<number> {
  let next = 0;
  const worker = async () => {
    while (next < total && performance.now() < deadline) {
      const i = next++;
      await task(i);
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, total) }, worker));
  return next;
}

// ---------------------------------------------------------------------------------------------
// Numbers and tables
// ---------------------------------------------------------------------------------------------

/** Nearest-rank percentile of sorted values. */
export function percentile(sorted: number[], q: number): number {
  if (!sorted.length) return Number.NaN;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))];
}

export const round = (value: number, digits = 2) => Number(value.toFixed(digits));

/**
 * An aligned text table: a header, a rule, the rows; columns two spaces apart, numbers right-aligned,
 * the columns listed in `leftAligned` (by index; the first by default) left-aligned.
 */
export function alignedTable(header: string[], rows: string[][], leftAligned: readonly number[] = [0]): string {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((row) => row[i].length)));
  const line = (cells: string[]) =>
    cells.map((cell, i) => (leftAligned.includes(i) ? cell.padEnd(widths[i]) : cell.padStart(widths[i]))).join('  ').trimEnd();
  return [line(header), widths.map((w) => '-'.repeat(w)).join('  '), ...rows.map(line)].join('\n');
}

// ---------------------------------------------------------------------------------------------
// The target, and the cleanup at the end
// ---------------------------------------------------------------------------------------------

export interface BenchTarget {
  target: Target;
  /** Local mode only: DynamoDB (and S3) calls of the handlers, which run in this process. */
  counter?: CallCounter;
  /** True for the local runtime started by this process (this process then reaches its table directly). */
  local: boolean;
}

export interface BenchSession {
  /**
   * The local runtime on a free port of 127.0.0.1 and a fresh temporary data directory, with the
   * given root token; or, with both `API_URL` and `ROOT_TOKEN` set, that deployment (nothing is
   * started, calls are not counted). Checks that the token is an admin's.
   */
  start(options: {
    rootToken: string;
    /** Where the temporary data directory is made (default `BENCH_TMPDIR`, else the system's temporary directory). */
    tmpDir?: string;
    /** A data directory kept by {@link BenchSession.keepData}: the runtime starts on a copy of it (the kept one stays as it is). */
    seededFrom?: string;
  }): Promise<BenchTarget>;
  /**
   * Stops the local runtime and moves its data directory to `to` (which must not exist), where
   * it outlives the run: a later run starts on a copy of it (`seededFrom`).
   */
  keepData(to: string): Promise<void>;
  /** Stops the runtime and removes its data directory (safe to call more than once). */
  cleanup(): Promise<void>;
}

/**
 * Runs a benchmark's `main` and exits with its code: 1 (with the error on stderr) when it throws,
 * 130 on Ctrl-C or SIGTERM. The runtime it started is stopped and the temporary data directory
 * removed in every case.
 */
export function runBench(main: (session: BenchSession) => Promise<number>): void {
  let stop: (() => Promise<void>) | undefined;
  let dataDir: string | undefined;
  const cleanup = async () => {
    const dir = dataDir;
    const steps = [stop, dir ? () => rm(dir, { recursive: true, force: true }) : undefined];
    stop = undefined;
    dataDir = undefined;
    for (const step of steps) {
      try {
        await step?.();
      } catch (error) {
        progress(`cleanup: ${(error as Error).message}`);
      }
    }
  };
  let interrupted = false;
  const onSignal = (signal: NodeJS.Signals) => {
    if (interrupted) process.exit(130);
    interrupted = true;
    progress(`${signal}: stopping`);
    void cleanup().finally(() => process.exit(130));
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);

  const session: BenchSession = {
    cleanup,
    async keepData(to) {
      const dir = dataDir;
      if (!dir || !stop) throw new Error('keepData: no local runtime is running');
      await stop();
      stop = undefined;
      try {
        await rename(dir, to);
      } catch (error) {
        // Another file system (the data on tmpfs, the kept copy on a disk).
        if ((error as NodeJS.ErrnoException).code !== 'EXDEV') throw error;
        await cp(dir, to, { recursive: true, errorOnExist: true, force: false });
        await rm(dir, { recursive: true, force: true });
      }
      dataDir = undefined;
    },
    async start({ rootToken, tmpDir, seededFrom }) {
      const external = process.env.API_URL;
      if (external && !process.env.ROOT_TOKEN) throw new Error('API_URL is set, so ROOT_TOKEN must be set too (a token of the admin root there)');
      let result: BenchTarget;
      if (external) {
        result = { target: { base: external.replace(/\/+$/, '').replace(/\/api\/v4$/, ''), token: process.env.ROOT_TOKEN! }, local: false };
        progress(`benchmarking ${result.target.base} (DynamoDB calls are not counted against a deployment)`);
      } else {
        dataDir = await mkdtemp(join(tmpDir || process.env.BENCH_TMPDIR || tmpdir(), 'project-hosting-bench-'));
        if (seededFrom) {
          progress(`copying ${seededFrom} to ${dataDir}`);
          await cp(seededFrom, dataDir, { recursive: true });
        }
        progress(`starting the local runtime (data in ${dataDir})`);
        const { startLocalRuntime } = await import('../../infra/local/runtime');
        const runtime = await startLocalRuntime({ port: 0, dataDir, rootToken, quiet: true });
        stop = () => runtime.stop();
        const origin = new URL(runtime.url);
        if (origin.hostname !== '127.0.0.1') throw new Error(`the local runtime is not on loopback: ${runtime.url}`);
        result = { target: { base: runtime.url, token: rootToken, onlyOrigin: origin.origin }, counter: await installCallCounter(), local: true };
        progress(`local runtime at ${runtime.url}`);
      }
      const me = await call(result.target, 'GET', '/user');
      if (me.status !== 200 || !(me.body as { is_admin?: boolean }).is_admin) {
        throw new Error(`the token is not an admin's: GET /user answered ${describe(me)}`);
      }
      return result;
    },
  };

  main(session)
    .finally(cleanup)
    .then(
      (code) => process.exit(code),
      (error: unknown) => {
        progress(`bench failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
        process.exit(1);
      },
    );
}
