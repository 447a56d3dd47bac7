/**
 * `npm run bench` (after the API benchmark): issue lists in a project with 10 issues and in one
 * with 100,000, beside the raw DynamoDB floor measured in the same run, with issue 12's targets
 * (flat pages, totals without reading, search by index, round trips, throughput) as PASS/FAIL.
 * A measurement, not a test: a missed target does not fail the run.
 *
 * What it does
 * - Starts the local runtime (DynamoDB Local + s3rver + the API, handlers in this process) on a
 *   free port of 127.0.0.1, on a fresh temporary data directory (on tmpfs where there is one, see
 *   BENCH_TMPDIR), with a fixed root token; or, with
 *   both `API_URL` and `ROOT_TOKEN` set, benchmarks that deployment (DynamoDB calls are then not
 *   counted, there is no floor, and everything is seeded over HTTP). See ./support.ts.
 * - Seeds, as root: 3 users (authors and assignees, Developers of both projects), and two public
 *   projects, SMALL (10 issues) and BIG (`BENCH_BIG_ISSUES`, default 100,000), each with 5 labels
 *   and 2 milestones. Issue i: closed when i % 3 = 2 (every third), else opened; the rest from a
 *   seeded generator (the same issues every run): an author among the users, an assignee for 3 in
 *   4, one or two labels, milestone 1 or 2 for half of them, confidential 1 in 20, a title of 3-6
 *   and a description of 8-20 words from a small vocabulary, `widget` (the common search word) in
 *   ~30 % of them, `quokka` (the rare one) in 0.1 % (i % 1000 = 5), creation times one second
 *   apart, updates later in a different order.
 *   SMALL is created over HTTP (`POST /projects/:id/issues` with `Sudo` as the author, then a close).
 *   BIG is written directly through the data layer (`importIssues` of shared/issues, at most 2,000
 *   issues per call, `BENCH_SEED_CONCURRENCY` calls at once) when this process reaches the table;
 *   over HTTP otherwise (or while `importIssues` does not exist). Progress on stderr
 *   (`seeding BIG 12000/100000`), and the time per 1,000 issues.
 * - The raw floor, with the SDK document client the handlers use (`db()`), one at a time: a
 *   consistent GetItem (an issue of BIG) and a Query of 20 items (GSI1, BIG's opened issues, newest
 *   first); both also at 16 in flight for their throughput. And per read scenario and project, the
 *   floor of its own calls: after its run at 1 connection, the DynamoDB calls of one more request
 *   are recorded and sent again raw (`replayFloor`: calls that were in flight together go
 *   together), one at a time (its latency floor) and 16 at a time (the rate DynamoDB Local and the
 *   SDK allow these very calls on this machine: `its calls raw/s@16`). Local mode only.
 * - Scenarios, each on SMALL and on BIG, at 1 connection (latency, calls) then at 16 (throughput),
 *   after a short unmeasured warm-up; every list as root (who sees confidential issues):
 *     GET /projects/:id
 *     GET /projects/:id/issues                       the first page (newest first, all states)
 *     deep page (keyset)                             `pagination=keyset&order_by=created_at&per_page=1`:
 *                                                    rel="next" followed 5 times once, then that
 *                                                    6th page's URL is timed (per_page=1 so that
 *                                                    SMALL's 10 issues have a 6th page too)
 *     ?state=closed, ?labels=<label>, ?milestone=<title>, ?assignee_id=<id>, ?author_id=<id>,
 *     ?order_by=updated_at, ?search=widget (common), ?search=quokka (rare)
 *   A list page asks for as many issues as SMALL's list holds (at most 20, at least 1;
 *   `per_page`), in both projects: SMALL and BIG then answer pages of the same size, so what the
 *   two cost differs only by the size of the project, not by the size of the page.
 *   then on BIG only, at 8 connections: POST /projects/:id/issues (two labels, an assignee, a
 *   milestone) and POST /projects/:id/issues/:iid/notes (spread over 16 issues, so that notes do
 *   not all race on one issue's item).
 *   Every reply must be 2xx (else an error, exit code 1). Each reply is also checked, without
 *   failing the run: the page holds only matching issues, in order, as many as expected, and
 *   `X-Total` (when sent) equals the count of the seeded issues that match.
 * - Prints to stdout: every run (requests, errors, req/s, p50/p90/p99, p50 beside its floor —
 *   GetItem for single resources and writes, Query for lists —, DynamoDB calls per request,
 *   X-Total, the check); the targets per scenario (BIG/SMALL ratios of p50 and of calls, and
 *   PASS/FAIL: flat within 1.2x with no more calls on BIG (+0.1, they are averages), for the first,
 *   deep and filtered pages; search p50 within 3x of the unfiltered page of the same project; calls
 *   per request (on both projects; a list page's limit also for search):
 *   GET /projects/:id <= 3, a list page <= 4, POST issue <= 8, POST note <= 6; at 16 connections
 *   GET /projects/:id >= 600 req/s and the first issue page >= 300 req/s, printed beside the rate
 *   of its own calls raw; at 1 connection a read within 1.5x of the floor of the calls it makes,
 *   i.e. its own calls' replayed p50, where none was recorded the sum over its calls of the GetItem
 *   floor, or the Query floor for a Query); the calls per request by operation; and as the very
 *   last line one JSON object with all the numbers (`npm run bench | tail -n 1`). In local mode
 *   also each run's CPU time of this process per request and the process's peak resident memory
 *   (for sizing the functions' memory: README, Deployment). DynamoDB calls made meanwhile by
 *   stream-invoked and scheduled functions (the local runtime's hook delivery, jobs worker and CI
 *   scheduler, other Lambda invocations on AWS) are not counted in a request's calls but shown
 *   beside them (background).
 * - Stops the runtime and removes the temporary directory at the end, also on failure or Ctrl-C.
 *   Exit code 1 when the setup fails or a run has errors (non-2xx replies, timeouts); 0 otherwise.
 *
 * Environment (all optional)
 *   BENCH_BIG_ISSUES    issues of the BIG project (default 100000; over HTTP keep it small, e.g. 300)
 *   BENCH_REQUESTS      HTTP requests per run (default 300); also the floors' operations
 *   BENCH_SEED_CONCURRENCY  importIssues calls (or HTTP requests) at once while seeding (default 4)
 *   BENCH_MAX_SECONDS   time limit per run; a run stops early past it (default 60)
 *   BENCH_WARMUP        unmeasured requests before each run (default 2 x its connections)
 *   BENCH_TMPDIR        where the temporary data directory is made (default /dev/shm where it exists,
 *                       else the system's temporary directory)
 *   BENCH_ONLY          run only the scenarios whose name matches this regular expression
 *                       (case-insensitive), e.g. `search|deep`
 *   BENCH_SEED_CACHE    a directory where the seeded data is kept (local mode). When it does not
 *                       exist, the run seeds as usual, stops the runtime, keeps its data directory
 *                       and the fixtures there, and measures in a new process; when it does, each
 *                       run starts the runtime on a fresh copy of it and seeds nothing (the writes of
 *                       a run never reach the kept data). A cache seeded for other settings
 *                       (`BENCH_BIG_ISSUES`) is refused. For repeated runs at 100,000 issues, whose
 *                       seeding takes over an hour on a small machine.
 *   API_URL, ROOT_TOKEN benchmark that service (base URL, with or without /api/v4) as that root
 *
 * Examples
 *   npx tsx test/bench/issues.ts
 *   BENCH_BIG_ISSUES=2000 BENCH_REQUESTS=50 npx tsx test/bench/issues.ts
 *   BENCH_SEED_CACHE=/var/tmp/issues-100k npx tsx test/bench/issues.ts   (twice: seeds once)
 *   BENCH_ONLY='search' npx tsx test/bench/issues.ts
 */
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { performance } from 'node:perf_hooks';
import type { ImportedIssue } from '../../shared/issues';
import { RECENT_WINDOW_MS } from '../../shared/platform/dynamo/recent';
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
  type RecordedCall,
  type Reply,
  type Target,
} from './support';

// ---------------------------------------------------------------------------------------------
// Settings
// ---------------------------------------------------------------------------------------------

const SMALL_ISSUES = 10;
const BIG_ISSUES = intEnv('BENCH_BIG_ISSUES', 100_000);
const REQUESTS = intEnv('BENCH_REQUESTS', 300);
const MAX_SECONDS = intEnv('BENCH_MAX_SECONDS', 60);
const WARMUP = process.env.BENCH_WARMUP ? intEnv('BENCH_WARMUP', 0, 0) : undefined;
const ONLY = process.env.BENCH_ONLY ? new RegExp(process.env.BENCH_ONLY, 'i') : undefined;
/** Latency is measured at one connection, throughput at 16; the writes at 8. */
const LATENCY_CONNECTIONS = 1;
const THROUGHPUT_CONNECTIONS = 16;
const WRITE_CONNECTIONS = 8;
/** Most issues per `importIssues` call (fewer when that leaves calls to run at once). */
const IMPORT_CHUNK = 2000;
/** Requests in flight while seeding over HTTP; `importIssues` calls at once. */
const SEED_CONCURRENCY = intEnv('BENCH_SEED_CONCURRENCY', 4);
/** Where the seeded data is kept between runs (local mode): seeded once, each run starts on a copy. */
const SEED_CACHE = process.env.BENCH_SEED_CACHE ? resolve(process.env.BENCH_SEED_CACHE) : undefined;
const PER_PAGE = 20;
const DEEP_PER_PAGE = 1;
const DEEP_FOLLOWS = 5;
const LOCAL_ROOT_TOKEN = 'glpat-bench-issues-root-0000';
/** Unique per run, so names never collide with earlier runs against a deployment. */
const RUN_ID = `${Date.now().toString(36)}${randomBytes(2).toString('hex')}`;

const COMMON_WORD = 'widget';
const RARE_WORD = 'quokka';
/** No word is a part of another (nor of the two search words), so substring and whole-word search agree. */
const VOCABULARY = [
  'login', 'page', 'button', 'error', 'timeout', 'cache', 'server', 'client', 'export', 'import',
  'report', 'search', 'filter', 'upload', 'session', 'token', 'render', 'layout', 'mobile', 'network',
  'memory', 'latency', 'crash', 'retry', 'queue', 'billing', 'invoice', 'profile', 'avatar', 'email',
  'notify', 'sync', 'backup', 'deploy', 'config', 'locale', 'theme', 'metric', 'chart', 'modal',
];
const LABEL_NAMES = ['bug', 'feature', 'backend', 'frontend', 'docs'];
const MILESTONE_TITLES = ['v1.0', 'v2.0'];
const USERS = 3;

// ---------------------------------------------------------------------------------------------
// The seeded issues
// ---------------------------------------------------------------------------------------------

type Size = 'SMALL' | 'BIG';
const SIZES: readonly Size[] = ['SMALL', 'BIG'];

interface User {
  id: number;
  username: string;
}

/** What a generated issue is, before it is written (indexes into the project's users, labels, milestones). */
interface Planned {
  title: string;
  description: string;
  state: 'opened' | 'closed';
  author: number;
  assignee: number | null;
  labels: number[];
  milestone: number | null;
  confidential: boolean;
  createdAt: string;
  updatedAt: string;
}

/** What a seeded issue is, as the lists filter it (from the API's reply when seeded over HTTP). */
interface Seeded {
  iid?: number;
  title: string;
  description: string;
  state: string;
  authorId: number;
  assigneeIds: number[];
  labels: string[];
  milestone: string | null;
}

interface Fixture {
  size: Size;
  projectId: number;
  users: User[];
  labels: { id: number; name: string }[];
  milestones: { id: number; title: string }[];
  issues: Seeded[];
  /** `endedAt`: the time (`Date.now()`) of its last write. */
  seeding: { issues: number; via: 'importIssues' | 'http'; ms: number; endedAt: number };
  /** The URL of the 6th keyset page (once followed). */
  deepUrl?: string;
  /** The project whose lists are the shortest (SMALL): list pages ask for as many issues as its list holds. */
  shortest?: Fixture;
  /** Issues that notes are added to (the newest of BIG). */
  noteIids: number[];
}

/**
 * The user assigned the most of a project's issues: the assignee filter then selects issues in
 * both projects (the first user may be assigned none of SMALL's 10, and an empty page, with no
 * issue to load, is not the page it is compared with).
 */
function busiestAssignee(fixture: Fixture): number {
  let id = busiest.get(fixture);
  if (id === undefined) {
    const assigned = (user: User) => fixture.issues.filter((issue) => issue.assigneeIds.includes(user.id)).length;
    id = fixture.users.reduce((best, user) => (assigned(user) > assigned(best) ? user : best)).id;
    busiest.set(fixture, id);
  }
  return id;
}
const busiest = new WeakMap<Fixture, number>();

/** mulberry32: a small seeded generator, so every run seeds the same issues. */
function generator(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** The `count` issues of a project, the same every run (only their times follow the clock). */
function planIssues(count: number, seed: number): Planned[] {
  const random = generator(seed);
  const pick = <T>(items: readonly T[]) => items[Math.floor(random() * items.length)];
  const words = (min: number, max: number) => Array.from({ length: min + Math.floor(random() * (max - min + 1)) }, () => pick(VOCABULARY));
  // Created one second apart, ending an hour ago; updated later, in another order, before now.
  const end = Date.now() - 3600_000;
  const start = end - count * 1000;
  return Array.from({ length: count }, (_, i) => {
    const title = words(3, 6);
    const description = words(8, 20);
    if (random() < 0.3) (random() < 0.5 ? title : description).splice(1, 0, COMMON_WORD);
    if (i % 1000 === 5) (i % 2 === 0 ? title : description).push(RARE_WORD);
    const first = Math.floor(random() * LABEL_NAMES.length);
    const labels = random() < 0.5 ? [first] : [first, (first + 1 + Math.floor(random() * (LABEL_NAMES.length - 1))) % LABEL_NAMES.length];
    const milestoneDraw = random();
    const created = start + i * 1000;
    const updated = created + Math.floor(random() * (Date.now() - created - 1000));
    return {
      title: `${title[0][0].toUpperCase()}${title.join(' ').slice(1)}`,
      description: `${description.join(' ')}.`,
      state: i % 3 === 2 ? 'closed' : 'opened',
      author: Math.floor(random() * USERS),
      assignee: random() < 0.75 ? Math.floor(random() * USERS) : null,
      labels,
      milestone: milestoneDraw < 0.25 ? 0 : milestoneDraw < 0.5 ? 1 : null,
      confidential: random() < 0.05,
      createdAt: new Date(created).toISOString(),
      updatedAt: new Date(updated).toISOString(),
    };
  });
}

type ImportIssues = (projectId: number, issues: ImportedIssue[], options?: { onProgress?: (written: number) => void }) => Promise<void>;

/** The data layer's bulk import (`importIssues` of shared/issues), when the issues feature exports it. */
async function findImportIssues(): Promise<ImportIssues | undefined> {
  const issues = (await import('../../shared/issues')) as { importIssues?: ImportIssues };
  return typeof issues.importIssues === 'function' ? issues.importIssues : undefined;
}

// ---------------------------------------------------------------------------------------------
// Seeding
// ---------------------------------------------------------------------------------------------

async function expectStatus(reply: Promise<Reply>, status: number, what: string): Promise<Reply> {
  const answered = await reply;
  if (answered.status !== status) throw new Error(`seeding failed: ${what} answered ${describe(answered)}`);
  return answered;
}

async function seedUsers(target: Target): Promise<User[]> {
  const users: User[] = [];
  for (let i = 0; i < USERS; i++) {
    const username = `bench${RUN_ID}i${i}`;
    const reply = await expectStatus(
      call(target, 'POST', '/users', { username, email: `${username}@example.com`, name: `Bench ${username}`, password: 'bench-password-1' }),
      201,
      'POST /users',
    );
    users.push({ id: (reply.body as { id: number }).id, username });
  }
  return users;
}

/** A public project with the users as Developers, 5 labels and 2 milestones (no issues yet). */
async function seedProject(target: Target, size: Size, users: User[]): Promise<Omit<Fixture, 'issues' | 'seeding' | 'noteIids'>> {
  const project = await expectStatus(call(target, 'POST', '/projects', { name: `bench ${RUN_ID} ${size.toLowerCase()}`, visibility: 'public' }), 201, 'POST /projects');
  const projectId = (project.body as { id: number }).id;
  for (const user of users) {
    await expectStatus(call(target, 'POST', `/projects/${projectId}/members`, { user_id: user.id, access_level: 30 }), 201, 'POST /projects/:id/members');
  }
  const labels = [];
  for (const [i, name] of LABEL_NAMES.entries()) {
    const reply = await expectStatus(call(target, 'POST', `/projects/${projectId}/labels`, { name, color: ['#d9534f', '#5cb85c', '#428bca', '#f0ad4e', '#8e44ad'][i] }), 201, 'POST /projects/:id/labels');
    labels.push({ id: (reply.body as { id: number }).id, name });
  }
  const milestones = [];
  for (const title of MILESTONE_TITLES) {
    const reply = await expectStatus(call(target, 'POST', `/projects/${projectId}/milestones`, { title }), 201, 'POST /projects/:id/milestones');
    milestones.push({ id: (reply.body as { id: number }).id, title });
  }
  return { size, projectId, users, labels, milestones };
}

/** Issues over HTTP: created as their author (`Sudo`; as root where the token lacks the sudo scope), then closed. */
async function seedIssuesOverHttp(target: Target, project: Omit<Fixture, 'issues' | 'seeding' | 'noteIids'>, planned: Planned[]): Promise<Seeded[]> {
  const seeded: Seeded[] = new Array(planned.length);
  let sudo = true;
  let done = 0;
  let failure: string | undefined;
  const step = Math.max(1, Math.round(planned.length / 10));
  // Several at once: the iids follow the order of the replies, the lists the planned creation times.
  await pool(planned.length, SEED_CONCURRENCY, Number.POSITIVE_INFINITY, async (i) => {
    if (failure) return;
    const plan = planned[i];
    const body = {
      title: plan.title,
      description: plan.description,
      labels: plan.labels.map((l) => project.labels[l].name).join(','),
      milestone_id: plan.milestone === null ? undefined : project.milestones[plan.milestone].id,
      assignee_ids: plan.assignee === null ? undefined : [project.users[plan.assignee].id],
      confidential: plan.confidential,
      created_at: plan.createdAt,
    };
    const path = `/projects/${project.projectId}/issues`;
    let reply = await call(target, 'POST', path, body, sudo ? { headers: { Sudo: project.users[plan.author].username } } : {});
    if (reply.status === 403 && sudo && /sudo/i.test(JSON.stringify(reply.body))) {
      sudo = false;
      progress('the token has no sudo scope: issues are created as root');
      reply = await call(target, 'POST', path, body);
    }
    if (reply.status !== 201) {
      failure ??= `POST /projects/:id/issues answered ${describe(reply)}`;
      return;
    }
    const issue = reply.body as IssueJson;
    if (plan.state === 'closed') {
      const closed = await call(target, 'PUT', `/projects/${project.projectId}/issues/${issue.iid}`, { state_event: 'close' });
      if (closed.status !== 200) failure ??= `closing an issue answered ${describe(closed)}`;
    }
    seeded[i] = { ...fromJson(issue), state: plan.state };
    done++;
    if (done % step === 0 || done === planned.length) progress(`seeding ${project.size} ${done}/${planned.length}`);
  });
  if (failure) throw new Error(`seeding failed: ${failure}`);
  return seeded;
}

/**
 * Issues written directly through the data layer, `IMPORT_CHUNK` per call, `SEED_CONCURRENCY`
 * calls at once (each takes its own ids, so a chunk's iids follow one another, but chunks may
 * interleave: the lists are ordered by creation time, which follows the plan).
 */
async function seedIssuesDirectly(importIssues: ImportIssues, project: Omit<Fixture, 'issues' | 'seeding' | 'noteIids'>, planned: Planned[]): Promise<Seeded[]> {
  const chunkSize = Math.max(100, Math.min(IMPORT_CHUNK, Math.ceil(planned.length / SEED_CONCURRENCY)));
  const chunks = Math.ceil(planned.length / chunkSize);
  const written = new Array<number>(chunks).fill(0);
  let shownAt = 0;
  let shown = 0;
  const started = performance.now();
  // At most a line a second (and the last one), with the rate so far.
  const show = () => {
    const count = written.reduce((sum, n) => sum + n, 0);
    const now = performance.now();
    if (count === shown || (now - shownAt < 1000 && count !== planned.length)) return;
    shownAt = now;
    shown = count;
    progress(`seeding ${project.size} ${count}/${planned.length}` + (count > 0 ? ` (${((now - started) / count).toFixed(2)} s per 1000)` : ''));
  };
  let failure: unknown;
  await pool(chunks, SEED_CONCURRENCY, Number.POSITIVE_INFINITY, async (k) => {
    if (failure) return;
    const chunk = planned.slice(k * chunkSize, (k + 1) * chunkSize).map(
      (plan): ImportedIssue => ({
        title: plan.title,
        description: plan.description,
        state: plan.state,
        authorId: project.users[plan.author].id,
        assigneeIds: plan.assignee === null ? [] : [project.users[plan.assignee].id],
        labelIds: plan.labels.map((l) => project.labels[l].id),
        milestoneId: plan.milestone === null ? null : project.milestones[plan.milestone].id,
        confidential: plan.confidential,
        createdAt: plan.createdAt,
        updatedAt: plan.updatedAt,
      }),
    );
    try {
      await importIssues(project.projectId, chunk, {
        onProgress: (n) => {
          written[k] = n;
          show();
        },
      });
      written[k] = chunk.length;
      show();
    } catch (error) {
      failure ??= error;
    }
  });
  if (failure) throw failure;
  return planned.map((plan) => ({
    title: plan.title,
    description: plan.description,
    state: plan.state,
    authorId: project.users[plan.author].id,
    assigneeIds: plan.assignee === null ? [] : [project.users[plan.assignee].id],
    labels: plan.labels.map((l) => project.labels[l].name),
    milestone: plan.milestone === null ? null : project.milestones[plan.milestone].title,
  }));
}

async function seedFixture(target: Target, size: Size, users: User[], importIssues: ImportIssues | undefined): Promise<Fixture> {
  const project = await seedProject(target, size, users);
  const count = size === 'SMALL' ? SMALL_ISSUES : BIG_ISSUES;
  const planned = planIssues(count, size === 'SMALL' ? 1 : 2);
  const direct = size === 'BIG' && importIssues !== undefined;
  const started = performance.now();
  const issues = direct ? await seedIssuesDirectly(importIssues, project, planned) : await seedIssuesOverHttp(target, project, planned);
  const ms = performance.now() - started;
  progress(
    `seeded ${size}: project ${project.projectId}, ${count} issues ${direct ? 'through importIssues' : 'over HTTP'} in ${(ms / 1000).toFixed(1)} s ` +
      `(${(ms / count).toFixed(2)} s per 1000 issues)`,
  );
  const newest = await call(target, 'GET', `/projects/${project.projectId}/issues?per_page=16`);
  const noteIids = Array.isArray(newest.body) ? (newest.body as IssueJson[]).map((issue) => issue.iid) : [];
  return { ...project, issues, seeding: { issues: count, via: direct ? 'importIssues' : 'http', ms: round(ms, 0), endedAt: Date.now() }, noteIids };
}

/** Follows rel="next" `DEEP_FOLLOWS` times from the first keyset page: the deep page's URL. */
async function findDeepPage(target: Target, fixture: Fixture): Promise<string> {
  let url = `/projects/${fixture.projectId}/issues?pagination=keyset&order_by=created_at&per_page=${DEEP_PER_PAGE}`;
  for (let i = 0; i < DEEP_FOLLOWS; i++) {
    const reply = await call(target, 'GET', url);
    const next = reply.status === 200 ? nextLink(reply.headers) : undefined;
    if (!next) throw new Error(`${fixture.size}: keyset page ${i + 1} has no rel="next" link (${describe(reply)})`);
    url = next;
  }
  return url;
}

// ---------------------------------------------------------------------------------------------
// What a reply is checked against
// ---------------------------------------------------------------------------------------------

interface IssueJson {
  iid: number;
  title: string;
  description: string | null;
  state: string;
  author: { id: number };
  assignees?: { id: number }[];
  labels: string[];
  milestone: { title: string } | null;
  created_at: string;
  updated_at: string;
}

const fromJson = (issue: IssueJson): Seeded => ({
  iid: issue.iid,
  title: issue.title,
  description: issue.description ?? '',
  state: issue.state,
  authorId: issue.author.id,
  assigneeIds: (issue.assignees ?? []).map((a) => a.id),
  labels: issue.labels,
  milestone: issue.milestone?.title ?? null,
});

/** A list scenario's filter: which seeded issues it selects, and the order of its page. */
interface ListFilter {
  query: (f: Fixture) => string;
  matches: (f: Fixture, issue: Seeded) => boolean;
  orderBy: 'created_at' | 'updated_at';
}

const searchMatches = (word: string) => (_f: Fixture, issue: Seeded) => `${issue.title}\n${issue.description}`.toLowerCase().includes(word);

/** How many seeded issues a filter selects (counted once per project: the checks run beside the server, in this process). */
const expectedCounts = new WeakMap<ListFilter, Map<Size, number>>();
function expectedCount(fixture: Fixture, filter: ListFilter): number {
  let bySize = expectedCounts.get(filter);
  if (!bySize) expectedCounts.set(filter, (bySize = new Map()));
  let count = bySize.get(fixture.size);
  if (count === undefined) bySize.set(fixture.size, (count = fixture.issues.filter((issue) => filter.matches(fixture, issue)).length));
  return count;
}

/** Why a page is not what the seeded issues say it should be (undefined: it is). */
function checkPage(fixture: Fixture, reply: Reply, filter: ListFilter, perPage: number, firstPage: boolean): string | undefined {
  if (!Array.isArray(reply.body)) return `not a list: ${describe(reply)}`;
  const items = reply.body as IssueJson[];
  const expected = expectedCount(fixture, filter);
  const wrong = items.find((item) => !filter.matches(fixture, fromJson(item)));
  if (wrong) return `issue ${wrong.iid} does not match the filter`;
  for (let i = 1; i < items.length; i++) {
    if (items[i - 1][filter.orderBy] < items[i][filter.orderBy]) return `not ordered by ${filter.orderBy}`;
  }
  const wanted = Math.min(perPage, expected);
  if (firstPage && items.length !== wanted) return `${items.length} items, expected ${wanted}`;
  return undefined;
}

/** Whether X-Total is sent, and right: the count of the seeded issues the filter selects. */
function checkTotal(fixture: Fixture, reply: Reply, filter: ListFilter | undefined): 'absent' | 'exact' | string {
  const header = reply.headers.get('x-total');
  if (header === null || header === '') return 'absent';
  if (!filter) return 'exact';
  const expected = expectedCount(fixture, filter);
  return Number(header) === expected ? 'exact' : `wrong: ${header}, expected ${expected}`;
}

// ---------------------------------------------------------------------------------------------
// Scenarios
// ---------------------------------------------------------------------------------------------

type Kind = 'project' | 'page' | 'deep' | 'filter' | 'search' | 'post-issue' | 'post-note';
const WRITES: ReadonlySet<Kind> = new Set<Kind>(['post-issue', 'post-note']);

interface Scenario {
  name: string;
  kind: Kind;
  sizes: readonly Size[];
  connections: readonly number[];
  /** One request; `i` numbers the requests of a run. */
  request(target: Target, fixture: Fixture, i: number): Promise<Reply>;
  expectedStatus: number;
  /** Why the reply's content is not right (not an error: reported in the table). */
  check?(fixture: Fixture, reply: Reply): string | undefined;
  /** X-Total's presence and value (list scenarios). */
  total?(fixture: Fixture, reply: Reply): string;
}

const both = [LATENCY_CONNECTIONS, THROUGHPUT_CONNECTIONS] as const;
const all: ListFilter = { query: () => '', matches: () => true, orderBy: 'created_at' };

/** The page size a list scenario asks for: what the shortest project's list holds, up to {@link PER_PAGE}. */
const pageSize = (fixture: Fixture, filter: ListFilter) => Math.min(PER_PAGE, Math.max(1, expectedCount(fixture.shortest ?? fixture, filter)));

function listScenario(name: string, kind: Kind, filter: ListFilter): Scenario {
  return {
    name,
    kind,
    sizes: SIZES,
    connections: both,
    expectedStatus: 200,
    request: (target, fixture) => {
      const query = filter.query(fixture);
      return call(target, 'GET', `/projects/${fixture.projectId}/issues${query}${query ? '&' : '?'}per_page=${pageSize(fixture, filter)}`);
    },
    check: (fixture, reply) => checkPage(fixture, reply, filter, pageSize(fixture, filter), true),
    total: (fixture, reply) => checkTotal(fixture, reply, filter),
  };
}

const filtered = (query: (f: Fixture) => string, matches: ListFilter['matches'], orderBy: ListFilter['orderBy'] = 'created_at'): ListFilter => ({ query, matches, orderBy });

const SCENARIOS: Scenario[] = [
  {
    name: 'GET /projects/:id',
    kind: 'project',
    sizes: SIZES,
    connections: both,
    expectedStatus: 200,
    request: (target, fixture) => call(target, 'GET', `/projects/${fixture.projectId}`),
    check: (fixture, reply) => ((reply.body as { id?: number }).id === fixture.projectId ? undefined : `another project: ${describe(reply)}`),
  },
  listScenario('GET /projects/:id/issues', 'page', all),
  {
    name: `GET /projects/:id/issues deep page (keyset, per_page=${DEEP_PER_PAGE}, page ${DEEP_FOLLOWS + 1})`,
    kind: 'deep',
    sizes: SIZES,
    connections: both,
    expectedStatus: 200,
    request: (target, fixture) => call(target, 'GET', fixture.deepUrl!),
    check: (fixture, reply) => checkPage(fixture, reply, all, DEEP_PER_PAGE, true),
    total: (fixture, reply) => checkTotal(fixture, reply, all),
  },
  listScenario(
    'GET /projects/:id/issues?state=closed',
    'filter',
    filtered(() => '?state=closed', (_f, issue) => issue.state === 'closed'),
  ),
  listScenario(
    'GET /projects/:id/issues?labels=<label>',
    'filter',
    filtered((f) => `?labels=${encodeURIComponent(f.labels[0].name)}`, (f, issue) => issue.labels.includes(f.labels[0].name)),
  ),
  listScenario(
    'GET /projects/:id/issues?milestone=<title>',
    'filter',
    filtered((f) => `?milestone=${encodeURIComponent(f.milestones[0].title)}`, (f, issue) => issue.milestone === f.milestones[0].title),
  ),
  listScenario(
    'GET /projects/:id/issues?assignee_id=<id>',
    'filter',
    filtered((f) => `?assignee_id=${busiestAssignee(f)}`, (f, issue) => issue.assigneeIds.includes(busiestAssignee(f))),
  ),
  listScenario(
    'GET /projects/:id/issues?author_id=<id>',
    'filter',
    filtered((f) => `?author_id=${f.users[0].id}`, (f, issue) => issue.authorId === f.users[0].id),
  ),
  listScenario('GET /projects/:id/issues?order_by=updated_at', 'filter', filtered(() => '?order_by=updated_at', () => true, 'updated_at')),
  listScenario(`GET /projects/:id/issues?search=${COMMON_WORD} (common)`, 'search', filtered(() => `?search=${COMMON_WORD}`, searchMatches(COMMON_WORD))),
  listScenario(`GET /projects/:id/issues?search=${RARE_WORD} (rare)`, 'search', filtered(() => `?search=${RARE_WORD}`, searchMatches(RARE_WORD))),
  {
    name: 'POST /projects/:id/issues',
    kind: 'post-issue',
    sizes: ['BIG'],
    connections: [WRITE_CONNECTIONS],
    expectedStatus: 201,
    request: (target, fixture, i) =>
      call(target, 'POST', `/projects/${fixture.projectId}/issues`, {
        title: `Bench ${RUN_ID} new issue ${i}`,
        description: 'Written by the issues bench',
        labels: `${fixture.labels[0].name},${fixture.labels[2].name}`,
        assignee_ids: [fixture.users[0].id],
        milestone_id: fixture.milestones[0].id,
      }),
  },
  {
    name: 'POST /projects/:id/issues/:iid/notes',
    kind: 'post-note',
    sizes: ['BIG'],
    connections: [WRITE_CONNECTIONS],
    expectedStatus: 201,
    request: (target, fixture, i) =>
      call(target, 'POST', `/projects/${fixture.projectId}/issues/${fixture.noteIids[Math.abs(i) % fixture.noteIids.length]}/notes`, { body: 'A bench comment' }),
  },
];

// ---------------------------------------------------------------------------------------------
// Running
// ---------------------------------------------------------------------------------------------

interface Run {
  scenario: string;
  kind: Kind;
  size: Size;
  connections: number;
  requests: number;
  errors: number;
  seconds: number;
  reqPerSec: number;
  p50Ms: number;
  p90Ms: number;
  p99Ms: number;
  stoppedByTimeLimit: boolean;
  dynamoCallsPerRequest: number | null;
  dynamoCallsByCommand: Record<string, number> | null;
  /**
   * DynamoDB calls made meanwhile by stream-invoked and scheduled functions (hook delivery, the
   * jobs worker, the CI scheduler), per request: on AWS invocations of their own, so not in
   * `dynamoCallsPerRequest`.
   */
  backgroundCallsPerRequest: number | null;
  /**
   * CPU time of this process per request (local mode: the handlers, the SDK and the bench's own
   * HTTP client, which are all in this process; DynamoDB Local runs in its own). What a function
   * of Lambda's memory size spends at its share of a vCPU (README, Deployment).
   */
  cpuMsPerRequest: number | null;
  /**
   * The floor of this request's own calls (`replayFloor`), on runs at one connection of reads in
   * local mode; null otherwise.
   */
  callsFloor: Floor | null;
  /** `exact`, `absent`, `wrong: …`, or `mixed` (sent on some replies only); null where not a list. */
  xTotal: string | null;
  /** The first content problem (null: every reply was right). */
  check: string | null;
  firstError?: string;
}

async function runScenario(target: Target, scenario: Scenario, fixture: Fixture, connections: number, counter: CallCounter | undefined): Promise<Run> {
  const ignore = () => undefined;
  const warmup = WARMUP ?? 2 * connections;
  // Negative numbers for the warm-up, so a write's name or target differs from the measured ones.
  await pool(warmup, connections, performance.now() + MAX_SECONDS * 1000, (i) => scenario.request(target, fixture, -1 - i).then(ignore, ignore));

  const latencies: number[] = [];
  let errors = 0;
  let firstError: string | undefined;
  let check: string | undefined;
  const totals = new Set<string>();
  const before = snapshot(counter);
  const cpuBefore = process.cpuUsage();
  const started = performance.now();
  const ran = await pool(REQUESTS, connections, started + MAX_SECONDS * 1000, async (i) => {
    try {
      const reply = await scenario.request(target, fixture, i);
      latencies.push(reply.ms);
      if (reply.status !== scenario.expectedStatus) {
        errors++;
        firstError ??= `expected ${scenario.expectedStatus}, got ${describe(reply)}`;
        return;
      }
      check ??= scenario.check?.(fixture, reply);
      if (scenario.total) totals.add(scenario.total(fixture, reply));
    } catch (error) {
      // A network error or timeout: one failed request, without a latency sample.
      errors++;
      firstError ??= `no reply: ${(error as Error).message ?? String(error)}`;
    }
  });
  const seconds = (performance.now() - started) / 1000;
  const cpu = process.cpuUsage(cpuBefore);
  const after = snapshot(counter);
  const requests = ran;
  const sorted = latencies.sort((a, b) => a - b);
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
  const wrongTotal = [...totals].find((t) => t.startsWith('wrong'));
  return {
    scenario: scenario.name,
    kind: scenario.kind,
    size: fixture.size,
    connections,
    requests,
    errors,
    seconds: round(seconds),
    reqPerSec: round(requests / seconds, 1),
    p50Ms: round(percentile(sorted, 0.5), 1),
    p90Ms: round(percentile(sorted, 0.9), 1),
    p99Ms: round(percentile(sorted, 0.99), 1),
    stoppedByTimeLimit: ran < REQUESTS,
    dynamoCallsPerRequest: perRequest,
    dynamoCallsByCommand: byCommand,
    backgroundCallsPerRequest: before && after && requests > 0 ? round((after.background - before.background) / requests) : null,
    cpuMsPerRequest: counter && requests > 0 ? round((cpu.user + cpu.system) / 1000 / requests) : null,
    callsFloor: null,
    xTotal: !scenario.total ? null : wrongTotal ?? (totals.size > 1 ? 'mixed' : ([...totals][0] ?? null)),
    check: check ?? null,
    ...(firstError ? { firstError } : {}),
  };
}

// ---------------------------------------------------------------------------------------------
// The raw floor
// ---------------------------------------------------------------------------------------------

interface Floor {
  name: string;
  p50Ms: number;
  p90Ms: number;
  /** Operations per second at 16 in flight. */
  opsPerSecAt16: number;
}

interface Floors {
  getItem: Floor;
  query: Floor;
}

/** An operation's p50 and p90 one at a time, and its rate at 16 in flight, after a warm-up. */
async function measureOperation(name: string, operation: (i: number) => Promise<void>): Promise<Floor> {
  progress(`measuring the floor: ${name}`);
  await pool(2 * THROUGHPUT_CONNECTIONS, THROUGHPUT_CONNECTIONS, Number.POSITIVE_INFINITY, (i) => operation(i));
  const latencies: number[] = [];
  await pool(REQUESTS, LATENCY_CONNECTIONS, performance.now() + MAX_SECONDS * 1000, async (i) => {
    const begun = performance.now();
    await operation(i);
    latencies.push(performance.now() - begun);
  });
  const started = performance.now();
  const done = await pool(REQUESTS, THROUGHPUT_CONNECTIONS, started + MAX_SECONDS * 1000, operation);
  const opsPerSec = done / ((performance.now() - started) / 1000);
  const sorted = latencies.sort((a, b) => a - b);
  return { name, p50Ms: round(percentile(sorted, 0.5), 2), p90Ms: round(percentile(sorted, 0.9), 2), opsPerSecAt16: round(opsPerSec, 1) };
}

/** GetItem (consistent) and a Query of 20 items, raw with the handlers' document client, on BIG's items. */
async function measureFloors(big: Fixture): Promise<Floors> {
  const { GetCommand, QueryCommand } = await import('@aws-sdk/lib-dynamodb');
  const { db, tableName } = await import('../../shared/platform/dynamo/client');
  const { issueKeys, issueCollections } = await import('../../shared/issues/store/keys');
  const iids = big.noteIids.length ? big.noteIids : [1];
  const opened = issueCollections.projectIssues(big.projectId, 'opened');

  const getItem = await measureOperation('DynamoDB GetItem (consistent)', async (i) => {
    const { Item } = await db().send(new GetCommand({ TableName: tableName(), Key: issueKeys.issue(big.projectId, iids[i % iids.length]), ConsistentRead: true }));
    if (!Item) throw new Error('floor: the issue item is missing');
  });
  const query = await measureOperation('DynamoDB Query, 20 items (GSI1)', async () => {
    const { Items } = await db().send(
      new QueryCommand({
        TableName: tableName(),
        IndexName: opened.index,
        KeyConditionExpression: '#pk = :pk',
        ExpressionAttributeNames: { '#pk': opened.partitionAttribute },
        ExpressionAttributeValues: { ':pk': opened.partitionValue },
        ScanIndexForward: false,
        Limit: 20,
      }),
    );
    if (!Items || Items.length === 0) throw new Error(`floor: no item in ${opened.partitionValue}`);
  });
  return { getItem, query };
}

/**
 * The floor of one request's own calls: the DynamoDB calls one request made (recorded as the
 * handlers gave them to the document client), sent again raw with the same client, calls that
 * were in flight together sent together (`Promise.all`), the others one after another; at one
 * request at a time for its latency and at 16 for the rate DynamoDB (Local) and the SDK allow
 * these very calls on this machine. Reads only: undefined when the request wrote.
 */
async function replayFloor(name: string, calls: RecordedCall[]): Promise<Floor | undefined> {
  const { BatchGetCommand, GetCommand, QueryCommand, TransactGetCommand } = await import('@aws-sdk/lib-dynamodb');
  const { db } = await import('../../shared/platform/dynamo/client');
  const send: Record<string, (input: never) => Promise<unknown>> = {
    GetItem: (input) => db().send(new GetCommand(input)),
    BatchGetItem: (input) => db().send(new BatchGetCommand(input)),
    Query: (input) => db().send(new QueryCommand(input)),
    TransactGetItems: (input) => db().send(new TransactGetCommand(input)),
  };
  if (calls.length === 0 || calls.some((c) => !send[c.name])) return undefined;
  const waves: RecordedCall[][] = [];
  let inFlightUntil = Number.NEGATIVE_INFINITY;
  for (const c of [...calls].sort((a, b) => a.started - b.started)) {
    if (c.started < inFlightUntil) {
      waves[waves.length - 1].push(c);
      inFlightUntil = Math.max(inFlightUntil, c.ended);
    } else {
      waves.push([c]);
      inFlightUntil = c.ended;
    }
  }
  return measureOperation(`${name}: its ${calls.length} calls raw`, async () => {
    for (const wave of waves) await Promise.all(wave.map((c) => send[c.name](structuredClone(c.input) as never)));
  });
}

/** The floor a scenario's p50 is printed beside: a Query for lists, a GetItem otherwise. */
const floorOf = (kind: Kind, floors: Floors | undefined): Floor | undefined =>
  floors && (kind === 'project' || kind === 'post-issue' || kind === 'post-note' ? floors.getItem : floors.query);

/** The floor of the calls a run makes: the Query floor per Query, the GetItem floor per other call. */
function callsFloorMs(run: Run, floors: Floors | undefined): number | undefined {
  if (!floors || !run.dynamoCallsByCommand) return undefined;
  return Object.entries(run.dynamoCallsByCommand).reduce(
    (sum, [name, n]) => sum + n * (name === 'Query' ? floors.query.p50Ms : floors.getItem.p50Ms),
    0,
  );
}

// ---------------------------------------------------------------------------------------------
// Targets
// ---------------------------------------------------------------------------------------------

/** Calls per request allowed by issue 12, by kind. */
const CALL_LIMITS: Partial<Record<Kind, number>> = { project: 3, page: 4, deep: 4, filter: 4, search: 4, 'post-issue': 8, 'post-note': 6 };
/** Requests per second at 16 connections required by issue 12, by kind. */
const THROUGHPUT_LIMITS: Partial<Record<Kind, number>> = { project: 600, page: 300 };
const FLAT_RATIO = 1.2;
/** Calls per request on BIG may exceed SMALL's by this much and still count as the same. */
const CALLS_TOLERANCE = 0.1;
const SEARCH_RATIO = 3;
const FLOOR_RATIO = 1.5;

interface TargetRow {
  scenario: string;
  kind: Kind;
  p50Ms: Partial<Record<Size, number>>;
  calls: Partial<Record<Size, number | null>>;
  reqPerSecAt16: Partial<Record<Size, number>>;
  /** The rate of the request's own calls sent raw at 16 in flight (`replayFloor`). */
  callsFloorPerSecAt16: Partial<Record<Size, number>>;
  p50Ratio: number | null;
  callsRatio: number | null;
  /** Each: 'PASS', 'FAIL …', or null where the target does not apply or cannot be judged. */
  flat: string | null;
  callLimit: string | null;
  search: string | null;
  throughput: string | null;
  floorLatency: string | null;
}

const verdict = (ok: boolean, failure: string) => (ok ? 'PASS' : `FAIL ${failure}`);
const fmt = (value: number | null | undefined, digits = 1) => (value === null || value === undefined || Number.isNaN(value) ? '-' : value.toFixed(digits));

function judge(runs: Run[], floors: Floors | undefined): TargetRow[] {
  const rows: TargetRow[] = [];
  for (const scenario of SCENARIOS) {
    const mine = runs.filter((r) => r.scenario === scenario.name);
    if (mine.length === 0) continue;
    const latencyRun = (size: Size) => mine.find((r) => r.size === size && r.connections === Math.min(...scenario.connections));
    const throughputRun = (size: Size) => mine.find((r) => r.size === size && r.connections === THROUGHPUT_CONNECTIONS);
    const row: TargetRow = {
      scenario: scenario.name,
      kind: scenario.kind,
      p50Ms: {},
      calls: {},
      reqPerSecAt16: {},
      callsFloorPerSecAt16: {},
      p50Ratio: null,
      callsRatio: null,
      flat: null,
      callLimit: null,
      search: null,
      throughput: null,
      floorLatency: null,
    };
    for (const size of scenario.sizes) {
      const run = latencyRun(size);
      if (run) {
        row.p50Ms[size] = run.p50Ms;
        row.calls[size] = run.dynamoCallsPerRequest;
      }
      const fast = throughputRun(size);
      if (fast) row.reqPerSecAt16[size] = fast.reqPerSec;
      const floorRate = run?.callsFloor?.opsPerSecAt16;
      if (floorRate !== undefined) row.callsFloorPerSecAt16[size] = floorRate;
    }
    const { SMALL: smallP50, BIG: bigP50 } = row.p50Ms;
    const { SMALL: smallCalls, BIG: bigCalls } = row.calls;
    if (smallP50 !== undefined && bigP50 !== undefined) row.p50Ratio = round(bigP50 / smallP50);
    if (typeof smallCalls === 'number' && typeof bigCalls === 'number' && smallCalls > 0) row.callsRatio = round(bigCalls / smallCalls);

    if ((scenario.kind === 'page' || scenario.kind === 'deep' || scenario.kind === 'filter') && row.p50Ratio !== null) {
      const latencyFlat = row.p50Ratio <= FLAT_RATIO;
      // Calls are averages over the run (a cache refill now and then): "the same" within a tenth of a call.
      const callsFlat = row.callsRatio === null || (bigCalls as number) <= (smallCalls as number) + CALLS_TOLERANCE;
      row.flat = verdict(latencyFlat && callsFlat, [latencyFlat ? '' : `p50 ${row.p50Ratio}x`, callsFlat ? '' : `calls ${row.callsRatio}x`].filter(Boolean).join(', '));
    }
    const callLimit = CALL_LIMITS[scenario.kind];
    const measuredCalls = scenario.sizes.map((size) => row.calls[size]).filter((c): c is number => typeof c === 'number');
    if (callLimit !== undefined && measuredCalls.length) {
      const worst = Math.max(...measuredCalls);
      row.callLimit = verdict(worst <= callLimit, `${worst}>${callLimit}`);
    }
    if (scenario.kind === 'search') {
      const page = runs.filter((r) => r.kind === 'page' && r.connections === LATENCY_CONNECTIONS);
      const ratios = scenario.sizes
        .map((size) => {
          const base = page.find((r) => r.size === size);
          const p50 = row.p50Ms[size];
          return base && p50 !== undefined ? p50 / base.p50Ms : undefined;
        })
        .filter((r): r is number => r !== undefined);
      if (ratios.length) {
        const worst = round(Math.max(...ratios));
        row.search = verdict(worst <= SEARCH_RATIO, `${worst}x`);
      }
    }
    const throughputLimit = THROUGHPUT_LIMITS[scenario.kind];
    const rates = scenario.sizes.map((size) => row.reqPerSecAt16[size]).filter((r): r is number => r !== undefined);
    if (throughputLimit !== undefined && rates.length) {
      const worst = Math.min(...rates);
      row.throughput = verdict(worst >= throughputLimit, `${worst}<${throughputLimit}`);
    }
    if (!WRITES.has(scenario.kind)) {
      const ratios = scenario.sizes
        .map((size) => {
          const run = latencyRun(size);
          const floor = run && (run.callsFloor?.p50Ms ?? callsFloorMs(run, floors));
          return run && floor ? run.p50Ms / floor : undefined;
        })
        .filter((r): r is number => r !== undefined);
      if (ratios.length) {
        const worst = round(Math.max(...ratios));
        row.floorLatency = verdict(worst <= FLOOR_RATIO, `${worst}x`);
      }
    }
    rows.push(row);
  }
  return rows;
}

// ---------------------------------------------------------------------------------------------
// Output
// ---------------------------------------------------------------------------------------------

function runsTable(runs: Run[], floors: Floors | undefined, counted: boolean): string {
  const header = ['scenario', 'project', 'conn', 'requests', 'errors', 'req/s', 'p50 ms', 'p90 ms', 'p99 ms', 'floor', 'p50 / floor', 'calls/req', 'CPU ms/req', 'X-Total', 'check'];
  const rows = runs.map((r) => {
    const floor = r.callsFloor ?? floorOf(r.kind, floors);
    const floorName = r.callsFloor ? 'its calls' : floor?.name.includes('Query') ? 'Query' : 'GetItem';
    return [
      r.scenario + (r.stoppedByTimeLimit ? ' (time limit)' : ''),
      r.size,
      String(r.connections),
      String(r.requests),
      String(r.errors),
      r.reqPerSec.toFixed(1),
      fmt(r.p50Ms),
      fmt(r.p90Ms),
      fmt(r.p99Ms),
      floor ? `${floorName} ${floor.p50Ms.toFixed(2)}` : '-',
      floor ? `${(r.p50Ms / floor.p50Ms).toFixed(1)}x` : '-',
      counted ? fmt(r.dynamoCallsPerRequest, 2) : '-',
      fmt(r.cpuMsPerRequest, 2),
      r.xTotal ?? '-',
      r.check ?? 'ok',
    ];
  });
  return alignedTable(header, rows, [0, 1, 9, 13, 14]);
}

function targetsTable(rows: TargetRow[]): string {
  const header = [
    'scenario',
    'p50 SMALL',
    'p50 BIG',
    'BIG/SMALL p50',
    'calls SMALL',
    'calls BIG',
    'BIG/SMALL calls',
    'req/s@16 SMALL',
    'req/s@16 BIG',
    'its calls raw/s@16 SMALL',
    'its calls raw/s@16 BIG',
    `flat <=${FLAT_RATIO}x`,
    'calls <= limit',
    `search <=${SEARCH_RATIO}x page`,
    'req/s >= limit',
    `<=${FLOOR_RATIO}x floor of calls`,
  ];
  const body = rows.map((r) => [
    r.scenario,
    fmt(r.p50Ms.SMALL),
    fmt(r.p50Ms.BIG),
    r.p50Ratio === null ? '-' : `${r.p50Ratio.toFixed(2)}x`,
    fmt(r.calls.SMALL, 2),
    fmt(r.calls.BIG, 2),
    r.callsRatio === null ? '-' : `${r.callsRatio.toFixed(2)}x`,
    fmt(r.reqPerSecAt16.SMALL),
    fmt(r.reqPerSecAt16.BIG),
    fmt(r.callsFloorPerSecAt16.SMALL),
    fmt(r.callsFloorPerSecAt16.BIG),
    r.flat ?? '-',
    r.callLimit === null ? '-' : `${r.callLimit} (${CALL_LIMITS[r.kind]})`,
    r.search ?? '-',
    r.throughput === null ? '-' : `${r.throughput} (${THROUGHPUT_LIMITS[r.kind]})`,
    r.floorLatency ?? '-',
  ]);
  return alignedTable(header, body, [0, 11, 12, 13, 14, 15]);
}

function breakdown(runs: Run[]): string {
  const rows = runs
    .filter((r) => r.connections !== THROUGHPUT_CONNECTIONS)
    .map((r) => [
      r.scenario,
      r.size,
      Object.entries(r.dynamoCallsByCommand ?? {}).map(([name, n]) => `${name} ${n}`).join(', ') || '(none)',
      fmt(r.backgroundCallsPerRequest, 2),
    ]);
  return alignedTable(['scenario', 'project', 'DynamoDB calls per request', 'background (hooks, jobs, schedules)'], rows, [0, 1, 2]);
}

// ---------------------------------------------------------------------------------------------
// The seed cache (BENCH_SEED_CACHE)
// ---------------------------------------------------------------------------------------------

/** Where the runtime's data is kept in the cache directory, and what was seeded into it. */
const SEED_CACHE_DATA = 'data';
const SEED_CACHE_FIXTURES = 'fixtures.json';

/** What a cache was seeded for; a cache seeded otherwise is refused (bump `plan` when `planIssues` or the seeding changes). */
const seedKey = () => ({ plan: 1, smallIssues: SMALL_ISSUES, bigIssues: BIG_ISSUES });

interface SeedCache {
  dir: string;
  seededAt: string;
  fixtures: Record<Size, Fixture>;
}

/** The cache at `dir` when it was seeded for this run's settings; undefined when there is none yet (nothing at `dir`). */
async function readSeedCache(dir: string): Promise<SeedCache | undefined> {
  if (!existsSync(dir)) return undefined;
  let saved: { key: unknown; seededAt: string; fixtures: Record<Size, Fixture> };
  try {
    saved = JSON.parse(await readFile(join(dir, SEED_CACHE_FIXTURES), 'utf8')) as typeof saved;
  } catch (error) {
    throw new Error(`BENCH_SEED_CACHE=${dir} exists but is not a seed cache (${(error as Error).message}): remove it, or name a directory that does not exist`, {
      cause: error,
    });
  }
  if (!existsSync(join(dir, SEED_CACHE_DATA))) throw new Error(`BENCH_SEED_CACHE=${dir} has no ${SEED_CACHE_DATA} directory: remove it`);
  const wanted = JSON.stringify(seedKey());
  if (JSON.stringify(saved.key) !== wanted) {
    throw new Error(`BENCH_SEED_CACHE=${dir} was seeded for ${JSON.stringify(saved.key)}, this run wants ${wanted}: remove it or name another directory`);
  }
  return { dir, seededAt: saved.seededAt, fixtures: saved.fixtures };
}

/** Stops the runtime and keeps its data and the fixtures in `dir` (the fixtures last: a cache without them is refused). */
async function keepSeed(session: BenchSession, dir: string, fixtures: Record<Size, Fixture>): Promise<void> {
  await mkdir(dir, { recursive: true });
  await session.keepData(join(dir, SEED_CACHE_DATA));
  await writeFile(join(dir, SEED_CACHE_FIXTURES), JSON.stringify({ key: seedKey(), seededAt: new Date().toISOString(), fixtures }));
}

/** Runs this very bench again in a child process (same runtime flags, arguments and environment); resolves to its exit code. */
function rerunThisBench(): Promise<number> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [...process.execArgv, ...process.argv.slice(1)], { stdio: 'inherit' });
    child.once('error', reject);
    child.once('exit', (code, signal) => resolve(code ?? (signal ? 1 : 0)));
  });
}

// ---------------------------------------------------------------------------------------------
// Main
// ---------------------------------------------------------------------------------------------

async function main(session: BenchSession): Promise<number> {
  const selected = SCENARIOS.filter((s) => !ONLY || ONLY.test(s.name));
  if (selected.length === 0) throw new Error(`BENCH_ONLY=${process.env.BENCH_ONLY} selects no scenario`);
  const cache = SEED_CACHE ? await readSeedCache(SEED_CACHE) : undefined;
  if (SEED_CACHE && process.env.API_URL) throw new Error('BENCH_SEED_CACHE keeps the local runtime\'s data: unset it to benchmark API_URL');
  // DynamoDB Local's data on tmpfs where there is one: seeding is several times faster than on a disk.
  const { target, counter, local } = await session.start({
    rootToken: LOCAL_ROOT_TOKEN,
    tmpDir: process.env.BENCH_TMPDIR || (existsSync('/dev/shm') ? '/dev/shm' : undefined),
    seededFrom: cache && join(cache.dir, SEED_CACHE_DATA),
  });

  let fixtures: Record<Size, Fixture>;
  if (cache) {
    fixtures = cache.fixtures;
    progress(`seeded data of ${cache.dir} (seeded ${cache.seededAt}): nothing is seeded`);
  } else {
    const importIssues = local ? await findImportIssues() : undefined;
    if (local && !importIssues) progress('shared/issues does not export importIssues (yet): BIG is seeded over HTTP');
    if (!importIssues && BIG_ISSUES > 2000) progress(`warning: seeding ${BIG_ISSUES} issues over HTTP takes long; BENCH_BIG_ISSUES=300 is enough to try`);
    const users = await seedUsers(target);
    fixtures = {} as Record<Size, Fixture>;
    for (const size of SIZES) fixtures[size] = await seedFixture(target, size, users, importIssues);
    if (SEED_CACHE) {
      await keepSeed(session, SEED_CACHE, fixtures);
      // The runtime cannot start again in this process (its engines' endpoints and the SDK
      // clients are set once): the measuring runs in a new one, on a copy of what was kept.
      progress(`kept the seeded data in ${SEED_CACHE}; measuring in a new process, on a copy of it`);
      return rerunThisBench();
    }
  }
  for (const size of SIZES) fixtures[size].shortest = fixtures.SMALL;
  if (selected.some((s) => s.kind === 'deep')) {
    for (const size of SIZES) fixtures[size].deepUrl = await findDeepPage(target, fixtures[size]);
  }
  const floors = local ? await measureFloors(fixtures.BIG) : undefined;
  // Runs measure the steady state: no list reads the journal of the seeding's writes (`recent.ts`).
  const quiet = Math.max(...SIZES.map((size) => fixtures[size].seeding.endedAt)) + RECENT_WINDOW_MS - Date.now();
  if (quiet > 0) {
    progress(`waiting ${Math.ceil(quiet / 1000)} s, past the read-your-writes window of the seeding's last write`);
    await new Promise((resolve) => setTimeout(resolve, quiet));
  }

  const runs: Run[] = [];
  for (const scenario of selected) {
    for (const connections of scenario.connections) {
      for (const size of scenario.sizes) {
        progress(`running ${scenario.name} on ${size} at ${connections} connection${connections > 1 ? 's' : ''}`);
        const run = await runScenario(target, scenario, fixtures[size], connections, counter);
        if (counter && connections === LATENCY_CONNECTIONS && !WRITES.has(scenario.kind)) {
          counter.recording = [];
          await scenario.request(target, fixtures[size], 0);
          const calls = counter.recording;
          counter.recording = undefined;
          run.callsFloor = (await replayFloor(`${scenario.name} on ${size}`, calls)) ?? null;
        }
        runs.push(run);
        progress(
          `  ${run.requests} requests, ${run.errors} errors, ${run.reqPerSec} req/s, p50 ${run.p50Ms} ms` +
            (run.dynamoCallsPerRequest !== null ? `, ${run.dynamoCallsPerRequest} DynamoDB calls/request` : ''),
        );
        if (run.firstError) progress(`  first error: ${run.firstError}`);
        if (run.check) progress(`  check: ${run.check}`);
      }
    }
  }
  if (counter && counter.total === 0) {
    progress('warning: no DynamoDB call was counted: the handlers do not use the shared client of this process');
  }

  await session.cleanup();

  const counted = Boolean(counter && counter.total > 0);
  const targets = judge(counted ? runs : runs.map((r) => ({ ...r, dynamoCallsPerRequest: null, dynamoCallsByCommand: null })), floors);
  const seeding = SIZES.map((size) => {
    const { issues, via, ms } = fixtures[size].seeding;
    return { project: size, issues, via, ms, msPer1000Issues: round((ms / issues) * 1000, 0) };
  });
  const out = (text: string) => process.stdout.write(`${text}\n`);
  out(
    `\n${local ? 'local runtime' : target.base}: SMALL ${SMALL_ISSUES} issues, BIG ${BIG_ISSUES} issues; ${REQUESTS} requests per run, ` +
      `at most ${MAX_SECONDS} s per run`,
  );
  out(`seeding: ${seeding.map((s) => `${s.project} ${s.issues} via ${s.via} in ${(s.ms / 1000).toFixed(1)} s (${(s.msPer1000Issues / 1000).toFixed(2)} s per 1000)`).join('; ')}`);
  out(
    floors
      ? `raw DynamoDB floor (same run, the handlers' SDK client, 1 in flight): GetItem p50 ${floors.getItem.p50Ms} ms (p90 ${floors.getItem.p90Ms}; ` +
          `${floors.getItem.opsPerSecAt16}/s at 16), Query of 20 items p50 ${floors.query.p50Ms} ms (p90 ${floors.query.p90Ms}; ${floors.query.opsPerSecAt16}/s at 16)`
      : 'no floor against a deployment',
  );
  out(`\n${runsTable(runs, floors, counted)}`);
  out(
    `\nissue 12's targets (p50 and calls at 1 connection, writes at ${WRITE_CONNECTIONS}; FAIL does not fail the run):\n${targetsTable(targets)}`,
  );
  if (counted) out(`\nDynamoDB calls per request, by operation:\n${breakdown(runs)}`);
  // Every handler and the bench's client in one process, at up to 16 requests at once: an upper
  // bound of what one Lambda instance (one request at a time) holds on top of its import.
  const peakRssMb = local ? Math.round(process.resourceUsage().maxRSS / 1024) : null;
  if (peakRssMb !== null) out(`\nPeak resident memory of this process (every handler, the bench's client): ${peakRssMb} MB`);
  out(
    `\n${JSON.stringify({
      bench: 'issues',
      time: new Date().toISOString(),
      target: local ? 'local' : target.base,
      smallIssues: SMALL_ISSUES,
      bigIssues: BIG_ISSUES,
      requestsPerRun: REQUESTS,
      maxSecondsPerRun: MAX_SECONDS,
      dynamoCallsCounted: counted,
      seeding,
      floors: floors ?? null,
      peakRssMb,
      runs: runs.map((r) => (counted ? r : { ...r, dynamoCallsPerRequest: null, dynamoCallsByCommand: null })),
      targets,
    })}`,
  );
  return runs.some((r) => r.errors > 0 || r.requests === 0) ? 1 : 0;
}

runBench(main);
