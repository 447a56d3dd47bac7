/**
 * `npm run bench`: a small load benchmark of the API, with the DynamoDB cost of each request.
 *
 * What it does
 * - Starts the local runtime (DynamoDB Local + s3rver + the API, handlers in this process) on a
 *   free port of 127.0.0.1, on a fresh temporary data directory, with a fixed root token.
 *   With both `API_URL` and `ROOT_TOKEN` set, it benchmarks that deployment instead (nothing is
 *   started; DynamoDB call counts are then unknown and shown as `-`).
 * - Seeds data as root: `BENCH_SEED_USERS` users (POST /users) and a few SSH keys on root.
 *   `BENCH_SEED_PROJECTS` public projects, and `BENCH_SEED_ISSUES` issues in the first one (every
 *   third closed, half of them labelled, so lists filter and merge states).
 *   Progress goes to stderr (`seeding users 120/300`).
 * - Runs each scenario alone, one after the other, after a short unmeasured warm-up:
 *     GET /user
 *     GET /users?per_page=100                       (as root, i.e. admin fields)
 *     GET /users?per_page=100&page=3
 *     GET /users?pagination=keyset&per_page=100    (each iteration: first page, then its rel="next"
 *                                                   link; both HTTP requests are counted/timed)
 *     POST /users                                   (a new unique user per request)
 *     GET /user/keys
 *     GET /projects?per_page=100, GET /projects/:id, POST /projects
 *     GET /projects/:id/issues                      (newest first; and open ones by updated_at)
 *     GET /projects/:id/issues?order_by=updated_at&pagination=keyset (+next)
 *     POST /projects/:id/issues                     (with two labels: label counts in the transaction)
 *     POST /projects/:id/issues/:iid/notes
 *   Every request is made as root (PRIVATE-TOKEN).
 * - Prints to stdout an aligned table (scenario | requests | errors | req/s | p50 ms | p99 ms |
 *   DynamoDB calls/request), then the calls per request broken down by DynamoDB operation, and
 *   as the very last line one JSON object with all the numbers (for CI trend tracking:
 *   `npm run bench | tail -n 1`).
 * - Stops the runtime and removes the temporary directory at the end, also on failure or Ctrl-C.
 *   Exit code 0 on success, 1 when the setup fails or a scenario has errors.
 *
 * DynamoDB calls are counted with a middleware on the shared document client (`db()` of
 * shared/platform/dynamo/client.ts), which every handler uses: this works because the local runtime invokes
 * the handlers in this very process. It counts SDK commands (one per `send`, SDK retries are not
 * counted again). Each scenario runs alone, so calls/request = calls during the scenario /
 * HTTP requests of the scenario. Note: `last_activity_on` is written at most once per user per
 * day, so root's activity write happens during seeding and never shows up in the scenarios.
 *
 * Environment (all optional)
 *   BENCH_REQUESTS      HTTP requests per scenario (default 300)
 *   BENCH_CONCURRENCY   requests in flight at once, also for seeding (default 8)
 *   BENCH_MAX_SECONDS   time limit per scenario; a scenario stops early past it (default 60)
 *   BENCH_SEED_USERS    users created before the scenarios (default 300)
 *   BENCH_SEED_PROJECTS public projects created by root before the scenarios (default 150)
 *   BENCH_SEED_ISSUES   issues opened in the first seeded project (default 300): the issue list
 *                       scenarios cost the same DynamoDB calls whatever this is
 *   BENCH_WARMUP        unmeasured requests before each scenario (default 2 x concurrency)
 *   API_URL, ROOT_TOKEN benchmark that service (base URL, with or without /api/v4) as that root
 *
 * Examples
 *   npm run bench
 *   BENCH_REQUESTS=100 BENCH_CONCURRENCY=4 npm run bench
 *   API_URL=https://abc.execute-api.eu-west-1.amazonaws.com/prod ROOT_TOKEN=glpat-... npm run bench
 */
import { generateKeyPairSync, randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import sshpk from 'sshpk';

// ---------------------------------------------------------------------------------------------
// Settings
// ---------------------------------------------------------------------------------------------

function intEnv(name: string, fallback: number, min = 1): number {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < min) throw new Error(`${name} must be an integer >= ${min}, got '${raw}'`);
  return value;
}

const REQUESTS = intEnv('BENCH_REQUESTS', 300);
const CONCURRENCY = intEnv('BENCH_CONCURRENCY', 8);
const MAX_SECONDS = intEnv('BENCH_MAX_SECONDS', 60);
const SEED_USERS = intEnv('BENCH_SEED_USERS', 300, 0);
const SEED_PROJECTS = intEnv('BENCH_SEED_PROJECTS', 150);
const SEED_ISSUES = intEnv('BENCH_SEED_ISSUES', 300, 0);
const WARMUP = intEnv('BENCH_WARMUP', 2 * CONCURRENCY, 0);
/** No single request may hang the benchmark (API Gateway itself gives up after 29 s). */
const REQUEST_TIMEOUT_MS = 30_000;
const LOCAL_ROOT_TOKEN = 'glpat-bench-root-token-0000';
/** Unique per run, so names never collide with earlier runs against a deployment. */
const RUN_ID = `${Date.now().toString(36)}${randomBytes(2).toString('hex')}`;

const progress = (message: string) => process.stderr.write(`${message}\n`);

// ---------------------------------------------------------------------------------------------
// DynamoDB call counting (local mode only)
// ---------------------------------------------------------------------------------------------

interface CallCounter {
  total: number;
  byCommand: Map<string, number>;
}

/** Installs the counter on the shared document client (the one every handler uses). */
async function installCallCounter(): Promise<CallCounter> {
  const { db } = await import('../../shared/platform/dynamo/client');
  const counter: CallCounter = { total: 0, byCommand: new Map() };
  db().middlewareStack.add(
    (next, context) => async (args) => {
      counter.total++;
      // `commandName` is the low-level operation (GetItemCommand for a document GetCommand).
      const name = String((context as { commandName?: string }).commandName ?? 'unknown').replace(/Command$/, '');
      counter.byCommand.set(name, (counter.byCommand.get(name) ?? 0) + 1);
      return next(args);
    },
    { step: 'initialize', name: 'benchCallCounter' },
  );
  return counter;
}

function snapshot(counter: CallCounter | undefined): { total: number; byCommand: Map<string, number> } | undefined {
  return counter && { total: counter.total, byCommand: new Map(counter.byCommand) };
}

// ---------------------------------------------------------------------------------------------
// HTTP
// ---------------------------------------------------------------------------------------------

interface Target {
  /** Base URL without `/api/v4`. */
  base: string;
  token: string;
  /** Local mode: every URL must stay on this origin (loopback only). */
  onlyOrigin?: string;
}

interface Reply {
  status: number;
  headers: Headers;
  body: unknown;
  ms: number;
}

async function call(target: Target, method: 'GET' | 'POST' | 'PUT', pathOrUrl: string, body?: unknown): Promise<Reply> {
  const url = new URL(/^https?:/.test(pathOrUrl) ? pathOrUrl : `${target.base}/api/v4${pathOrUrl}`);
  if (target.onlyOrigin && url.origin !== target.onlyOrigin) {
    throw new Error(`refusing to call ${url.origin}: the benchmark only talks to ${target.onlyOrigin}`);
  }
  const headers: Record<string, string> = { 'PRIVATE-TOKEN': target.token };
  if (body !== undefined) headers['Content-Type'] = 'application/json';
  const started = performance.now();
  const response = await fetch(url, {
    method,
    headers,
    body: body === undefined ? undefined : JSON.stringify(body),
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
function nextLink(headers: Headers): string | undefined {
  for (const part of (headers.get('link') ?? '').split(',')) {
    const match = /<([^>]+)>\s*;\s*rel="?next"?/.exec(part);
    if (match) return match[1];
  }
  return undefined;
}

const describe = (reply: Reply) => `${reply.status} ${JSON.stringify(reply.body).slice(0, 300)}`;

/** Runs `task(i)` for i in [0, total) with at most `concurrency` at once; stops starting new ones past `deadline`. */
async function pool(total: number, concurrency: number, deadline: number, task: (i: number) => Promise<void>): Promise<number> {
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
// Seeding
// ---------------------------------------------------------------------------------------------

let userSeq = 0;
const newUser = () => {
  const username = `bench${RUN_ID}u${userSeq++}`;
  return { username, email: `${username}@example.com`, name: `Bench ${username}`, password: 'bench-password-1' };
};

function sshPublicKey(comment: string): string {
  const { publicKey } = generateKeyPairSync('ed25519');
  const pem = publicKey.export({ format: 'pem', type: 'spki' }).toString();
  return `${sshpk.parseKey(pem, 'pem').toString('ssh').split(' ').slice(0, 2).join(' ')} ${comment}`;
}

async function seed(target: Target): Promise<void> {
  let done = 0;
  let failure: string | undefined;
  const step = Math.max(1, Math.round(SEED_USERS / 20));
  const started = performance.now();
  await pool(SEED_USERS, CONCURRENCY, Number.POSITIVE_INFINITY, async () => {
    if (failure) return;
    const reply = await call(target, 'POST', '/users', newUser());
    if (reply.status !== 201) failure ??= `POST /users answered ${describe(reply)}`;
    done++;
    if (done % step === 0 || done === SEED_USERS) progress(`seeding users ${done}/${SEED_USERS}`);
  });
  if (failure) throw new Error(`seeding failed: ${failure}`);
  progress(`seeded ${SEED_USERS} users in ${((performance.now() - started) / 1000).toFixed(1)} s`);

  const keys = 3;
  for (let i = 0; i < keys; i++) {
    const reply = await call(target, 'POST', '/user/keys', { title: `bench ${RUN_ID} ${i}`, key: sshPublicKey(`bench-${RUN_ID}-${i}@bench`) });
    if (reply.status !== 201) throw new Error(`seeding failed: POST /user/keys answered ${describe(reply)}`);
  }
  progress(`seeded ${keys} SSH keys on root`);

  const projectStep = Math.max(1, Math.round(SEED_PROJECTS / 10));
  let projects = 0;
  await pool(SEED_PROJECTS, CONCURRENCY, Number.POSITIVE_INFINITY, async () => {
    if (failure) return;
    const reply = await call(target, 'POST', '/projects', newProject());
    if (reply.status !== 201) failure ??= `POST /projects answered ${describe(reply)}`;
    else seededProjectId ??= (reply.body as { id: number }).id;
    projects++;
    if (projects % projectStep === 0 || projects === SEED_PROJECTS) progress(`seeding projects ${projects}/${SEED_PROJECTS}`);
  });
  if (failure) throw new Error(`seeding failed: ${failure}`);

  const issueStep = Math.max(1, Math.round(SEED_ISSUES / 10));
  let issues = 0;
  await pool(SEED_ISSUES, CONCURRENCY, Number.POSITIVE_INFINITY, async (i) => {
    if (failure) return;
    const reply = await call(target, 'POST', `/projects/${seededProjectId}/issues`, newIssue(i % 2 === 0 ? 'bug,backend' : ''));
    if (reply.status !== 201) failure ??= `POST /projects/:id/issues answered ${describe(reply)}`;
    else if (i % 3 === 0) {
      const iid = (reply.body as { iid: number }).iid;
      const closed = await call(target, 'PUT', `/projects/${seededProjectId}/issues/${iid}`, { state_event: 'close' });
      if (closed.status !== 200) failure ??= `closing an issue answered ${describe(closed)}`;
    }
    issues++;
    if (issues % issueStep === 0 || issues === SEED_ISSUES) progress(`seeding issues ${issues}/${SEED_ISSUES}`);
  });
  if (failure) throw new Error(`seeding failed: ${failure}`);
}

let issueSeq = 0;
const newIssue = (labels = 'bug,backend') => ({ title: `bench ${RUN_ID} issue ${issueSeq++}`, description: 'Seeded by npm run bench', labels });

let projectSeq = 0;
let seededProjectId: number | undefined;
const newProject = () => ({ name: `bench ${RUN_ID} p${projectSeq++}`, visibility: 'public' });

// ---------------------------------------------------------------------------------------------
// Scenarios
// ---------------------------------------------------------------------------------------------

interface Scenario {
  name: string;
  /** HTTP requests made by one iteration. */
  requestsPerIteration?: number;
  /** One iteration; `record` is called once per HTTP request with its latency and whether it was an error. */
  iteration(target: Target, record: (ms: number, error?: string) => void): Promise<void>;
}

/** A single request expecting `status`, optionally with a check of the reply. */
function single(
  name: string,
  method: 'GET' | 'POST',
  path: string,
  status: number,
  options: { body?: () => unknown; check?: (reply: Reply) => string | undefined } = {},
): Scenario {
  return {
    name,
    async iteration(target, record) {
      const reply = await call(target, method, path, options.body?.());
      const problem = reply.status !== status ? `expected ${status}, got ${describe(reply)}` : options.check?.(reply);
      record(reply.ms, problem);
    },
  };
}

/** Checks a page of `perPage` items: full, or what is left of `X-Total` when the server sends it. */
const pageOf = (perPage: number, page = 1) => (reply: Reply) => {
  const total = Number(reply.headers.get('x-total') ?? Number.NaN);
  const expected = Number.isFinite(total) ? Math.max(0, Math.min(perPage, total - (page - 1) * perPage)) : perPage;
  return Array.isArray(reply.body) && reply.body.length === expected
    ? undefined
    : `expected ${expected} items, got ${Array.isArray(reply.body) ? reply.body.length : describe(reply)}`;
};

const scenarios: Scenario[] = [
  single('GET /user', 'GET', '/user', 200),
  single('GET /users?per_page=100', 'GET', '/users?per_page=100', 200, { check: pageOf(100) }),
  single('GET /users?per_page=100&page=3', 'GET', '/users?per_page=100&page=3', 200, { check: pageOf(100, 3) }),
  {
    name: 'GET /users?pagination=keyset&per_page=100 (+next)',
    requestsPerIteration: 2,
    async iteration(target, record) {
      const first = await call(target, 'GET', '/users?pagination=keyset&per_page=100');
      const link = first.status === 200 ? nextLink(first.headers) : undefined;
      record(first.ms, first.status !== 200 ? `expected 200, got ${describe(first)}` : link ? pageOf(100)(first) : 'no rel="next" link (fewer than 101 users?)');
      if (!link) return;
      const second = await call(target, 'GET', link);
      const count = Array.isArray(second.body) ? second.body.length : 0;
      record(
        second.ms,
        second.status !== 200 ? `expected 200, got ${describe(second)}` : count < 1 || count > 100 ? `next page has ${count} items` : undefined,
      );
    },
  },
  single('POST /users', 'POST', '/users', 201, { body: newUser }),
  single('GET /user/keys', 'GET', '/user/keys', 200),
  single('GET /projects?per_page=100', 'GET', '/projects?per_page=100', 200, { check: pageOf(100) }),
  {
    name: 'GET /projects/:id',
    async iteration(target, record) {
      const reply = await call(target, 'GET', `/projects/${seededProjectId}`);
      record(reply.ms, reply.status !== 200 ? `expected 200, got ${describe(reply)}` : undefined);
    },
  },
  single('POST /projects', 'POST', '/projects', 201, { body: newProject }),
  onSeededProject('GET /projects/:id/issues', 'GET', '/issues', 200, { check: pageOf(20) }),
  onSeededProject('GET /projects/:id/issues?order_by=updated_at&state=opened', 'GET', '/issues?order_by=updated_at&state=opened', 200, {
    check: pageOf(20),
  }),
  {
    name: 'GET /projects/:id/issues?order_by=updated_at&pagination=keyset (+next)',
    requestsPerIteration: 2,
    async iteration(target, record) {
      const first = await call(target, 'GET', `/projects/${seededProjectId}/issues?order_by=updated_at&pagination=keyset&per_page=20`);
      const link = first.status === 200 ? nextLink(first.headers) : undefined;
      record(first.ms, first.status !== 200 ? `expected 200, got ${describe(first)}` : link ? undefined : 'no rel="next" link (fewer than 21 issues?)');
      if (!link) return;
      const second = await call(target, 'GET', link);
      record(second.ms, second.status !== 200 ? `expected 200, got ${describe(second)}` : undefined);
    },
  },
  onSeededProject('POST /projects/:id/issues', 'POST', '/issues', 201, { body: () => newIssue() }),
  onSeededProject('POST /projects/:id/issues/1/notes', 'POST', '/issues/1/notes', 201, { body: () => ({ body: 'A bench comment' }) }),
];

/** A request on the first seeded project (its id is known only after seeding). */
function onSeededProject(name: string, method: 'GET' | 'POST', tail: string, status: number, options: Parameters<typeof single>[4] = {}): Scenario {
  return { name, iteration: (target, record) => single(name, method, `/projects/${seededProjectId}${tail}`, status, options).iteration(target, record) };
}

interface Result {
  scenario: string;
  requests: number;
  errors: number;
  seconds: number;
  reqPerSec: number;
  p50Ms: number;
  p99Ms: number;
  meanMs: number;
  stoppedByTimeLimit: boolean;
  dynamoCallsPerRequest: number | null;
  dynamoCallsByCommand: Record<string, number> | null;
  firstError?: string;
}

/** Nearest-rank percentile of sorted values. */
function percentile(sorted: number[], q: number): number {
  if (!sorted.length) return Number.NaN;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))];
}

const round = (value: number, digits = 2) => Number(value.toFixed(digits));

async function runScenario(target: Target, scenario: Scenario, counter: CallCounter | undefined): Promise<Result> {
  const perIteration = scenario.requestsPerIteration ?? 1;
  const iterations = Math.ceil(REQUESTS / perIteration);

  // Warm-up, not measured (and its DynamoDB calls are not counted).
  const ignore = () => undefined;
  await pool(Math.ceil(WARMUP / perIteration), CONCURRENCY, performance.now() + MAX_SECONDS * 1000, () =>
    scenario.iteration(target, ignore).catch(ignore),
  );

  const latencies: number[] = [];
  let errors = 0;
  let firstError: string | undefined;
  let failedWithoutReply = 0;
  const record = (ms: number, error?: string) => {
    latencies.push(ms);
    if (error) {
      errors++;
      firstError ??= error;
    }
  };
  const before = snapshot(counter);
  const started = performance.now();
  const deadline = started + MAX_SECONDS * 1000;
  const ran = await pool(iterations, CONCURRENCY, deadline, async () => {
    try {
      await scenario.iteration(target, record);
    } catch (error) {
      // A network error or timeout: one failed request, without a latency sample.
      failedWithoutReply++;
      errors++;
      firstError ??= `no reply: ${(error as Error).message ?? String(error)}`;
    }
  });
  const seconds = (performance.now() - started) / 1000;
  const after = snapshot(counter);

  const requests = latencies.length + failedWithoutReply;
  const sorted = [...latencies].sort((a, b) => a - b);
  let perRequest: number | null = null;
  let byCommand: Record<string, number> | null = null;
  if (before && after && requests > 0) {
    perRequest = round((after.total - before.total) / requests);
    byCommand = {};
    for (const [name, count] of [...after.byCommand].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))) {
      const delta = count - (before.byCommand.get(name) ?? 0);
      if (delta > 0) byCommand[name] = round(delta / requests);
    }
  }
  return {
    scenario: scenario.name,
    requests,
    errors,
    seconds: round(seconds),
    reqPerSec: round(requests / seconds, 1),
    p50Ms: round(percentile(sorted, 0.5), 1),
    p99Ms: round(percentile(sorted, 0.99), 1),
    meanMs: round(sorted.reduce((sum, v) => sum + v, 0) / (sorted.length || 1), 1),
    stoppedByTimeLimit: ran < iterations,
    dynamoCallsPerRequest: perRequest,
    dynamoCallsByCommand: byCommand,
    ...(firstError ? { firstError } : {}),
  };
}

// ---------------------------------------------------------------------------------------------
// Output
// ---------------------------------------------------------------------------------------------

function table(results: Result[], counted: boolean): string {
  const header = ['scenario', 'requests', 'errors', 'req/s', 'p50 ms', 'p99 ms', 'DynamoDB calls/request'];
  const rows = results.map((r) => [
    r.scenario + (r.stoppedByTimeLimit ? ' (time limit)' : ''),
    String(r.requests),
    String(r.errors),
    r.reqPerSec.toFixed(1),
    r.p50Ms.toFixed(1),
    r.p99Ms.toFixed(1),
    counted && r.dynamoCallsPerRequest !== null ? r.dynamoCallsPerRequest.toFixed(2) : '-',
  ]);
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((row) => row[i].length)));
  const line = (cells: string[]) =>
    cells.map((cell, i) => (i === 0 ? cell.padEnd(widths[i]) : cell.padStart(widths[i]))).join('  ').trimEnd();
  return [line(header), widths.map((w) => '-'.repeat(w)).join('  '), ...rows.map(line)].join('\n');
}

function breakdown(results: Result[]): string {
  const width = Math.max(...results.map((r) => r.scenario.length));
  return results
    .map((r) => {
      const parts = Object.entries(r.dynamoCallsByCommand ?? {}).map(([name, n]) => `${name} ${n}`);
      return `${r.scenario.padEnd(width)}  ${parts.length ? parts.join(', ') : '(none)'}`;
    })
    .join('\n');
}

// ---------------------------------------------------------------------------------------------
// Main
// ---------------------------------------------------------------------------------------------

async function main(): Promise<number> {
  const external = process.env.API_URL;
  if (external && !process.env.ROOT_TOKEN) throw new Error('API_URL is set, so ROOT_TOKEN must be set too (a token of the admin root there)');

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

  try {
    let target: Target;
    let counter: CallCounter | undefined;
    if (external) {
      target = { base: external.replace(/\/+$/, '').replace(/\/api\/v4$/, ''), token: process.env.ROOT_TOKEN! };
      progress(`benchmarking ${target.base} (DynamoDB calls are not counted against a deployment)`);
    } else {
      dataDir = await mkdtemp(join(tmpdir(), 'project-hosting-bench-'));
      progress(`starting the local runtime (data in ${dataDir})`);
      const { startLocalRuntime } = await import('../../infra/local/runtime');
      const runtime = await startLocalRuntime({ port: 0, dataDir, rootToken: LOCAL_ROOT_TOKEN, quiet: true });
      stop = () => runtime.stop();
      const origin = new URL(runtime.url);
      if (origin.hostname !== '127.0.0.1') throw new Error(`the local runtime is not on loopback: ${runtime.url}`);
      target = { base: runtime.url, token: LOCAL_ROOT_TOKEN, onlyOrigin: origin.origin };
      counter = await installCallCounter();
      progress(`local runtime at ${runtime.url}`);
    }

    const me = await call(target, 'GET', '/user');
    if (me.status !== 200 || !(me.body as { is_admin?: boolean }).is_admin) {
      throw new Error(`the token is not an admin's: GET /user answered ${describe(me)}`);
    }
    await seed(target);

    const results: Result[] = [];
    for (const scenario of scenarios) {
      progress(`running ${scenario.name}`);
      const result = await runScenario(target, scenario, counter);
      results.push(result);
      progress(
        `  ${result.requests} requests, ${result.errors} errors, ${result.reqPerSec} req/s` +
          (result.dynamoCallsPerRequest !== null ? `, ${result.dynamoCallsPerRequest} DynamoDB calls/request` : ''),
      );
      if (result.firstError) progress(`  first error: ${result.firstError}`);
    }
    if (counter && counter.total === 0) {
      progress('warning: no DynamoDB call was counted: the handlers do not use the shared client of this process');
    }

    await cleanup();

    const counted = Boolean(counter && counter.total > 0);
    process.stdout.write(
      `\n${target.onlyOrigin ? 'local runtime' : target.base}: ${REQUESTS} requests per scenario, concurrency ${CONCURRENCY}, ` +
        `${SEED_USERS} seeded users, at most ${MAX_SECONDS} s per scenario\n\n`,
    );
    process.stdout.write(`${table(results, counted)}\n`);
    if (counted) process.stdout.write(`\nDynamoDB calls per request, by operation:\n${breakdown(results)}\n`);
    process.stdout.write(
      `\n${JSON.stringify({
        bench: 'api',
        time: new Date().toISOString(),
        target: target.onlyOrigin ? 'local' : target.base,
        requestsPerScenario: REQUESTS,
        concurrency: CONCURRENCY,
        maxSecondsPerScenario: MAX_SECONDS,
        seedUsers: SEED_USERS,
        dynamoCallsCounted: counted,
        results: results.map((r) => (counted ? r : { ...r, dynamoCallsPerRequest: null, dynamoCallsByCommand: null })),
      })}\n`,
    );
    return results.some((r) => r.errors > 0 || r.requests === 0) ? 1 : 0;
  } finally {
    await cleanup();
  }
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    progress(`bench failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
    process.exit(1);
  },
);
