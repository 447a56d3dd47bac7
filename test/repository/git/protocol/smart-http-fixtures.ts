/**
 * Smart HTTP around real git for the protocol tests: a local HTTP server that either proxies to
 * `git http-backend` (recording every exchange: real client requests, real server answers) or
 * answers with a backend written in the test; `git upload-pack --stateless-rpc` as an oracle;
 * listing the objects of a pack.
 */
import { execFile, spawn } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { PktLineReader } from '../../../../shared/repository/git/protocol/pkt-line';
import { git, gitEnv, gitText, initRepo } from '../git-fixtures';

/** One HTTP exchange with the git client. */
export interface Exchange {
  method: string;
  path: string;
  query: string;
  /** The Git-Protocol header. */
  gitProtocol?: string;
  /** The request body, un-gzipped. */
  body: Buffer;
  status: number;
  contentType?: string;
  response: Buffer;
}

/** Answers one request (the body already un-gzipped). */
export type Backend = (request: Omit<Exchange, 'status' | 'contentType' | 'response'>) => Promise<{ status: number; contentType?: string; body: Buffer }>;

export interface TestServer {
  url: string;
  exchanges: Exchange[];
  close(): Promise<void>;
}

async function readBody(request: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  const raw = Buffer.concat(chunks);
  return request.headers['content-encoding'] === 'gzip' ? gunzipSync(raw) : raw;
}

/** An HTTP server on a free local port, recording every exchange. */
export async function startServer(backend: Backend): Promise<TestServer> {
  const exchanges: Exchange[] = [];
  const server: Server = createServer((request, response) => {
    void (async () => {
      const url = new URL(request.url ?? '/', 'http://localhost');
      const gitProtocol = request.headers['git-protocol'] as string | undefined;
      const asked = { method: request.method ?? 'GET', path: url.pathname, query: url.search.slice(1), gitProtocol, body: await readBody(request) };
      try {
        const answer = await backend(asked);
        exchanges.push({ ...asked, status: answer.status, contentType: answer.contentType, response: answer.body });
        response.writeHead(answer.status, { 'Content-Type': answer.contentType ?? 'text/plain', 'Cache-Control': 'no-cache' });
        response.end(answer.body);
      } catch (error) {
        response.writeHead(500, { 'Content-Type': 'text/plain' });
        response.end(String(error));
      }
    })();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}`, exchanges, close: () => new Promise((resolve) => server.close(() => resolve())) };
}

/** Runs a command with `input` on stdin; resolves with stdout (rejects with stderr on failure, unless `failing`). */
function run(command: string, args: string[], options: { cwd?: string; env: NodeJS.ProcessEnv; input?: Buffer; failing?: boolean }): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd: options.cwd, env: options.env });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    child.stdout.on('data', (chunk: Buffer) => out.push(chunk));
    child.stderr.on('data', (chunk: Buffer) => err.push(chunk));
    child.on('error', reject);
    child.on('close', (code) => (code === 0 || options.failing ? resolve(Buffer.concat(out)) : reject(new Error(`${command} ${args.join(' ')}: ${Buffer.concat(err).toString()}`))));
    child.stdin.on('error', () => undefined);
    child.stdin.end(options.input ?? Buffer.alloc(0));
  });
}

/** A backend proxying to `git http-backend` over the repositories under `root`. */
export function httpBackend(root: string): Backend {
  return async ({ method, path, query, gitProtocol, body }) => {
    const env = {
      ...gitEnv,
      GIT_PROJECT_ROOT: root,
      GIT_HTTP_EXPORT_ALL: '1',
      REMOTE_USER: 'tester',
      REMOTE_ADDR: '127.0.0.1',
      REQUEST_METHOD: method,
      PATH_INFO: path,
      QUERY_STRING: query,
      CONTENT_TYPE: method === 'POST' ? `application/x-${path.split('/').pop()}-request` : '',
      CONTENT_LENGTH: String(body.length),
      ...(gitProtocol && { GIT_PROTOCOL: gitProtocol }),
    };
    const out = await run('git', ['http-backend'], { env, input: body });
    const split = out.indexOf('\r\n\r\n');
    const headers = out.toString('latin1', 0, split);
    const status = Number(/^Status: (\d+)/m.exec(headers)?.[1] ?? 200);
    return { status, contentType: /^Content-Type: (.*)$/m.exec(headers)?.[1], body: out.subarray(split + 4) };
  };
}

/** Runs git asynchronously (the test's HTTP server must keep serving meanwhile). */
export function gitAsync(cwd: string, args: string[], env: NodeJS.ProcessEnv = {}): Promise<{ stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    execFile('git', ['-c', 'init.defaultBranch=main', ...args], { cwd, env: { ...gitEnv, ...env }, maxBuffer: 1 << 26 }, (error, stdout, stderr) =>
      error ? reject(new Error(`${error.message}\n${stderr}`)) : resolve({ stdout, stderr }),
    );
  });
}

/**
 * Runs `git upload-pack --stateless-rpc` on a request body, as http-backend does for a POST;
 * without pack.useSparse, whose tree walk may add objects rev-list would not list.
 */
export function uploadPackOracle(repo: string, body: Buffer, gitProtocol?: string): Promise<Buffer> {
  const env = { ...gitEnv, ...(gitProtocol && { GIT_PROTOCOL: gitProtocol }) };
  return run('git', ['-c', 'pack.useSparse=false', 'upload-pack', '--stateless-rpc', repo], { env, input: body, failing: true });
}

/** An upload-pack response split into its pkt-lines before the pack, the pack, and the progress text. */
export interface SplitResponse {
  head: Buffer;
  pack?: Buffer;
  progress: string;
}

/** Splits a response at the pack: raw `PACK`, or the first side-band packet (bands 1–3). */
export function splitResponse(response: Buffer): SplitResponse {
  const reader = new PktLineReader(response);
  while (!reader.atEnd) {
    const start = reader.offset;
    if (response.toString('latin1', start, start + 4) === 'PACK') return { head: response.subarray(0, start), pack: response.subarray(start), progress: '' };
    const pkt = reader.read()!;
    if (pkt.kind === 'data' && pkt.data[0] >= 1 && pkt.data[0] <= 3) return { head: response.subarray(0, start), ...demux(response, start) };
  }
  return { head: response, progress: '' };
}

/** Band 1 (the pack) and band 2 (progress) of side-band packets up to the flush. */
function demux(response: Buffer, offset: number): { pack: Buffer; progress: string } {
  const reader = new PktLineReader(response, offset);
  const pack: Buffer[] = [];
  let progress = '';
  for (let pkt = reader.read(); pkt && pkt.kind === 'data'; pkt = reader.read()) {
    if (pkt.data[0] === 1) pack.push(pkt.data.subarray(1));
    else progress += pkt.data.toString('utf8', 1);
  }
  return { pack: Buffer.concat(pack), progress };
}

/** The number of objects a pack says it holds. */
export function packCount(pack: Buffer): number {
  return pack.readUInt32BE(8);
}

/** The ids of the objects in a (non-thin) pack, sorted, via git index-pack and show-index. */
export function packObjectIds(pack: Buffer): string[] {
  const scratch = initRepo(true);
  git(scratch, ['index-pack', '--stdin'], { input: pack });
  const index = readdirSync(join(scratch, 'objects', 'pack')).find((name) => name.endsWith('.idx'))!;
  const listing = gitText(scratch, ['show-index'], { input: readFileSync(join(scratch, 'objects', 'pack', index)) });
  return listing === '' ? [] : listing.split('\n').map((line) => line.split(' ')[1]).sort();
}
