/**
 * `npm start`: runs the service locally (see runtime.ts).
 *
 * Environment: PORT (default 3000), DATA_DIR (default `.data`, kept across restarts), ROOT_TOKEN
 * (root's token on first start; without it a random one is generated and printed once, since
 * only its hash is stored). Ctrl-C or SIGTERM stops everything, DynamoDB Local's JVM included.
 * Logs are JSON lines; on a terminal a short banner (banner.ts) follows the start line.
 */
import { resolve } from 'node:path';
import { startBanner, startedLogFields, type StartedInfo } from './banner';
import { startLocalRuntime, type LocalRuntime } from './runtime';

function log(level: 'info' | 'error', message: string, fields: Record<string, unknown> = {}): void {
  const line = JSON.stringify({ level, time: new Date().toISOString(), message, ...fields });
  (level === 'error' ? process.stderr : process.stdout).write(`${line}\n`);
}

async function main(): Promise<void> {
  const port = Number(process.env.PORT ?? 3000);
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new Error(`invalid PORT '${process.env.PORT}'`);
  const dataDir = resolve(process.env.DATA_DIR || '.data');
  const rootToken = process.env.ROOT_TOKEN || undefined;

  let starting: Promise<LocalRuntime> | undefined;
  let stopping = false;
  const shutdown = (signal: NodeJS.Signals) => {
    if (stopping) {
      // A second Ctrl-C: give up waiting; the exit hook still kills the JVM.
      process.exit(130);
    }
    stopping = true;
    log('info', 'stopping', { signal });
    // If still starting, let the start finish (or fail and clean up after itself), then stop.
    const stopped = (starting ?? Promise.reject(new Error('not started'))).then(
      (runtime) => runtime.stop(),
      () => undefined,
    );
    void stopped.then(
      () => process.exit(0),
      (error: unknown) => {
        log('error', 'error while stopping', { error: String(error) });
        process.exit(1);
      },
    );
  };
  process.on('SIGINT', shutdown);
  process.on('SIGTERM', shutdown);
  process.on('SIGHUP', shutdown);

  starting = startLocalRuntime({ port, dataDir, rootToken });
  const runtime = await starting;
  if (stopping) return;
  const started: StartedInfo = {
    url: runtime.url,
    dataDir,
    rootCreated: runtime.rootCreated,
    generatedToken: runtime.rootCreated && !rootToken ? runtime.rootToken : undefined,
    rootTokenGiven: rootToken !== undefined,
  };
  // A person at a terminal gets a banner (which then carries a generated token); machines, JSON only.
  const banner = process.stdout.isTTY === true;
  log('info', 'local runtime started', startedLogFields(started, { banner }));
  if (banner) process.stdout.write(`${startBanner(started)}\n`);
}

main().catch((error: unknown) => {
  log('error', 'local runtime failed to start', {
    error: error instanceof Error ? error.message : String(error),
  });
  process.exit(1);
});
