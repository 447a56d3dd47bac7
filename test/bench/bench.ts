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
 *   Every request is made as root (PRIVATE-TOKEN), except the runner API's (below).
 * - CI, the runner's hot paths (seeded: a private project with a one-job `.gitlab-ci.yml`, its
 *   pipeline, `BENCH_CONCURRENCY` runners; the job is claimed and kept running, so the queue is empty):
 *     POST /jobs/request (idle, last_update current)  an idle runner's poll as gitlab-runner sends
 *                                                  it, with the X-GitLab-Last-Update of its last
 *                                                  empty answer: the cheap long-poll path
 *     POST /jobs/request (idle, no last_update)     the same without it: the queue is read
 *     PATCH /jobs/:id/trace (1 KB, in sequence)     trace appends with Content-Range, one at a time
 *                                                  (each must start where the last ended)
 *   The runners take turns, one request in flight per runner. In local mode the floor of each is
 *   measured in the same run, raw with the SDK clients the handlers use: a consistent GetItem (of
 *   a runner's item) for the polls, at the same concurrency; a 1 KB S3 PutObject then a
 *   conditional UpdateItem, in sequence, for the appends.
 * - Prints to stdout an aligned table (scenario | requests | errors | req/s | p50 ms | p90 ms |
 *   p99 ms | DynamoDB calls/request), then the calls per request broken down by DynamoDB
 *   operation, then the CI scenarios beside their floors (with S3 calls per request), and as the
 *   very last line one JSON object with all the numbers (for CI trend tracking:
 *   `npm run bench | tail -n 1`).
 * - Stops the runtime and removes the temporary directory at the end, also on failure or Ctrl-C.
 *   Exit code 0 on success, 1 when the setup fails or a scenario has errors.
 *
 * DynamoDB calls are counted with a middleware on the shared document client (`db()` of
 * shared/platform/dynamo/client.ts), which every handler uses: this works because the local runtime invokes
 * the handlers in this very process. It counts SDK commands (one per `send`, SDK retries are not
 * counted again); S3 requests are counted the same way on the shared S3 client. Each scenario
 * runs alone, so calls/request = calls during the scenario / HTTP requests of the scenario.
 * Note: `last_activity_on` is written at most once per user per day, so root's activity write
 * happens during seeding and never shows up in the scenarios; likewise a runner's `contactedAt`
 * is written at most once a minute, during the warm-up (a scenario running past a minute shows it).
 *
 * Environment (all optional)
 *   BENCH_REQUESTS      HTTP requests per scenario (default 300)
 *   BENCH_CONCURRENCY   requests in flight at once, also for seeding (default 8)
 *   BENCH_MAX_SECONDS   time limit per scenario; a scenario stops early past it (default 60)
 *   BENCH_SEED_USERS    users created before the scenarios (default 300)
 *   BENCH_SEED_PROJECTS public projects created by root before the scenarios (default 150; 0 only
 *                       with a BENCH_ONLY that leaves out the project and issue scenarios)
 *   BENCH_SEED_ISSUES   issues opened in the first seeded project (default 300): the issue list
 *                       scenarios cost the same DynamoDB calls whatever this is
 *   BENCH_WARMUP        unmeasured requests before each scenario (default 2 x concurrency)
 *   BENCH_ONLY          run only the scenarios whose name matches this regular expression
 *                       (case-insensitive), e.g. `jobs` for the CI ones
 *   API_URL, ROOT_TOKEN benchmark that service (base URL, with or without /api/v4) as that root
 *
 * Examples
 *   npm run bench
 *   BENCH_REQUESTS=100 BENCH_CONCURRENCY=4 npm run bench
 *   BENCH_ONLY=jobs BENCH_SEED_USERS=0 BENCH_SEED_PROJECTS=0 npx tsx test/bench/bench.ts   (CI only)
 *   API_URL=https://abc.execute-api.eu-west-1.amazonaws.com/prod ROOT_TOKEN=glpat-... npm run bench
 */
import { generateKeyPairSync, randomBytes } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import sshpk from 'sshpk';
import {
  alignedTable,
  call,
  describe,
  intEnv,
  nextLink,
  percentile,
  pool,
  progress,
  round,
  runBench,
  snapshot,
  type BenchSession,
  type CallCounter,
  type Reply,
  type Target,
} from './support';

// ---------------------------------------------------------------------------------------------
// Settings
// ---------------------------------------------------------------------------------------------

const REQUESTS = intEnv('BENCH_REQUESTS', 300);
const CONCURRENCY = intEnv('BENCH_CONCURRENCY', 8);
const MAX_SECONDS = intEnv('BENCH_MAX_SECONDS', 60);
const SEED_USERS = intEnv('BENCH_SEED_USERS', 300, 0);
const SEED_PROJECTS = intEnv('BENCH_SEED_PROJECTS', 150, 0);
const SEED_ISSUES = intEnv('BENCH_SEED_ISSUES', 300, 0);
const WARMUP = intEnv('BENCH_WARMUP', 2 * CONCURRENCY, 0);
/** Only the scenarios whose name matches (case-insensitive regular expression); all by default. */
const ONLY = process.env.BENCH_ONLY ? new RegExp(process.env.BENCH_ONLY, 'i') : undefined;
const LOCAL_ROOT_TOKEN = 'glpat-bench-root-token-0000';
/** Unique per run, so names never collide with earlier runs against a deployment. */
const RUN_ID = `${Date.now().toString(36)}${randomBytes(2).toString('hex')}`;

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

  if (seededProjectId === undefined) return;
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
  /** Iterations in flight at once (default `BENCH_CONCURRENCY`; 1 for what must happen in sequence). */
  concurrency?: number;
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

// ---------------------------------------------------------------------------------------------
// CI: the runner's hot paths, and the raw floor they are compared with
// ---------------------------------------------------------------------------------------------

/** One job, claimed during seeding and kept running: the trace scenario appends to it. */
const CI_YAML = 'bench:\n  script: echo bench\n';
/** 1 KB of trace, as gitlab-runner sends it (`PATCH /jobs/:id/trace`, `Content-Range: <start>-<end>`). */
const TRACE_CHUNK = Buffer.from(`${'bench trace line '.repeat(60).slice(0, 1023)}\n`);
const CI_SCENARIOS = {
  pollCached: 'POST /jobs/request (idle, last_update current)',
  poll: 'POST /jobs/request (idle, no last_update)',
  trace: 'PATCH /jobs/:id/trace (1 KB, in sequence)',
} as const;
const RUNNER_INFO = { name: 'gitlab-runner', version: '17.0.0', revision: 'bench', platform: 'linux', architecture: 'amd64', executor: 'shell' };

interface CiFixture {
  /** Registered runners of the project, polled in turn (as many as requests in flight, like real runners). */
  runnerTokens: string[];
  /** `X-GitLab-Last-Update` after an empty poll: what an idle gitlab-runner sends back. */
  lastUpdate: string;
  /** The running job (id and job token) whose trace grows. */
  job: { id: number; token: string };
  traceLength: number;
}

const runnerCall = (target: Target, path: string, body: Record<string, unknown>) => call(target, 'POST', path, body, { anonymous: true });

/**
 * A private project with a one-job `.gitlab-ci.yml` (committed through the Files API), its
 * pipeline, `CONCURRENCY` runners registered with its runners token; the job is claimed by the
 * first runner and stays running; the queue is then empty, and the `X-GitLab-Last-Update` of an
 * empty poll is kept.
 */
async function seedCi(target: Target): Promise<CiFixture> {
  const created = await call(target, 'POST', '/projects', { name: `bench ${RUN_ID} ci`, visibility: 'private' });
  if (created.status !== 201) throw new Error(`seeding CI failed: POST /projects answered ${describe(created)}`);
  const project = created.body as { id: number; default_branch?: string | null };
  const branch = project.default_branch || 'main';
  const file = await call(target, 'POST', `/projects/${project.id}/repository/files/.gitlab-ci.yml`, { branch, content: CI_YAML, commit_message: 'bench CI' });
  if (file.status !== 201) throw new Error(`seeding CI failed: creating .gitlab-ci.yml answered ${describe(file)}`);
  // A commit through the API starts a pipeline as a push does; start one on the branch otherwise.
  const pipelines = await call(target, 'GET', `/projects/${project.id}/pipelines`);
  if (!Array.isArray(pipelines.body) || pipelines.body.length === 0) {
    const pipeline = await call(target, 'POST', `/projects/${project.id}/pipeline`, { ref: branch });
    if (pipeline.status !== 201) throw new Error(`seeding CI failed: POST /projects/:id/pipeline answered ${describe(pipeline)}`);
  }
  const registration = (await call(target, 'GET', `/projects/${project.id}`)).body as { runners_token?: string };
  if (!registration.runners_token) throw new Error('seeding CI failed: the project has no runners_token');
  const runnerTokens: string[] = [];
  for (let i = 0; i < CONCURRENCY; i++) {
    const runner = await runnerCall(target, '/runners', { token: registration.runners_token, description: `bench ${RUN_ID} runner ${i}`, info: RUNNER_INFO });
    if (runner.status !== 201) throw new Error(`seeding CI failed: POST /runners answered ${describe(runner)}`);
    runnerTokens.push((runner.body as { token: string }).token);
  }
  // Claim the job; any other pending job (none expected) is finished, until the queue is empty.
  let job: CiFixture['job'] | undefined;
  for (let i = 0; i < 10; i++) {
    const reply = await runnerCall(target, '/jobs/request', { token: runnerTokens[0], info: RUNNER_INFO });
    if (reply.status === 204) {
      const lastUpdate = reply.headers.get('x-gitlab-last-update');
      if (!job) throw new Error('seeding CI failed: the pipeline has no job for the runner');
      if (!lastUpdate) throw new Error('seeding CI failed: an empty POST /jobs/request sent no X-GitLab-Last-Update');
      progress(`seeded CI: project ${project.id}, ${runnerTokens.length} runners, job ${job.id} running`);
      return { runnerTokens, lastUpdate, job, traceLength: 0 };
    }
    if (reply.status !== 201) throw new Error(`seeding CI failed: POST /jobs/request answered ${describe(reply)}`);
    const claimed = reply.body as { id: number; token: string };
    if (!job) job = claimed;
    else await call(target, 'PUT', `/jobs/${claimed.id}`, { token: claimed.token, state: 'success' }, { anonymous: true });
  }
  throw new Error('seeding CI failed: the queue does not empty');
}

/** The CI scenarios: idle polls (with and without a current `last_update`) and trace appends. */
function ciScenarios(ci: CiFixture): Scenario[] {
  let turn = 0;
  const idlePoll = (name: string, withLastUpdate: boolean): Scenario => ({
    name,
    async iteration(target, record) {
      const token = ci.runnerTokens[turn++ % ci.runnerTokens.length];
      const reply = await runnerCall(target, '/jobs/request', { token, info: RUNNER_INFO, ...(withLastUpdate ? { last_update: ci.lastUpdate } : {}) });
      const header = reply.headers.get('x-gitlab-last-update');
      record(
        reply.ms,
        reply.status !== 204 ? `expected 204, got ${describe(reply)}` : header !== ci.lastUpdate ? `X-GitLab-Last-Update ${header}, expected ${ci.lastUpdate}` : undefined,
      );
    },
  });
  return [
    idlePoll(CI_SCENARIOS.pollCached, true),
    idlePoll(CI_SCENARIOS.poll, false),
    {
      name: CI_SCENARIOS.trace,
      concurrency: 1,
      async iteration(target, record) {
        const start = ci.traceLength;
        const end = start + TRACE_CHUNK.length;
        const reply = await call(target, 'PATCH', `/jobs/${ci.job.id}/trace`, undefined, {
          anonymous: true,
          raw: TRACE_CHUNK,
          headers: { 'JOB-TOKEN': ci.job.token, 'Content-Range': `${start}-${end - 1}`, 'Content-Type': 'text/plain' },
        });
        if (reply.status === 202) ci.traceLength = end;
        const range = reply.headers.get('range');
        record(reply.ms, reply.status !== 202 ? `expected 202, got ${describe(reply)}` : range !== `0-${end}` ? `Range ${range}, expected 0-${end}` : undefined);
      },
    },
  ];
}

interface Floor {
  /** What was measured, raw with the AWS SDK clients the handlers use (no HTTP, no handler). */
  name: string;
  /** The scenario it is the floor of. */
  scenario: string;
  operations: number;
  concurrency: number;
  opsPerSec: number;
  p50Ms: number;
  p90Ms: number;
}

/**
 * The floor of each CI scenario, measured in this run against the same DynamoDB Local and s3rver:
 * a GetItem of a runner's item (consistent, as the handlers read), as many in flight as the polls;
 * and, in sequence as the trace appends, a 1 KB S3 PutObject followed by a conditional DynamoDB
 * UpdateItem (what an append must do at least). Local mode only.
 */
async function measureFloors(ci: CiFixture, scenarios: Scenario[]): Promise<Floor[]> {
  const { GetCommand, PutCommand, UpdateCommand } = await import('@aws-sdk/lib-dynamodb');
  const { PutObjectCommand } = await import('@aws-sdk/client-s3');
  const { db, tableName } = await import('../../shared/platform/dynamo/client');
  const { s3, bucketName } = await import('../../shared/platform/s3/client');
  const { ciKeys } = await import('../../shared/ci/store/keys');
  const { createHash } = await import('node:crypto');

  const measure = async (name: string, scenario: string, concurrency: number, operation: (i: number) => Promise<void>): Promise<Floor> => {
    await pool(WARMUP, concurrency, Number.POSITIVE_INFINITY, (i) => operation(-1 - i));
    const latencies: number[] = [];
    const started = performance.now();
    await pool(REQUESTS, concurrency, started + MAX_SECONDS * 1000, async (i) => {
      const begun = performance.now();
      await operation(i);
      latencies.push(performance.now() - begun);
    });
    const seconds = (performance.now() - started) / 1000;
    const sorted = latencies.sort((a, b) => a - b);
    return {
      name,
      scenario,
      operations: sorted.length,
      concurrency,
      opsPerSec: round(sorted.length / seconds, 1),
      p50Ms: round(percentile(sorted, 0.5), 1),
      p90Ms: round(percentile(sorted, 0.9), 1),
    };
  };

  const floors: Floor[] = [];
  const runnerKeys = ci.runnerTokens.map((token) => ciKeys.runner(createHash('sha256').update(token, 'utf8').digest('hex')));
  for (const scenario of scenarios.filter((s) => s.name === CI_SCENARIOS.pollCached || s.name === CI_SCENARIOS.poll)) {
    progress(`measuring the floor of ${scenario.name}`);
    floors.push(
      await measure('DynamoDB GetItem', scenario.name, scenario.concurrency ?? CONCURRENCY, async (i) => {
        const { Item } = await db().send(new GetCommand({ TableName: tableName(), Key: runnerKeys[Math.abs(i) % runnerKeys.length], ConsistentRead: true }));
        if (!Item) throw new Error('floor: the runner item is missing');
      }),
    );
  }
  const trace = scenarios.find((s) => s.name === CI_SCENARIOS.trace);
  if (trace) {
    progress(`measuring the floor of ${trace.name}`);
    const key = { PK: `BENCH_FLOOR#${RUN_ID}`, SK: 'TRACE' };
    await db().send(new PutCommand({ TableName: tableName(), Item: { ...key, status: 'running', traceLength: 0 } }));
    let length = 0;
    floors.push(
      await measure('S3 PutObject 1 KB + DynamoDB UpdateItem', trace.name, trace.concurrency ?? CONCURRENCY, async () => {
        await (await s3()).client.send(new PutObjectCommand({ Bucket: bucketName(), Key: `bench-floor/${RUN_ID}/${String(length).padStart(12, '0')}`, Body: TRACE_CHUNK, ContentType: 'text/plain' }));
        await db().send(
          new UpdateCommand({
            TableName: tableName(),
            Key: key,
            UpdateExpression: 'SET traceLength = :length',
            ConditionExpression: '#status = :running AND traceLength = :from',
            ExpressionAttributeNames: { '#status': 'status' },
            ExpressionAttributeValues: { ':length': length + TRACE_CHUNK.length, ':running': 'running', ':from': length },
            ReturnValues: 'ALL_NEW',
          }),
        );
        length += TRACE_CHUNK.length;
      }),
    );
  }
  return floors;
}

/** The CI scenarios beside their floors: latency, calls per request, and the ratio of the p50s. */
function floorTable(results: Result[], floors: Floor[], counted: boolean): string {
  const header = ['scenario', 'in flight', 'req/s', 'p50 ms', 'p90 ms', 'DynamoDB/req', 'S3/req', 'floor', 'floor ops/s', 'floor p50', 'floor p90', 'p50 / floor p50'];
  const rows = results
    .filter((r) => (Object.values(CI_SCENARIOS) as string[]).includes(r.scenario))
    .map((r) => {
      const floor = floors.find((f) => f.scenario === r.scenario);
      return [
        r.scenario,
        String(r.concurrency),
        r.reqPerSec.toFixed(1),
        r.p50Ms.toFixed(1),
        r.p90Ms.toFixed(1),
        counted && r.dynamoCallsPerRequest !== null ? r.dynamoCallsPerRequest.toFixed(2) : '-',
        counted && r.s3CallsPerRequest !== null ? r.s3CallsPerRequest.toFixed(2) : '-',
        floor?.name ?? '-',
        floor ? floor.opsPerSec.toFixed(1) : '-',
        floor ? floor.p50Ms.toFixed(1) : '-',
        floor ? floor.p90Ms.toFixed(1) : '-',
        floor ? `${(r.p50Ms / floor.p50Ms).toFixed(1)}x` : '-',
      ];
    });
  return alignedTable(header, rows, [0, 7]);
}

interface Result {
  scenario: string;
  requests: number;
  errors: number;
  seconds: number;
  reqPerSec: number;
  p50Ms: number;
  p90Ms: number;
  p99Ms: number;
  meanMs: number;
  concurrency: number;
  stoppedByTimeLimit: boolean;
  dynamoCallsPerRequest: number | null;
  dynamoCallsByCommand: Record<string, number> | null;
  s3CallsPerRequest: number | null;
  firstError?: string;
}

async function runScenario(target: Target, scenario: Scenario, counter: CallCounter | undefined): Promise<Result> {
  const perIteration = scenario.requestsPerIteration ?? 1;
  const iterations = Math.ceil(REQUESTS / perIteration);
  const concurrency = scenario.concurrency ?? CONCURRENCY;

  // Warm-up, not measured (and its DynamoDB calls are not counted).
  const ignore = () => undefined;
  await pool(Math.ceil(WARMUP / perIteration), concurrency, performance.now() + MAX_SECONDS * 1000, () =>
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
  const ran = await pool(iterations, concurrency, deadline, async () => {
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
  let s3PerRequest: number | null = null;
  if (before && after && requests > 0) {
    perRequest = round((after.total - before.total) / requests);
    s3PerRequest = round((after.s3 - before.s3) / requests);
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
    p90Ms: round(percentile(sorted, 0.9), 1),
    p99Ms: round(percentile(sorted, 0.99), 1),
    meanMs: round(sorted.reduce((sum, v) => sum + v, 0) / (sorted.length || 1), 1),
    concurrency,
    stoppedByTimeLimit: ran < iterations,
    dynamoCallsPerRequest: perRequest,
    dynamoCallsByCommand: byCommand,
    s3CallsPerRequest: s3PerRequest,
    ...(firstError ? { firstError } : {}),
  };
}

// ---------------------------------------------------------------------------------------------
// Output
// ---------------------------------------------------------------------------------------------

function table(results: Result[], counted: boolean): string {
  const header = ['scenario', 'requests', 'errors', 'req/s', 'p50 ms', 'p90 ms', 'p99 ms', 'DynamoDB calls/request'];
  const rows = results.map((r) => [
    r.scenario + (r.stoppedByTimeLimit ? ' (time limit)' : ''),
    String(r.requests),
    String(r.errors),
    r.reqPerSec.toFixed(1),
    r.p50Ms.toFixed(1),
    r.p90Ms.toFixed(1),
    r.p99Ms.toFixed(1),
    counted && r.dynamoCallsPerRequest !== null ? r.dynamoCallsPerRequest.toFixed(2) : '-',
  ]);
  return alignedTable(header, rows);
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

async function main(session: BenchSession): Promise<number> {
  const { target, counter } = await session.start({ rootToken: LOCAL_ROOT_TOKEN });
  await seed(target);
  const ci = Object.values(CI_SCENARIOS).some((name) => !ONLY || ONLY.test(name)) ? await seedCi(target) : undefined;
  const selected = [...scenarios, ...(ci ? ciScenarios(ci) : [])].filter((s) => !ONLY || ONLY.test(s.name));
  if (selected.length === 0) throw new Error(`BENCH_ONLY=${process.env.BENCH_ONLY} selects no scenario`);

  const results: Result[] = [];
  for (const scenario of selected) {
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
  // The raw floor of the CI scenarios, in the same run (local mode: this process reaches the table and bucket).
  const floors = ci && counter ? await measureFloors(ci, selected) : [];

  await session.cleanup();

  const counted = Boolean(counter && counter.total > 0);
  process.stdout.write(
    `\n${target.onlyOrigin ? 'local runtime' : target.base}: ${REQUESTS} requests per scenario, concurrency ${CONCURRENCY}, ` +
      `${SEED_USERS} seeded users, at most ${MAX_SECONDS} s per scenario\n\n`,
  );
  process.stdout.write(`${table(results, counted)}\n`);
  if (counted) process.stdout.write(`\nDynamoDB calls per request, by operation:\n${breakdown(results)}\n`);
  if (ci) {
    process.stdout.write(
      `\nCI runner API beside its raw floor (same run${floors.length ? '' : '; no floor against a deployment'}; ` +
        `floor = the AWS SDK call(s) alone, without HTTP or handler):\n${floorTable(results, floors, counted)}\n`,
    );
  }
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
      results: results.map((r) => (counted ? r : { ...r, dynamoCallsPerRequest: null, dynamoCallsByCommand: null, s3CallsPerRequest: null })),
      floors,
    })}\n`,
  );
  return results.some((r) => r.errors > 0 || r.requests === 0) ? 1 : 0;
}

runBench(main);
