/**
 * `npm run bench:git` (also run by `npm run bench`, after the API benchmark): git over smart HTTP,
 * the service against `git http-backend` as the floor, measured in the same run.
 *
 * What it does
 * - Generates a test repository deterministically with `git fast-import` in a temporary directory
 *   (a seeded generator, fixed identities and dates: the same objects every run):
 *   `BENCH_GIT_COMMITS` commits (default 10,000, ~5.3 objects each: ~53,000 objects), each
 *   touching one to three text files in nested directories (`m<i>/p<j>/f<k>.txt`: the blob, its
 *   directory, the parent directory and the root tree change), now and then adding a file, and every
 *   25th commit editing one of a few larger files (`assets/`, 15–40 KB, long delta chains), then
 *   `git repack -adf`: one pack with deltas (and a bitmap, which git http-backend uses). Its object
 *   count and pack size are reported. A second repository, 10× shorter (`BENCH_GIT_SMALL_COMMITS`),
 *   is generated the same way.
 *   Why the pack is kept small: a push sends the whole pack in one request; API Gateway passes it
 *   to Lambda base64-encoded in the event (×4/3), and a synchronous Lambda invocation payload may
 *   not exceed 6 MB, so a pack much above 4.5 MB cannot be pushed in one request on AWS (clones are
 *   answered with Lambda response streaming, which that limit does not bind); the service refuses
 *   pushes above `MAX_PUSH_BYTES` (4,500,000 bytes) for that reason. The default history gives a
 *   pack of ~4.24 MB (MB = 10^6 bytes throughout), and the benchmark refuses to run when the pack
 *   (plus 1 KB for the push commands) exceeds `BENCH_GIT_MAX_PACK_MB` (default 4.5). Raise it to
 *   benchmark bigger histories locally: the in-process service's `MAX_PUSH_BYTES` is then raised
 *   to match (unless set), and the local gateway only warns that such requests would fail on AWS;
 *   those warnings are collected per scenario and printed. Above 10 MB the gateway refuses the push
 *   (413), as API Gateway does.
 * - Starts the local runtime (DynamoDB Local + s3rver + the API Gateway emulator, handlers in this
 *   process) on a free port of 127.0.0.1, on a fresh temporary data directory, with a fixed root
 *   token; and, as the floor, `git http-backend` behind a tiny node `http` server on 127.0.0.1 (CGI:
 *   one `git http-backend` process per request, as Apache or nginx+fcgiwrap would run it). Both are
 *   served over HTTP on loopback, and the same `git` client talks to both in the same way.
 * - Runs each scenario `BENCH_GIT_RUNS` times against both servers (alternating, service first),
 *   after one unmeasured `git ls-remote` of an empty repository on each (warm-up):
 *     push, full history       into an empty repository (service: a new project created as root
 *                              through the API, pushed with root's token; floor: `git init --bare`)
 *     clone, full (bare)       `git clone --bare` of the pushed repository
 *     ls-remote                `git ls-remote`
 *     push 1 commit            a new commit (made with fast-import in a bare work clone) pushed
 *     fetch 1 commit           then `git fetch` of it into another, existing clone
 *     push/fetch 1 commit on the 10× shorter history, to show that their times do not grow with
 *                              the length of the history
 *   The wall time of each `git` command is measured (process start to exit, as a user sees it);
 *   the table shows the median and the minimum over the runs.
 * - Memory: the handlers run in this process, so during the service's push and clone scenarios
 *   `process.memoryUsage()` is sampled every 20 ms (rss and heapUsed+arrayBuffers on the main
 *   thread; rss also from a worker thread, which keeps sampling while the main thread is busy in a
 *   handler) and the peak above the value at the start of the command is reported beside the pack
 *   size. s3rver runs in this process too (DynamoDB Local is a separate Java process), so its
 *   buffers are included: an upper bound of what the Lambda function itself would need.
 * - Prints to stdout an aligned table (scenario | service median/min ms | git http-backend
 *   median/min ms | ratio | target | met), then the repository and memory figures, and as the very
 *   last line one JSON object with all the numbers (`npm run bench:git | tail -n 1`).
 *   Targets: full push and clone within 2× of git http-backend's time; a one-commit push or fetch
 *   under 300 ms and independent of the length of the history (at most 1.5× + 50 ms of the same
 *   scenario on the 10× shorter history). Missing a target does not fail the run.
 *   Progress goes to stderr.
 * - Exit code 1 when a git command fails (its stderr is printed) or the setup fails; 0 otherwise.
 *   Stops the runtime and the floor server, ends the git processes it started and removes the
 *   temporary directories at the end, also on failure or Ctrl-C (exit code 130).
 *   The npm scripts run it as `node --import tsx …`, in one process: the `tsx` command relays a
 *   Ctrl-C to its child and SIGKILLs it when the child does not answer within 60 ms, which happens
 *   while a handler keeps the event loop busy, so no cleanup could run. If a run was killed anyway,
 *   the next one removes the temporary directory it left behind.
 *
 * Environment (all optional)
 *   BENCH_GIT_COMMITS        commits of the generated repository (default 10000)
 *   BENCH_GIT_SMALL_COMMITS  commits of the short repository of the 1-commit scenarios
 *                            (default BENCH_GIT_COMMITS / 10, at least 10)
 *   BENCH_GIT_RUNS           runs of each scenario against each server (default 3)
 *   BENCH_GIT_MAX_PACK_MB    largest pack the benchmark accepts, in 10^6 bytes (default 4.5, see above)
 *   BENCH_GIT_TIMEOUT        seconds after which a single git command is killed (default 600)
 *   BENCH_GIT_BIG_MB         also run the big-pack scenario with a repository of about this many
 *                            MB (e.g. 50): it is generated with incompressible files (~100 KB a
 *                            commit, plus small text edits), pushed to the service in steps of at
 *                            most ~3.5 MB (a single push is limited to 4.5 MB), repacked into one
 *                            pack by `POST /projects/:id/housekeeping`, then cloned (bare) from the
 *                            service and from git http-backend; reports the times, and the peak
 *                            memory of this process during the housekeeping and the clone (rss
 *                            above the start and absolute, heapUsed+arrayBuffers above the start)
 *   BENCH_GIT_PROFILE        a directory: write a CPU profile of this process (the handlers) for
 *                            each service run of every scenario there
 *                            (`<scenario>-service-<run>.cpuprofile`, for Chrome DevTools or
 *                            speedscope); profiling slows the service down, so compare times
 *                            only from runs without it
 *
 * Examples
 *   npm run bench:git
 *   BENCH_GIT_COMMITS=500 BENCH_GIT_RUNS=1 npx tsx test/bench/git.ts
 *   BENCH_GIT_COMMITS=20000 BENCH_GIT_MAX_PACK_MB=9.5 npm run bench:git   # beyond Lambda's limit
 *   BENCH_GIT_RUNS=1 BENCH_GIT_PROFILE=/tmp/profiles npm run bench:git     # where the service's time goes
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createServer, type Server } from 'node:http';
import { mkdir, mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { Session } from 'node:inspector/promises';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { Worker } from 'node:worker_threads';

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

function numberEnv(name: string, fallback: number): number {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isFinite(value) || value <= 0) throw new Error(`${name} must be a positive number, got '${raw}'`);
  return value;
}

function numberEnvOrZero(name: string): number {
  const raw = process.env[name];
  return raw === undefined || raw === '' || raw === '0' ? 0 : numberEnv(name, 0);
}

const COMMITS = intEnv('BENCH_GIT_COMMITS', 10_000);
const SMALL_COMMITS = intEnv('BENCH_GIT_SMALL_COMMITS', Math.max(10, Math.round(COMMITS / 10)));
const RUNS = intEnv('BENCH_GIT_RUNS', 3);
/** The service's default `MAX_PUSH_BYTES` (shared/platform/config.ts). */
const SERVICE_MAX_PUSH_BYTES = 4_500_000;
const MAX_PACK_BYTES = Math.round(numberEnv('BENCH_GIT_MAX_PACK_MB', SERVICE_MAX_PUSH_BYTES / 1e6) * 1e6);
/** What a push request carries beside the pack (pkt-lines of the commands), roughly. */
const PUSH_OVERHEAD_BYTES = 1024;
const GIT_TIMEOUT_MS = intEnv('BENCH_GIT_TIMEOUT', 600) * 1000;
const LOCAL_ROOT_TOKEN = 'glpat-bench-root-token-0000';
/** Size of the big repository of the optional big-pack scenario (10^6 bytes), 0 for none. */
const BIG_MB = numberEnvOrZero('BENCH_GIT_BIG_MB');
/** Where to write CPU profiles of the service's runs, if anywhere. */
const PROFILE_DIR = process.env.BENCH_GIT_PROFILE ? process.env.BENCH_GIT_PROFILE : undefined;
const SAMPLE_EVERY_MS = 20;
/** Targets (see the doc comment). */
const MAX_RATIO = 2;
const ONE_COMMIT_MS = 300;
const HISTORY_FACTOR = 1.5;
const HISTORY_SLACK_MS = 50;

const progress = (message: string) => process.stderr.write(`${message}\n`);
const mb = (bytes: number) => `${(bytes / 1e6).toFixed(2)} MB`;
const round = (value: number, digits = 1) => Number(value.toFixed(digits));

// ---------------------------------------------------------------------------------------------
// Running git
// ---------------------------------------------------------------------------------------------

/** As test/support/git.ts: no prompt, no credential helper, no system or global configuration. */
const GIT_ENV: Record<string, string> = {
  GIT_TERMINAL_PROMPT: '0',
  GIT_CONFIG_NOSYSTEM: '1',
  GIT_CONFIG_GLOBAL: '/dev/null',
  GIT_AUTHOR_NAME: 'Bench Author',
  GIT_AUTHOR_EMAIL: 'author@example.com',
  GIT_COMMITTER_NAME: 'Bench Committer',
  GIT_COMMITTER_EMAIL: 'committer@example.com',
  GIT_ASKPASS: '',
  SSH_ASKPASS: '',
};

const baseEnv = (): Record<string, string> => ({
  PATH: process.env.PATH ?? '/usr/bin:/bin',
  ...(process.env.HOME ? { HOME: process.env.HOME } : {}),
  ...GIT_ENV,
});

/** Every child process still running, ended on Ctrl-C or failure. */
const children = new Set<ChildProcess>();

/** Set on Ctrl-C/SIGTERM: no new git command starts, and failures are no longer reported. */
let stopping = false;

class Interrupted extends Error {
  constructor() {
    super('interrupted');
  }
}

/** Rethrows when the run is being stopped (a failure then is the interruption, not a finding). */
function unlessStopping(error: unknown): void {
  if (stopping || error instanceof Interrupted) throw new Interrupted();
}

interface GitRun {
  code: number;
  stdout: string;
  stderr: string;
  ms: number;
}

class GitFailure extends Error {
  constructor(
    readonly args: string[],
    readonly result: GitRun,
  ) {
    super(`git ${redact(args.join(' '))} failed (exit ${result.code}, ${Math.round(result.ms)} ms):\n${redact(result.stderr.trimEnd() || result.stdout.trimEnd() || '(no output)')}`);
  }
}

/** Tokens never reach the output. */
const redact = (text: string) => text.replaceAll(LOCAL_ROOT_TOKEN, '<token>');

/** Runs git (resolves with the exit code, never rejects on failure); `input` goes to its stdin. */
function git(args: string[], options: { cwd?: string; input?: Buffer | string } = {}): Promise<GitRun> {
  if (stopping) return Promise.reject(new Interrupted());
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const child = spawn('git', ['-c', 'init.defaultBranch=main', '-c', 'credential.helper=', ...args], {
      cwd: options.cwd,
      env: baseEnv(),
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    children.add(child);
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    child.stdout.on('data', (chunk: Buffer) => out.push(chunk));
    child.stderr.on('data', (chunk: Buffer) => err.push(chunk));
    child.stdin.on('error', () => undefined);
    child.stdin.end(options.input);
    const timer = setTimeout(() => {
      err.push(Buffer.from(`\n(killed by the benchmark after ${GIT_TIMEOUT_MS / 1000} s: BENCH_GIT_TIMEOUT)`));
      child.kill('SIGKILL');
    }, GIT_TIMEOUT_MS);
    child.once('error', (error) => {
      clearTimeout(timer);
      children.delete(child);
      reject(error);
    });
    child.once('close', (code, signal) => {
      clearTimeout(timer);
      children.delete(child);
      resolve({
        code: code ?? (signal ? 128 : 1),
        stdout: Buffer.concat(out).toString('utf8'),
        stderr: Buffer.concat(err).toString('utf8'),
        ms: performance.now() - started,
      });
    });
  });
}

/** Like {@link git}, but throws a {@link GitFailure} (with git's stderr) when the command fails. */
async function gitOk(args: string[], options: { cwd?: string; input?: Buffer | string } = {}): Promise<GitRun> {
  const result = await git(args, options);
  if (result.code !== 0) throw new GitFailure(args, result);
  return result;
}

// ---------------------------------------------------------------------------------------------
// The test repository (deterministic)
// ---------------------------------------------------------------------------------------------

/** mulberry32: a small seeded generator, so every run builds the very same objects. */
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

const WORDS = (
  'the of and to in is that for it as with was on be by at this are from or have an they which one you ' +
  'were her all she there would their we him been has when who will more no if out so said what up its ' +
  'about into than them can only other new some could time these two may then do first any my now such ' +
  'like our over man me even most made after also did many before must through back years where much ' +
  'your way well down should because each just those people how too little state good very make world ' +
  'still own see men work long get here between both life being under never day same another know while ' +
  'last might us great old year off come since against go came right used take three'
).split(' ');

const TOP_DIRS = 16;
const SUB_DIRS = 8;
const FILES_PER_DIR = 4;
const BIG_FILES = 6;
const BIG_EDIT_EVERY = 25;
const BASE_TIME = 1_700_000_000;

interface GeneratedRepository {
  /** The bare repository holding the generated history on `main`. */
  path: string;
  commits: number;
  objects: number;
  packBytes: number;
  packs: number;
  headCommit: string;
  seconds: number;
}

/**
 * The fast-import stream of `commits` commits on refs/heads/main. Text files, edited a line or two
 * at a time, so consecutive versions delta well (as in a real code base).
 */
function fastImportStream(commits: number, seed: number): Buffer {
  const random = generator(seed);
  const pick = (n: number) => Math.floor(random() * n);
  const line = () => {
    const words = 4 + pick(8);
    const parts: string[] = [];
    for (let i = 0; i < words; i++) parts.push(WORDS[pick(WORDS.length)]);
    return parts.join(' ');
  };
  const lines = (n: number) => Array.from({ length: n }, line);
  const shortLine = () => `${WORDS[pick(WORDS.length)]} ${WORDS[pick(WORDS.length)]} ${WORDS[pick(WORDS.length)]}`;

  const files = new Map<string, string[]>();
  const filesOfDir = new Map<string, string[]>();
  const addFile = (dir: string, name: string, content: string[]) => {
    const path = `${dir}/${name}`;
    files.set(path, content);
    const list = filesOfDir.get(dir) ?? [];
    list.push(path);
    filesOfDir.set(dir, list);
  };
  for (let t = 0; t < TOP_DIRS; t++) {
    for (let s = 0; s < SUB_DIRS; s++) {
      for (let f = 0; f < FILES_PER_DIR; f++) addFile(`m${t}/p${s}`, `f${f}.txt`, lines(6 + pick(10)));
    }
  }
  for (let b = 0; b < BIG_FILES; b++) addFile('assets', `big${b}.txt`, lines(300 + pick(600)));
  files.set('README.md', ['# Generated by test/bench/git.ts', '', ...lines(10)]);

  const chunks: string[] = [];
  const data = (text: string) => `data ${Buffer.byteLength(text)}\n${text}\n`;
  const modify = (path: string) => `M 100644 inline ${path}\n${data(`${files.get(path)!.join('\n')}\n`)}`;
  /** A small edit, as most are: one word replaced, or a short line inserted, or a line deleted. */
  const edit = (path: string) => {
    const content = files.get(path)!;
    const at = pick(content.length);
    const kind = random();
    if (kind < 0.6 || content.length < 5) {
      const words = content[at].split(' ');
      words[pick(words.length)] = WORDS[pick(WORDS.length)];
      content[at] = words.join(' ');
    } else if (kind < 0.85) content.splice(at, 0, shortLine());
    else content.splice(at, 1);
  };
  const commit = (i: number, message: string, changes: string[]) => {
    const when = `${BASE_TIME + i * 97} +0000`;
    chunks.push(
      `commit refs/heads/main\nmark :${i + 1}\n` +
        `author Bench Author <author@example.com> ${when}\ncommitter Bench Author <author@example.com> ${when}\n` +
        data(message) +
        (i > 0 ? `from :${i}\n` : '') +
        changes.join(''),
    );
  };

  commit(0, 'Initial import\n', [...files.keys()].map(modify));
  for (let i = 1; i < commits; i++) {
    const touched = new Set<string>();
    if (i % BIG_EDIT_EVERY === 0) {
      const path = `assets/big${pick(BIG_FILES)}.txt`;
      for (let k = 0; k < 3; k++) edit(path);
      touched.add(path);
    } else {
      const top = pick(TOP_DIRS);
      const dir = `m${top}/p${pick(SUB_DIRS)}`;
      if (random() < 0.03) {
        const name = `n${i}.txt`;
        addFile(dir, name, lines(10 + pick(20)));
        touched.add(`${dir}/${name}`);
      } else {
        const candidates = filesOfDir.get(dir)!;
        const path = candidates[pick(candidates.length)];
        edit(path);
        touched.add(path);
      }
      // Often a second file beside the first, now and then a third one in a sibling directory
      // (as a change usually is: close together).
      if (random() < 0.15) {
        const candidates = filesOfDir.get(dir)!;
        const path = candidates[pick(candidates.length)];
        edit(path);
        touched.add(path);
      }
      if (random() < 0.05) {
        const candidates = filesOfDir.get(`m${top}/p${pick(SUB_DIRS)}`)!;
        const path = candidates[pick(candidates.length)];
        edit(path);
        touched.add(path);
      }
    }
    const list = [...touched];
    commit(i, `Update ${list[0]}${list.length > 1 ? ` and ${list.length - 1} more` : ''}\n`, list.map(modify));
  }
  chunks.push('done\n');
  return Buffer.from(chunks.join(''), 'utf8');
}

/**
 * Objects (`git count-objects -v`) and the size of the `.pack` files themselves (count-objects'
 * size-pack also counts the .idx and .bitmap files, which are never sent).
 */
async function countObjects(repository: string): Promise<{ objects: number; packBytes: number; packs: number; loose: number }> {
  const out = (await gitOk(['count-objects', '-v'], { cwd: repository })).stdout;
  const field = (name: string) => Number(new RegExp(`^${name}: (\\d+)$`, 'm').exec(out)?.[1] ?? Number.NaN);
  const packDir = join(repository, 'objects', 'pack');
  let packBytes = 0;
  for (const name of await readdir(packDir)) if (name.endsWith('.pack')) packBytes += (await stat(join(packDir, name))).size;
  return { objects: field('in-pack') + field('count'), packBytes, packs: field('packs'), loose: field('count') };
}

async function generateRepository(path: string, commits: number, seed: number): Promise<GeneratedRepository> {
  const started = performance.now();
  await gitOk(['init', '-q', '--bare', path]);
  await gitOk(['fast-import', '--quiet', '--done'], { cwd: path, input: fastImportStream(commits, seed) });
  // One thread: the delta search then gives the very same pack every run (threads split it differently).
  await gitOk(['repack', '-a', '-d', '-f', '-q', '--threads=1'], { cwd: path });
  await gitOk(['prune-packed'], { cwd: path });
  const counted = await countObjects(path);
  const headCommit = (await gitOk(['rev-parse', 'refs/heads/main'], { cwd: path })).stdout.trim();
  return { path, commits, ...counted, headCommit, seconds: round((performance.now() - started) / 1000, 2) };
}

// ---------------------------------------------------------------------------------------------
// The floor: git http-backend (CGI) behind node's http server
// ---------------------------------------------------------------------------------------------

interface Floor {
  url: string;
  close(): Promise<void>;
}

/** Splits CGI output at the end of its headers (CRLF CRLF or LF LF). */
function headerEnd(buffer: Buffer): { at: number; skip: number } | undefined {
  const crlf = buffer.indexOf('\r\n\r\n');
  const lf = buffer.indexOf('\n\n');
  if (crlf === -1 && lf === -1) return undefined;
  if (crlf !== -1 && (lf === -1 || crlf < lf)) return { at: crlf, skip: 4 };
  return { at: lf, skip: 2 };
}

async function startHttpBackend(projectRoot: string): Promise<Floor> {
  const server: Server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    const header = (name: string) => {
      const value = req.headers[name];
      return Array.isArray(value) ? value.join(', ') : value;
    };
    const env: Record<string, string> = {
      ...baseEnv(),
      GIT_PROJECT_ROOT: projectRoot,
      GIT_HTTP_EXPORT_ALL: '1',
      GATEWAY_INTERFACE: 'CGI/1.1',
      SERVER_PROTOCOL: `HTTP/${req.httpVersion}`,
      REQUEST_METHOD: req.method ?? 'GET',
      PATH_INFO: decodeURIComponent(url.pathname),
      QUERY_STRING: url.search.replace(/^\?/, ''),
      CONTENT_TYPE: header('content-type') ?? '',
      REMOTE_USER: 'bench',
      REMOTE_ADDR: req.socket.remoteAddress ?? '127.0.0.1',
    };
    // Without CONTENT_LENGTH (a chunked request), http-backend reads its stdin to the end.
    const length = header('content-length');
    if (length !== undefined) env.CONTENT_LENGTH = length;
    const encoding = header('content-encoding');
    if (encoding !== undefined) env.HTTP_CONTENT_ENCODING = encoding;
    const protocol = header('git-protocol');
    if (protocol !== undefined) env.GIT_PROTOCOL = protocol;

    const child = spawn('git', ['http-backend'], { env, stdio: ['pipe', 'pipe', 'pipe'] });
    children.add(child);
    const stderr: Buffer[] = [];
    child.stderr.on('data', (chunk: Buffer) => stderr.push(chunk));
    child.stdin.on('error', () => undefined);
    req.pipe(child.stdin);

    let head = Buffer.alloc(0);
    let headersSent = false;
    const fail = (message: string) => {
      if (headersSent) {
        res.destroy();
        return;
      }
      headersSent = true;
      res.writeHead(500, { 'Content-Type': 'text/plain' }).end(`${message}\n`);
    };
    child.stdout.on('data', (chunk: Buffer) => {
      if (headersSent) {
        if (!res.write(chunk)) {
          child.stdout.pause();
          res.once('drain', () => child.stdout.resume());
        }
        return;
      }
      head = Buffer.concat([head, chunk]);
      const end = headerEnd(head);
      if (!end) return;
      let status = 200;
      const headers: Record<string, string> = {};
      for (const line of head.subarray(0, end.at).toString('latin1').split(/\r?\n/)) {
        const colon = line.indexOf(':');
        if (colon <= 0) continue;
        const name = line.slice(0, colon).trim();
        const value = line.slice(colon + 1).trim();
        if (name.toLowerCase() === 'status') status = Number.parseInt(value, 10) || 500;
        else headers[name] = value;
      }
      headersSent = true;
      res.writeHead(status, headers);
      res.write(head.subarray(end.at + end.skip));
    });
    child.once('error', (error) => {
      children.delete(child);
      fail(`git http-backend: ${error.message}`);
    });
    child.once('close', (code) => {
      children.delete(child);
      if (!headersSent) fail(`git http-backend exited with ${code}: ${Buffer.concat(stderr).toString('utf8')}`);
      else res.end();
    });
    res.once('close', () => {
      if (child.exitCode === null) child.kill('SIGKILL');
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

// ---------------------------------------------------------------------------------------------
// Memory sampling (the service's handlers run in this process)
// ---------------------------------------------------------------------------------------------

interface MemoryPeak {
  /** Peak resident set size above the value at the start, bytes (max of both samplers). */
  rssBytes: number;
  /** Peak heapUsed + arrayBuffers above the value at the start, bytes (main thread). */
  heapBytes: number;
  samples: number;
}

/**
 * rss is process-wide, so a worker thread samples it even while a handler keeps the main thread
 * busy (the main thread's timer then does not fire); the JavaScript heap and the ArrayBuffers (where
 * packs live as Buffers) belong to the main isolate and can only be read there.
 */
class MemorySampler {
  private readonly shared = new Int32Array(new SharedArrayBuffer(8));
  /** The absolute peak rss of the last sampling (what a function's memory size must hold). */
  lastAbsoluteRss = 0;
  private readonly worker: Worker;

  constructor() {
    this.worker = new Worker(
      `const { workerData } = require('node:worker_threads');
       const cells = new Int32Array(workerData);
       setInterval(() => {
         if (Atomics.load(cells, 1) === 0) return;
         const kb = Math.round(process.memoryUsage.rss() / 1024);
         if (kb > Atomics.load(cells, 0)) Atomics.store(cells, 0, kb);
       }, ${SAMPLE_EVERY_MS});`,
      { eval: true, workerData: this.shared.buffer },
    );
    this.worker.unref();
  }

  /** Samples until the returned function is called, which answers the peaks above the start. */
  start(): () => MemoryPeak {
    const first = process.memoryUsage();
    const baseRss = first.rss;
    const baseHeap = first.heapUsed + first.arrayBuffers;
    let peakRss = baseRss;
    let peakHeap = baseHeap;
    let samples = 0;
    const sample = () => {
      const now = process.memoryUsage();
      samples++;
      peakRss = Math.max(peakRss, now.rss);
      peakHeap = Math.max(peakHeap, now.heapUsed + now.arrayBuffers);
    };
    Atomics.store(this.shared, 0, Math.round(baseRss / 1024));
    Atomics.store(this.shared, 1, 1);
    const timer = setInterval(sample, SAMPLE_EVERY_MS);
    return () => {
      clearInterval(timer);
      sample();
      Atomics.store(this.shared, 1, 0);
      const workerPeak = Atomics.load(this.shared, 0) * 1024;
      this.lastAbsoluteRss = Math.max(peakRss, workerPeak);
      return { rssBytes: Math.max(0, Math.max(peakRss, workerPeak) - baseRss), heapBytes: Math.max(0, peakHeap - baseHeap), samples };
    };
  }

  stop(): Promise<number> {
    return this.worker.terminate();
  }
}

// ---------------------------------------------------------------------------------------------
// Gateway warnings (the local API Gateway writes them to this process's stderr)
// ---------------------------------------------------------------------------------------------

/** Warnings of the local gateway ("would fail on AWS", "handler failed") by scenario. */
const gatewayWarnings = new Map<string, string[]>();
let currentScenario = 'setup';

function watchGatewayWarnings(): void {
  const write = process.stderr.write.bind(process.stderr) as (chunk: unknown, ...rest: unknown[]) => boolean;
  process.stderr.write = ((chunk: unknown, ...rest: unknown[]) => {
    const text = typeof chunk === 'string' ? chunk : Buffer.isBuffer(chunk) ? chunk.toString('utf8') : '';
    for (const line of text.split('\n')) {
      if (!line.startsWith('{') || !/"level":"(warn|error)"/.test(line)) continue;
      try {
        const parsed = JSON.parse(line) as { message?: string };
        const list = gatewayWarnings.get(currentScenario) ?? [];
        list.push(parsed.message ?? line);
        gatewayWarnings.set(currentScenario, list);
      } catch {
        // not one of the gateway's lines
      }
    }
    return write(chunk, ...rest);
  });
}

// ---------------------------------------------------------------------------------------------
// Servers under test
// ---------------------------------------------------------------------------------------------

interface Remote {
  /** 'service' or 'git' (the floor). */
  kind: 'service' | 'git';
  /** A new, empty repository; answers its URL (with credentials for the service). */
  createRepository(name: string): Promise<string>;
  /** Repacks the repository made by {@link createRepository} under `name` into one pack (service only). */
  housekeeping?(name: string): Promise<void>;
}

async function serviceRemote(base: string): Promise<Remote> {
  const call = async (method: string, path: string, body?: unknown) => {
    const response = await fetch(`${base}/api/v4${path}`, {
      method,
      headers: { 'PRIVATE-TOKEN': LOCAL_ROOT_TOKEN, ...(body ? { 'Content-Type': 'application/json' } : {}) },
      body: body ? JSON.stringify(body) : undefined,
      signal: AbortSignal.timeout(GIT_TIMEOUT_MS),
    });
    const text = await response.text();
    return { status: response.status, text };
  };
  const projects = new Map<string, number>();
  const me = await call('GET', '/user');
  if (me.status !== 200 || !(JSON.parse(me.text) as { is_admin?: boolean }).is_admin) {
    throw new Error(`the root token does not work: GET /user answered ${me.status} ${me.text.slice(0, 300)}`);
  }
  return {
    kind: 'service',
    async createRepository(name) {
      const created = await call('POST', '/projects', { name, path: name, visibility: 'private' });
      if (created.status !== 201) throw new Error(`POST /projects answered ${created.status} ${created.text.slice(0, 300)}`);
      const project = JSON.parse(created.text) as { id: number; path_with_namespace: string };
      projects.set(name, project.id);
      const fullPath = project.path_with_namespace;
      const url = new URL(`${base}/${fullPath}.git`);
      url.username = 'oauth2';
      url.password = LOCAL_ROOT_TOKEN;
      return url.toString();
    },
    async housekeeping(name) {
      const done = await call('POST', `/projects/${projects.get(name)}/housekeeping`);
      if (done.status !== 201 && done.status !== 200) throw new Error(`POST /projects/:id/housekeeping answered ${done.status} ${done.text.slice(0, 300)}`);
    },
  };
}

function floorRemote(floor: Floor, projectRoot: string): Remote {
  return {
    kind: 'git',
    async createRepository(name) {
      const path = join(projectRoot, `${name}.git`);
      await gitOk(['init', '-q', '--bare', path]);
      await gitOk(['config', 'http.receivepack', 'true'], { cwd: path });
      return `${floor.url}/${name}.git`;
    },
  };
}

// ---------------------------------------------------------------------------------------------
// Scenarios
// ---------------------------------------------------------------------------------------------

interface Series {
  runsMs: number[];
  medianMs: number | null;
  minMs: number | null;
  /** The first failure (git's stderr), if any run failed; the remaining runs are skipped. */
  error?: string;
  /** Peak memory over the runs (service, push and clone only). */
  memory?: MemoryPeak;
  /** Size of the pack received by a bare clone (clone only). */
  receivedPackBytes?: number;
}

interface Result {
  key: string;
  scenario: string;
  service: Series;
  git: Series;
  /** service median / git median. */
  ratio: number | null;
  target: string;
  /** null when there is no target or a side failed. */
  met: boolean | null;
  gatewayWarnings?: string[];
}

const median = (values: number[]) => {
  if (!values.length) return null;
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
};

function series(): Series {
  return { runsMs: [], medianMs: null, minMs: null };
}

function finish(s: Series): Series {
  return { ...s, runsMs: s.runsMs.map((v) => round(v)), medianMs: s.runsMs.length ? round(median(s.runsMs)!) : null, minMs: s.runsMs.length ? round(Math.min(...s.runsMs)) : null };
}

const describeError = (error: unknown) => (error instanceof Error ? error.message : String(error));

/**
 * Runs `run(remote, i)` RUNS times on both remotes, alternating (service first). A failure stops
 * that side's runs and is recorded; `memory` samples the service's runs.
 */
async function measure(
  key: string,
  remotes: { service: Remote; git: Remote },
  run: (remote: Remote, i: number) => Promise<number>,
  options: { memory?: MemorySampler } = {},
): Promise<{ service: Series; git: Series }> {
  currentScenario = key;
  const sides = { service: series(), git: series() };
  for (let i = 0; i < RUNS; i++) {
    for (const kind of ['service', 'git'] as const) {
      const side = sides[kind];
      if (side.error) continue;
      const stopSampling = kind === 'service' ? options.memory?.start() : undefined;
      const stopProfile = kind === 'service' && PROFILE_DIR ? await startProfile() : undefined;
      try {
        const ms = await run(remotes[kind], i);
        side.runsMs.push(ms);
        progress(`  ${key} ${kind === 'service' ? 'service' : 'git http-backend'} run ${i + 1}/${RUNS}: ${Math.round(ms)} ms`);
      } catch (error) {
        unlessStopping(error);
        side.error = describeError(error);
        progress(`  ${key} ${kind === 'service' ? 'service' : 'git http-backend'} run ${i + 1}/${RUNS} FAILED:\n${indent(side.error)}`);
      } finally {
        await stopProfile?.(join(PROFILE_DIR!, `${key}-service-${i + 1}.cpuprofile`));
        const peak = stopSampling?.();
        if (peak) {
          side.memory = side.memory
            ? { rssBytes: Math.max(side.memory.rssBytes, peak.rssBytes), heapBytes: Math.max(side.memory.heapBytes, peak.heapBytes), samples: side.memory.samples + peak.samples }
            : peak;
        }
      }
    }
  }
  return { service: finish(sides.service), git: finish(sides.git) };
}

const indent = (text: string) => text.replace(/^/gm, '    ');

/** Profiles this process (the handlers) until the returned function writes the profile. */
async function startProfile(): Promise<(file: string) => Promise<void>> {
  const session = new Session();
  session.connect();
  await session.post('Profiler.enable');
  await session.post('Profiler.start');
  return async (file) => {
    try {
      const { profile } = await session.post('Profiler.stop');
      await writeFile(file, JSON.stringify(profile));
      progress(`  wrote ${file}`);
    } finally {
      session.disconnect();
    }
  };
}

/** A bare clone of `url` in `dir` (untimed setup). */
async function bareClone(url: string, dir: string): Promise<void> {
  await gitOk(['clone', '-q', '--bare', url, dir]);
}

/**
 * Adds one commit on main in a bare work repository with fast-import (no checkout needed): one
 * line appended to a file of the generated tree. Answers the new commit's id.
 */
async function addCommit(work: string, n: number): Promise<string> {
  const path = `m${n % TOP_DIRS}/p${n % SUB_DIRS}/f0.txt`;
  const current = (await gitOk(['cat-file', 'blob', `refs/heads/main:${path}`], { cwd: work })).stdout;
  const content = `${current}incremental change ${n}\n`;
  const message = `Incremental change ${n}\n`;
  const when = `${BASE_TIME + 100_000_000 + n * 60} +0000`;
  const stream =
    `commit refs/heads/main\nauthor Bench Author <author@example.com> ${when}\ncommitter Bench Committer <committer@example.com> ${when}\n` +
    `data ${Buffer.byteLength(message)}\n${message}\nfrom refs/heads/main^0\n` +
    `M 100644 inline ${path}\ndata ${Buffer.byteLength(content)}\n${content}\ndone\n`;
  await gitOk(['fast-import', '--quiet', '--done'], { cwd: work, input: stream });
  return (await gitOk(['rev-parse', 'refs/heads/main'], { cwd: work })).stdout.trim();
}

interface IncrementalSetup {
  /** Bare clone that makes and pushes the new commits. */
  work: string;
  /** Bare clone that fetches them. */
  fetcher: string;
  url: string;
}

/**
 * One-commit push then one-commit fetch, per run: the commit is made untimed, `git push` of it is
 * timed, then `git fetch` in the other clone is timed (and checked to have received it).
 */
async function incremental(
  label: string,
  keyPrefix: string,
  remotes: { service: Remote; git: Remote },
  setups: { service: IncrementalSetup | Error; git: IncrementalSetup | Error },
  counter: { n: number },
): Promise<{ push: { service: Series; git: Series }; fetch: { service: Series; git: Series } }> {
  // Both measured in one pass so each fetch gets exactly the commit pushed just before it.
  const pushes = { service: series(), git: series() };
  const fetches = { service: series(), git: series() };
  for (const kind of ['service', 'git'] as const) {
    const setup = setups[kind];
    if (setup instanceof Error) {
      pushes[kind].error = `setup failed: ${setup.message}`;
      fetches[kind].error = pushes[kind].error;
    }
  }
  for (let i = 0; i < RUNS; i++) {
    for (const kind of ['service', 'git'] as const) {
      const setup = setups[kind];
      if (setup instanceof Error || pushes[kind].error) continue;
      const name = kind === 'service' ? 'service' : 'git http-backend';
      currentScenario = `push-1-${keyPrefix}`;
      let sha: string;
      try {
        sha = await addCommit(setup.work, counter.n++);
        const stopProfile = kind === 'service' && PROFILE_DIR ? await startProfile() : undefined;
        const pushed = await gitOk(['push', '-q', setup.url, 'refs/heads/main:refs/heads/main'], { cwd: setup.work });
        await stopProfile?.(join(PROFILE_DIR!, `push-1-${keyPrefix}-service-${i + 1}.cpuprofile`));
        pushes[kind].runsMs.push(pushed.ms);
        progress(`  push 1 commit (${label}) ${name} run ${i + 1}/${RUNS}: ${Math.round(pushed.ms)} ms`);
      } catch (error) {
        unlessStopping(error);
        pushes[kind].error = describeError(error);
        progress(`  push 1 commit (${label}) ${name} run ${i + 1}/${RUNS} FAILED:\n${indent(pushes[kind].error)}`);
        continue;
      }
      if (fetches[kind].error) continue;
      currentScenario = `fetch-1-${keyPrefix}`;
      try {
        const stopProfile = kind === 'service' && PROFILE_DIR ? await startProfile() : undefined;
        const fetched = await gitOk(['fetch', '-q', 'origin'], { cwd: setup.fetcher });
        await stopProfile?.(join(PROFILE_DIR!, `fetch-1-${keyPrefix}-service-${i + 1}.cpuprofile`));
        const got = (await gitOk(['rev-parse', 'refs/heads/main'], { cwd: setup.fetcher })).stdout.trim();
        if (got !== sha) throw new Error(`git fetch did not bring the pushed commit: main is ${got}, expected ${sha}`);
        fetches[kind].runsMs.push(fetched.ms);
        progress(`  fetch 1 commit (${label}) ${name} run ${i + 1}/${RUNS}: ${Math.round(fetched.ms)} ms`);
      } catch (error) {
        unlessStopping(error);
        fetches[kind].error = describeError(error);
        progress(`  fetch 1 commit (${label}) ${name} run ${i + 1}/${RUNS} FAILED:\n${indent(fetches[kind].error)}`);
      }
    }
  }
  return {
    push: { service: finish(pushes.service), git: finish(pushes.git) },
    fetch: { service: finish(fetches.service), git: finish(fetches.git) },
  };
}

/** A repository holding `source`'s history, plus a work clone and a fetcher clone (mirror). */
async function prepareIncremental(remote: Remote, name: string, source: string, scratch: string): Promise<IncrementalSetup> {
  const url = await remote.createRepository(name);
  await gitOk(['push', '-q', url, 'refs/heads/main:refs/heads/main'], { cwd: source });
  const work = join(scratch, `${name}-${remote.kind}-work.git`);
  const fetcher = join(scratch, `${name}-${remote.kind}-fetcher.git`);
  await bareClone(url, work);
  // A mirror fetches refs/heads/* into refs/heads/*: `git fetch origin` then updates main.
  await gitOk(['clone', '-q', '--mirror', url, fetcher]);
  return { url, work, fetcher };
}

// ---------------------------------------------------------------------------------------------
// The big-pack scenario (BENCH_GIT_BIG_MB)
// ---------------------------------------------------------------------------------------------

/** Bytes of the incompressible file each commit of the big repository adds. */
const BIG_BLOB_BYTES = 100_000;
/** The most a push of the big repository carries (estimated from its commits' files), under MAX_PUSH_BYTES. */
const BIG_STEP_BYTES = 3_500_000;

/** The fast-import stream of the big repository: each commit adds a random file and edits a small text file. */
function bigFastImportStream(commits: number, seed: number): Buffer {
  const random = generator(seed);
  const parts: Buffer[] = [];
  for (let i = 0; i < commits; i++) {
    const blob = Buffer.allocUnsafe(BIG_BLOB_BYTES);
    for (let at = 0; at < blob.length; at += 4) blob.writeUInt32LE((random() * 4294967296) >>> 0, at);
    const note = `note ${i}: ${WORDS[i % WORDS.length]}\n`.repeat(1 + (i % 7));
    const when = `${BASE_TIME + i * 60} +0000`;
    const message = `Big commit ${i}\n`;
    parts.push(
      Buffer.from(
        `commit refs/heads/main\nmark :${i + 1}\nauthor Bench Author <author@example.com> ${when}\ncommitter Bench Committer <committer@example.com> ${when}\n` +
          `data ${Buffer.byteLength(message)}\n${message}\n${i > 0 ? `from :${i}\n` : ''}` +
          `M 100644 inline big/b${Math.floor(i / 100)}/f${i}.bin\ndata ${blob.length}\n`,
      ),
      blob,
      Buffer.from(`\nM 100644 inline notes/n${i % 50}.txt\ndata ${Buffer.byteLength(note)}\n${note}\n`),
    );
  }
  parts.push(Buffer.from('done\n'));
  return Buffer.concat(parts);
}

interface BigResult {
  repository: { commits: number; objects: number; packBytes: number };
  pushes: number;
  pushMs: number;
  housekeepingMs: number;
  /** Pack bytes a clone received from each. */
  received: { service?: number; git?: number };
  cloneMs: { service: number; git: number };
  memory: { housekeeping: MemoryPeak & { absoluteRssBytes: number }; clone: MemoryPeak & { absoluteRssBytes: number } };
}

/**
 * Generates the big repository, pushes it to the service in steps (oldest first, each under the
 * push limit), repacks it by housekeeping, and clones it from both servers (the floor serves a
 * bare copy of the generated repository).
 */
async function bigScenario(remotes: { service: Remote; git: Remote }, dirs: { repos: string; floor: string; scratch: string }, memory: MemorySampler): Promise<BigResult> {
  const commits = Math.max(2, Math.round((BIG_MB * 1e6) / BIG_BLOB_BYTES));
  progress(`big-pack scenario: generating a ${commits}-commit repository of ~${BIG_MB} MB`);
  const path = join(dirs.repos, 'big.git');
  await gitOk(['init', '-q', '--bare', path]);
  await gitOk(['fast-import', '--quiet', '--done'], { cwd: path, input: bigFastImportStream(commits, 3) });
  await gitOk(['repack', '-a', '-d', '-q', '--threads=1'], { cwd: path });
  const counted = await countObjects(path);
  const head = (await gitOk(['rev-parse', 'refs/heads/main'], { cwd: path })).stdout.trim();
  progress(`  ${counted.objects} objects, pack ${mb(counted.packBytes)}`);

  const name = 'big';
  const url = await remotes.service.createRepository(name);
  const order = (await gitOk(['rev-list', '--reverse', 'refs/heads/main'], { cwd: path })).stdout.trim().split('\n');
  const perStep = Math.max(1, Math.floor(BIG_STEP_BYTES / BIG_BLOB_BYTES));
  let pushes = 0;
  const pushStarted = performance.now();
  currentScenario = 'big-push';
  for (let end = perStep; ; end += perStep) {
    const commit = end >= order.length ? order[order.length - 1] : order[end - 1];
    await gitOk(['push', '-q', url, `${commit}:refs/heads/main`], { cwd: path });
    pushes++;
    if (end >= order.length) break;
  }
  const pushMs = round(performance.now() - pushStarted);
  progress(`  pushed to the service in ${pushes} pushes, ${Math.round(pushMs)} ms`);

  currentScenario = 'big-housekeeping';
  let stop = memory.start();
  const housekeepingStarted = performance.now();
  await remotes.service.housekeeping!(name);
  const housekeepingMs = round(performance.now() - housekeepingStarted);
  const housekeepingPeak = { ...stop(), absoluteRssBytes: memory.lastAbsoluteRss };
  progress(`  housekeeping (repack into one pack): ${Math.round(housekeepingMs)} ms, peak rss +${mb(housekeepingPeak.rssBytes)}`);

  const floorPath = join(dirs.floor, 'big.git');
  await gitOk(['clone', '-q', '--bare', path, floorPath]);
  await gitOk(['config', 'http.receivepack', 'true'], { cwd: floorPath });
  const floorUrl = (await remotes.git.createRepository('big-unused')).replace(/big-unused\.git$/, 'big.git');

  const received: BigResult['received'] = {};
  const cloneMs = { service: 0, git: 0 };
  let clonePeak: MemoryPeak & { absoluteRssBytes: number } = { rssBytes: 0, heapBytes: 0, samples: 0, absoluteRssBytes: 0 };
  for (const kind of ['service', 'git'] as const) {
    currentScenario = `big-clone-${kind}`;
    const dir = join(dirs.scratch, `big-clone-${kind}.git`);
    stop = kind === 'service' ? memory.start() : () => ({ rssBytes: 0, heapBytes: 0, samples: 0 });
    const stopProfile = kind === 'service' && PROFILE_DIR ? await startProfile() : undefined;
    const cloned = await gitOk(['clone', '-q', '--bare', kind === 'service' ? url : floorUrl, dir]);
    await stopProfile?.(join(PROFILE_DIR!, 'big-clone-service-1.cpuprofile'));
    if (kind === 'service') clonePeak = { ...stop(), absoluteRssBytes: memory.lastAbsoluteRss };
    cloneMs[kind] = round(cloned.ms);
    const got = (await gitOk(['rev-parse', 'refs/heads/main'], { cwd: dir })).stdout.trim();
    if (got !== head) throw new Error(`the big clone's main is ${got}, expected ${head}`);
    received[kind] = (await countObjects(dir)).packBytes;
    await rm(dir, { recursive: true, force: true });
    progress(`  clone from ${kind === 'service' ? 'the service' : 'git http-backend'}: ${Math.round(cloned.ms)} ms`);
  }
  return {
    repository: { commits, objects: counted.objects, packBytes: counted.packBytes },
    pushes,
    pushMs,
    housekeepingMs,
    received,
    cloneMs,
    memory: { housekeeping: housekeepingPeak, clone: clonePeak },
  };
}

// ---------------------------------------------------------------------------------------------
// Output
// ---------------------------------------------------------------------------------------------

function ratioOf(service: Series, floor: Series): number | null {
  if (service.error || floor.error || service.medianMs === null || floor.medianMs === null || floor.medianMs === 0) return null;
  return round(service.medianMs / floor.medianMs, 2);
}

const cell = (s: Series, field: 'medianMs' | 'minMs') => (s.error ? 'FAILED' : s[field] === null ? '-' : s[field].toFixed(0));

function table(results: Result[]): string {
  const header = ['scenario', 'service median ms', 'min', 'git http-backend median ms', 'min', 'ratio', 'target', 'met'];
  const rows = results.map((r) => [
    r.scenario,
    cell(r.service, 'medianMs'),
    cell(r.service, 'minMs'),
    cell(r.git, 'medianMs'),
    cell(r.git, 'minMs'),
    r.ratio === null ? '-' : `${r.ratio.toFixed(2)}x`,
    r.target,
    r.met === null ? '-' : r.met ? 'yes' : 'NO',
  ]);
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((row) => row[i].length)));
  const left = new Set([0, 6]);
  const line = (cells: string[]) => cells.map((c, i) => (left.has(i) ? c.padEnd(widths[i]) : c.padStart(widths[i]))).join('  ').trimEnd();
  return [line(header), widths.map((w) => '-'.repeat(w)).join('  '), ...rows.map(line)].join('\n');
}

// ---------------------------------------------------------------------------------------------
// Main
// ---------------------------------------------------------------------------------------------

const TEMP_PREFIX = 'project-hosting-git-bench-';
const OWNER_FILE = 'owner.pid';

/**
 * Removes the temporary directories of earlier runs that were killed before they could clean up
 * (those whose owning process is gone). `npx tsx` kills its child with SIGKILL when a Ctrl-C is not
 * acknowledged within 60 ms, which happens while a handler keeps this process busy; running as
 * `node --import tsx` (what the npm scripts do) avoids that.
 */
async function removeOrphans(): Promise<void> {
  for (const name of await readdir(tmpdir())) {
    if (!name.startsWith(TEMP_PREFIX)) continue;
    const dir = join(tmpdir(), name);
    let pid: number;
    try {
      pid = Number(await readFile(join(dir, OWNER_FILE), 'utf8'));
    } catch {
      continue; // not ours to judge (or still being created)
    }
    if (!Number.isInteger(pid) || pid <= 0 || isAlive(pid)) continue;
    progress(`removing ${dir}, left by an interrupted run (process ${pid})`);
    await rm(dir, { recursive: true, force: true });
  }
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

async function main(): Promise<number> {
  const cleanups: Array<() => Promise<unknown>> = [];
  const cleanup = async () => {
    for (const child of children) child.kill('SIGKILL');
    for (const step of cleanups.splice(0).reverse()) {
      try {
        await step();
      } catch (error) {
        progress(`cleanup: ${describeError(error)}`);
      }
    }
  };
  const onSignal = (signal: NodeJS.Signals) => {
    if (stopping) process.exit(130);
    stopping = true;
    progress(`${signal}: stopping`);
    void cleanup().finally(() => process.exit(130));
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);

  try {
    await removeOrphans();
    const root = await mkdtemp(join(tmpdir(), TEMP_PREFIX));
    cleanups.push(() => rm(root, { recursive: true, force: true }));
    await writeFile(join(root, OWNER_FILE), String(process.pid));
    const dirs = { data: join(root, 'data'), repos: join(root, 'repos'), floor: join(root, 'floor'), scratch: join(root, 'scratch') };
    for (const dir of Object.values(dirs)) await mkdir(dir, { recursive: true });
    const version = (await gitOk(['--version'])).stdout.trim();
    progress(`${version}; temporary files in ${root}`);

    // 1. The test repositories.
    progress(`generating a ${COMMITS}-commit repository with git fast-import`);
    const large = await generateRepository(join(dirs.repos, 'large.git'), COMMITS, 1);
    progress(`  ${large.objects} objects, pack ${mb(large.packBytes)} (${large.packs} pack), in ${large.seconds} s`);
    if (large.packBytes + PUSH_OVERHEAD_BYTES > MAX_PACK_BYTES) {
      throw new Error(
        `the generated pack is ${mb(large.packBytes)}, above BENCH_GIT_MAX_PACK_MB=${MAX_PACK_BYTES / 1e6}: ` +
          'pushed in one request it would exceed the 6 MB Lambda payload limit on AWS (base64), and the service refuses it. ' +
          'Use fewer BENCH_GIT_COMMITS, or raise BENCH_GIT_MAX_PACK_MB to benchmark it locally anyway.',
      );
    }
    // A raised limit applies to the service in this process too (it reads MAX_PUSH_BYTES when it starts).
    if (MAX_PACK_BYTES > SERVICE_MAX_PUSH_BYTES && !process.env.MAX_PUSH_BYTES) process.env.MAX_PUSH_BYTES = String(MAX_PACK_BYTES);
    progress(`generating a ${SMALL_COMMITS}-commit repository`);
    const small = await generateRepository(join(dirs.repos, 'small.git'), SMALL_COMMITS, 2);
    progress(`  ${small.objects} objects, pack ${mb(small.packBytes)}, in ${small.seconds} s`);

    // 2. The servers.
    progress(`starting the local runtime (data in ${dirs.data})`);
    const { startLocalRuntime } = await import('../../infra/local/runtime');
    watchGatewayWarnings();
    const runtime = await startLocalRuntime({ port: 0, dataDir: dirs.data, rootToken: LOCAL_ROOT_TOKEN, quiet: true });
    cleanups.push(() => runtime.stop());
    if (new URL(runtime.url).hostname !== '127.0.0.1') throw new Error(`the local runtime is not on loopback: ${runtime.url}`);
    const floor = await startHttpBackend(dirs.floor);
    cleanups.push(() => floor.close());
    progress(`local runtime at ${runtime.url}, git http-backend at ${floor.url}`);
    const memory = new MemorySampler();
    cleanups.push(() => memory.stop());

    const remotes = { service: await serviceRemote(runtime.url), git: floorRemote(floor, dirs.floor) };
    currentScenario = 'setup-warm-up';
    for (const remote of Object.values(remotes)) await gitOk(['ls-remote', await remote.createRepository('warm-up')]);
    const results: Result[] = [];
    const add = (key: string, scenario: string, measured: { service: Series; git: Series }, target: string, met: (r: Result) => boolean | null) => {
      const result: Result = { key, scenario, ...measured, ratio: ratioOf(measured.service, measured.git), target, met: null };
      result.met = result.service.error || result.git.error ? null : met(result);
      results.push(result);
    };

    // 3. Push of the whole history, each run into a new, empty repository.
    progress(`push of the whole history (${COMMITS} commits), ${RUNS} run(s) each`);
    const pushedUrl: Partial<Record<Remote['kind'], string>> = {};
    const fullPush = await measure(
      'push-full',
      remotes,
      async (remote, i) => {
        const url = await remote.createRepository(`full-${i + 1}`);
        const pushed = await gitOk(['push', '-q', url, 'refs/heads/main:refs/heads/main'], { cwd: large.path });
        pushedUrl[remote.kind] = url;
        return pushed.ms;
      },
      { memory },
    );
    add('push-full', `push, full history (${COMMITS} commits)`, fullPush, `<= ${MAX_RATIO}x git`, (r) => r.ratio !== null && r.ratio <= MAX_RATIO);

    // 4. Full clone (bare: no checkout, which would cost both the same) of what was pushed.
    progress(`full clone (bare), ${RUNS} run(s) each`);
    const received: Partial<Record<Remote['kind'], number>> = {};
    const clone = await measure(
      'clone-full',
      remotes,
      async (remote, i) => {
        const url = pushedUrl[remote.kind];
        if (!url) throw new Error('nothing to clone: the full push failed');
        const dir = join(dirs.scratch, `clone-${remote.kind}-${i + 1}.git`);
        const cloned = await gitOk(['clone', '-q', '--bare', url, dir]);
        const head = (await gitOk(['rev-parse', 'refs/heads/main'], { cwd: dir })).stdout.trim();
        if (head !== large.headCommit) throw new Error(`the clone's main is ${head}, expected ${large.headCommit}`);
        received[remote.kind] = (await countObjects(dir)).packBytes;
        await rm(dir, { recursive: true, force: true });
        return cloned.ms;
      },
      { memory },
    );
    clone.service.receivedPackBytes = received.service;
    clone.git.receivedPackBytes = received.git;
    add('clone-full', 'clone, full (bare)', clone, `<= ${MAX_RATIO}x git`, (r) => r.ratio !== null && r.ratio <= MAX_RATIO);

    // 5. ls-remote (one unmeasured call first, on each side).
    progress(`ls-remote, ${RUNS} run(s) each`);
    const lsRemote = await measure('ls-remote', remotes, async (remote) => {
      const url = pushedUrl[remote.kind];
      if (!url) throw new Error('no repository: the full push failed');
      const listed = await gitOk(['ls-remote', url]);
      if (!listed.stdout.includes(`\trefs/heads/main`)) throw new Error(`ls-remote did not list refs/heads/main:\n${listed.stdout}`);
      return listed.ms;
    });
    add('ls-remote', 'ls-remote', lsRemote, '-', () => null);

    // 6. One-commit push and fetch, on the long history and on the 10x shorter one.
    const counter = { n: 1 };
    const prepare = async (name: string, source: string) => {
      const setups: { service: IncrementalSetup | Error; git: IncrementalSetup | Error } = { service: new Error('not prepared'), git: new Error('not prepared') };
      for (const kind of ['service', 'git'] as const) {
        currentScenario = `setup-${name}`;
        try {
          setups[kind] = await prepareIncremental(remotes[kind], name, source, dirs.scratch);
        } catch (error) {
          unlessStopping(error);
          setups[kind] = error instanceof Error ? error : new Error(String(error));
          progress(`  setup of ${name} on ${kind} FAILED:\n${indent(describeError(error))}`);
        }
      }
      return setups;
    };
    progress(`one-commit push and fetch on the ${COMMITS}-commit history, ${RUNS} run(s) each`);
    const longSetups = await prepare('incremental-long', large.path);
    const long = await incremental(`${COMMITS} commits`, 'long', remotes, longSetups, counter);
    progress(`one-commit push and fetch on the ${SMALL_COMMITS}-commit history, ${RUNS} run(s) each`);
    const shortSetups = await prepare('incremental-short', small.path);
    const short = await incremental(`${SMALL_COMMITS} commits`, 'short', remotes, shortSetups, counter);

    const independent = (longSeries: Series, shortSeries: Series) =>
      longSeries.medianMs !== null && shortSeries.medianMs !== null && !shortSeries.error
        ? longSeries.medianMs <= shortSeries.medianMs * HISTORY_FACTOR + HISTORY_SLACK_MS
        : false;
    const oneCommitTarget = `< ${ONE_COMMIT_MS} ms, ~ at ${SMALL_COMMITS} commits`;
    add('push-1-long', `push 1 commit (${COMMITS}-commit history)`, long.push, oneCommitTarget, (r) =>
      r.service.medianMs! < ONE_COMMIT_MS && independent(r.service, short.push.service),
    );
    add('fetch-1-long', `fetch 1 commit (${COMMITS}-commit history)`, long.fetch, oneCommitTarget, (r) =>
      r.service.medianMs! < ONE_COMMIT_MS && independent(r.service, short.fetch.service),
    );
    add('push-1-short', `push 1 commit (${SMALL_COMMITS}-commit history)`, short.push, `< ${ONE_COMMIT_MS} ms`, (r) => r.service.medianMs! < ONE_COMMIT_MS);
    add('fetch-1-short', `fetch 1 commit (${SMALL_COMMITS}-commit history)`, short.fetch, `< ${ONE_COMMIT_MS} ms`, (r) => r.service.medianMs! < ONE_COMMIT_MS);

    // 7. Optional: a big repository pushed in steps, repacked, cloned.
    let big: BigResult | undefined;
    let bigError: string | undefined;
    if (BIG_MB > 0) {
      try {
        big = await bigScenario(remotes, dirs, memory);
      } catch (error) {
        unlessStopping(error);
        bigError = describeError(error);
        progress(`big-pack scenario FAILED:\n${indent(bigError)}`);
      }
    }

    for (const result of results) {
      const warnings = gatewayWarnings.get(result.key);
      if (warnings?.length) result.gatewayWarnings = warnings;
    }
    const setupWarnings = [...gatewayWarnings.entries()].filter(([key]) => key === 'setup' || key.startsWith('setup-')).flatMap(([, list]) => list);

    await cleanup();

    // Output.
    const out = (text = '') => process.stdout.write(`${text}\n`);
    out();
    out(`git over smart HTTP: the service (local runtime) vs git http-backend (CGI), ${RUNS} run(s) per scenario and server, ${version}`);
    out(`repository: ${large.commits} commits, ${large.objects} objects, pack ${mb(large.packBytes)}; short one: ${small.commits} commits, ${small.objects} objects, pack ${mb(small.packBytes)}`);
    out();
    out(table(results));
    out();
    const push = results.find((r) => r.key === 'push-full')!;
    const cloned = results.find((r) => r.key === 'clone-full')!;
    const memoryLine = (label: string, s: Series) =>
      s.memory
        ? `${label}: peak above start rss +${mb(s.memory.rssBytes)}, heapUsed+arrayBuffers +${mb(s.memory.heapBytes)} (pack ${mb(large.packBytes)}, ${s.memory.samples} samples)`
        : `${label}: not measured`;
    out('memory of this process (handlers, gateway emulator and s3rver) during the service runs:');
    out(`  ${memoryLine('push, full history', push.service)}`);
    out(`  ${memoryLine('clone, full      ', cloned.service)}`);
    if (cloned.service.receivedPackBytes !== undefined || cloned.git.receivedPackBytes !== undefined) {
      const size = (bytes: number | undefined) => (bytes === undefined ? '-' : mb(bytes));
      out(`pack received by a clone: service ${size(cloned.service.receivedPackBytes)}, git http-backend ${size(cloned.git.receivedPackBytes)}`);
    }
    if (big) {
      const ratio = big.cloneMs.git > 0 ? (big.cloneMs.service / big.cloneMs.git).toFixed(2) : '-';
      out(`big pack (BENCH_GIT_BIG_MB=${BIG_MB}): ${big.repository.commits} commits, ${big.repository.objects} objects, pack ${mb(big.repository.packBytes)}`);
      out(`  pushed to the service in ${big.pushes} pushes: ${Math.round(big.pushMs)} ms; housekeeping (repack into one pack): ${Math.round(big.housekeepingMs)} ms`);
      out(`  clone, full (bare): service ${Math.round(big.cloneMs.service)} ms, git http-backend ${Math.round(big.cloneMs.git)} ms (${ratio}x); pack received: service ${mb(big.received.service ?? 0)}, git http-backend ${mb(big.received.git ?? 0)}`);
      const peak = (label: string, m: BigResult['memory']['clone']) =>
        `  memory during ${label}: peak rss +${mb(m.rssBytes)} above start (${mb(m.absoluteRssBytes)} absolute), heapUsed+arrayBuffers +${mb(m.heapBytes)}`;
      out(peak('the housekeeping', big.memory.housekeeping));
      out(peak('the clone      ', big.memory.clone));
    } else if (bigError) {
      out(`big pack (BENCH_GIT_BIG_MB=${BIG_MB}): FAILED (see stderr)`);
    }
    const warned = results.filter((r) => r.gatewayWarnings?.length);
    if (warned.length || setupWarnings.length) {
      out('local gateway warnings (requests that would fail or failed on AWS; details on stderr):');
      for (const r of warned) out(`  ${r.scenario}: ${summarize(r.gatewayWarnings!)}`);
      if (setupWarnings.length) out(`  setup: ${summarize(setupWarnings)}`);
    }
    const failures = results.flatMap((r) =>
      (['service', 'git'] as const).filter((kind) => r[kind].error).map((kind) => `${r.scenario} (${kind === 'service' ? 'service' : 'git http-backend'}):\n${indent(r[kind].error!)}`),
    );
    if (failures.length) {
      out('failures:');
      for (const failure of failures) out(`  ${failure}`);
    }
    out();
    out(
      JSON.stringify({
        bench: 'git',
        time: new Date().toISOString(),
        git: version,
        runs: RUNS,
        repository: { commits: large.commits, objects: large.objects, packBytes: large.packBytes },
        shortRepository: { commits: small.commits, objects: small.objects, packBytes: small.packBytes },
        targets: { maxRatio: MAX_RATIO, oneCommitMs: ONE_COMMIT_MS, historyFactor: HISTORY_FACTOR, historySlackMs: HISTORY_SLACK_MS },
        results,
        ...(BIG_MB > 0 ? { big: big ?? { error: bigError } } : {}),
        setupWarnings,
        failed: failures.length > 0 || bigError !== undefined,
      }),
    );
    return failures.length || bigError ? 1 : 0;
  } finally {
    await cleanup();
  }
}

/** "message ×n, other ×m". */
function summarize(messages: string[]): string {
  const counts = new Map<string, number>();
  for (const message of messages) counts.set(message, (counts.get(message) ?? 0) + 1);
  return [...counts].map(([message, n]) => (n > 1 ? `${message} (x${n})` : message)).join('; ');
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    // Interrupted: the signal handler cleans up and exits with 130.
    if (stopping) return;
    progress(`git bench failed: ${error instanceof Error ? (error instanceof GitFailure ? error.message : (error.stack ?? error.message)) : String(error)}`);
    process.exit(1);
  },
);
