import { readFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { advertiseRefs, lsRefs, parseCommandRequest, parseLsRefsArgs, requestedVersion, type Service } from '../../../../shared/repository/git/protocol/advertise';
import { FLUSH_PKT, PktLineReader, pktLineText } from '../../../../shared/repository/git/protocol/pkt-line';
import { deletesOnly, packHeaderError, parseReceivePackRequest, receivePackResponse, type ReceivePackRequest, type RefUpdateResult } from '../../../../shared/repository/git/protocol/receive-pack';
import { progressLine, sideband, sidebandMode } from '../../../../shared/repository/git/protocol/sideband';
import { answerFetch, answerUploadPack, parseFetchArgs, parseUploadPackRequest, type UploadPackAnswer } from '../../../../shared/repository/git/protocol/upload-pack';
import { commit, git, gitText, initRepo, linearHistory, readAllObjects, refsOf, tempDir } from '../git-fixtures';
import { gitAsync, httpBackend, packCount, splitResponse, startServer, type Backend, type Exchange, type TestServer } from './smart-http-fixtures';

const AGENT = 'test-server/1.0';

/** A bare server repository (main: 30 commits, a feature branch, an annotated tag) in `root`. */
function buildServer(root = tempDir()): string {
  const work = initRepo();
  linearHistory(work, 30, 1700000000);
  git(work, ['branch', 'feature', 'main~5']);
  git(work, ['tag', '-a', 'v1', '-m', 'v1', 'main~10']);
  const server = join(root, `server-${basename(work)}.git`);
  git(work, ['clone', '-q', '--bare', work, server]);
  return server;
}

/** What the server repository holds now. */
function snapshot(repo: string) {
  const objects = readAllObjects(repo);
  return { read: async (oid: string) => objects.get(oid), refs: refsOf(repo) };
}

/** The band-1 payload of a multiplexed body and whether it ends with a flush. */
function band1(body: Buffer): { data: Buffer; flushed: boolean } {
  const reader = new PktLineReader(body);
  const data: Buffer[] = [];
  let flushed = false;
  for (let pkt = reader.read(); pkt; pkt = reader.read()) {
    if (pkt.kind === 'data' && pkt.data[0] === 1) data.push(pkt.data.subarray(1));
    flushed = pkt.kind === 'flush';
  }
  return { data: Buffer.concat(data), flushed };
}

const isPost = (service: string) => (exchange: Exchange) => exchange.method === 'POST' && exchange.path.endsWith(service);

/** Our answer to a captured upload-pack request: v0/v1, or a v2 ls-refs/fetch command. */
async function answerCaptured(exchange: Exchange, server: string): Promise<{ head: Buffer; pack?: UploadPackAnswer['pack'] }> {
  const state = snapshot(server);
  if (requestedVersion(exchange.gitProtocol) < 2) return answerUploadPack(parseUploadPackRequest(exchange.body), state);
  const request = parseCommandRequest(exchange.body)!;
  if (request.command === 'ls-refs') return { head: lsRefs(parseLsRefsArgs(request.args), state.refs, 'refs/heads/main') };
  return answerFetch(parseFetchArgs(request.args), state);
}

describe('real clients against git http-backend: our parsers read their requests, our answers match git', () => {
  let root: string;
  let server: string;
  let proxy: TestServer;
  beforeAll(async () => {
    root = tempDir();
    proxy = await startServer(httpBackend(root));
  });
  beforeEach(() => {
    server = buildServer(root);
  });
  afterAll(() => proxy.close());

  const url = () => `${proxy.url}/${basename(server)}`;

  /** Runs a git command through the proxy; returns the upload-pack exchanges it made. */
  async function captured(cwd: string, args: string[]): Promise<Exchange[]> {
    const before = proxy.exchanges.length;
    await gitAsync(cwd, args);
    return proxy.exchanges.slice(before).filter(isPost('git-upload-pack'));
  }

  async function expectSameAnswers(exchanges: Exchange[]): Promise<void> {
    expect(exchanges.length).toBeGreaterThan(0);
    for (const exchange of exchanges) {
      const real = splitResponse(exchange.response);
      const ours = await answerCaptured(exchange, server);
      expect(ours.head.toString('latin1')).toBe(real.head.toString('latin1'));
      expect(ours.pack !== undefined).toBe(real.pack !== undefined);
      if (ours.pack && real.pack) expect(ours.pack.oids).toHaveLength(packCount(real.pack));
    }
  }

  it.each(['0', '2'])('clones, then fetches after local and remote work, over several rounds (protocol %s)', async (version) => {
    const client = join(tempDir(), 'client');
    const clone = await captured(tempDir(), ['-c', `protocol.version=${version}`, 'clone', '-q', url(), client]);
    await expectSameAnswers(clone);
    if (version === '0') expect(parseUploadPackRequest(clone[0].body)).toMatchObject({ haves: [], end: 'done' });

    linearHistory(client, 40, 1800000000, 'local', gitText(client, ['rev-parse', 'HEAD']));
    const work = join(tempDir(), 'work');
    git(server, ['clone', '-q', server, work]);
    commit(work, 'remote work', { 'remote.txt': 'new\n' }, 1700100000);
    git(work, ['push', '-q', 'origin', 'main']);

    const fetch = await captured(client, ['-c', `protocol.version=${version}`, 'fetch', '-q', 'origin']);
    await expectSameAnswers(fetch);
    expect(fetch.length).toBeGreaterThanOrEqual(3);
  });

  it.each(['0', '2'])('clones shallow, then deepens (protocol %s)', async (version) => {
    const client = join(tempDir(), 'client');
    const config = ['-c', `protocol.version=${version}`];
    const clone = await captured(tempDir(), [...config, 'clone', '-q', '--depth=2', '--no-single-branch', url(), client]);
    await expectSameAnswers(clone);
    if (version === '0') expect(parseUploadPackRequest(clone[0].body)).toMatchObject({ depth: 2, end: 'eof' });
    await expectSameAnswers(await captured(client, [...config, 'fetch', '-q', '--depth=5', 'origin']));
    await expectSameAnswers(await captured(client, [...config, 'fetch', '-q', '--shallow-since=1700000012', 'origin']));
    await expectSameAnswers(await captured(client, [...config, 'fetch', '-q', '--unshallow', 'origin']));
    expect(gitText(client, ['rev-parse', '--is-shallow-repository'])).toBe('false');
  });

  it('reads pushes and answers them as git receive-pack does', async () => {
    const client = join(tempDir(), 'client');
    git(server, ['clone', '-q', server, client]);
    git(client, ['remote', 'set-url', 'origin', url()]);
    git(server, ['config', 'receive.advertisePushOptions', 'true']);
    const pushes: Array<{ args: string[]; check: (request: ReceivePackRequest, body: Buffer) => void }> = [
      {
        args: ['push', '-q', '-o', 'ci.skip', '-o', 'merge_request.create', 'origin', 'HEAD:refs/heads/pushed', 'HEAD~2:refs/heads/older'],
        check: (request) => {
          expect(request.commands.map((command) => command.ref)).toEqual(['refs/heads/pushed', 'refs/heads/older']);
          expect(request.pushOptions).toEqual(['ci.skip', 'merge_request.create']);
          // git's receive-pack offers report-status-v2 too, which the client then prefers.
          expect(request.capabilities).toEqual(expect.arrayContaining(['report-status-v2', 'side-band-64k', 'push-options']));
        },
      },
      {
        args: ['push', '-q', 'origin', ':refs/heads/older'],
        check: (request, body) => {
          expect(deletesOnly(request)).toBe(true);
          expect(request.packOffset).toBe(body.length);
        },
      },
      {
        args: ['push', '-q', '--atomic', 'origin', 'HEAD:refs/heads/atomic'],
        check: (request, body) => {
          expect(request.capabilities).toContain('atomic');
          expect(packHeaderError(body, request.packOffset)).toBeUndefined();
        },
      },
    ];
    commit(client, 'to push', { 'pushed.txt': 'pushed\n' }, 1700200000);
    for (const { args, check } of pushes) {
      const before = proxy.exchanges.length;
      await gitAsync(client, args);
      const [exchange] = proxy.exchanges.slice(before).filter(isPost('git-receive-pack'));
      const request = parseReceivePackRequest(exchange.body);
      check(request, exchange.body);
      const results: RefUpdateResult[] = request.commands.map(({ ref }) => ({ ref }));
      const ours = band1(receivePackResponse(request, undefined, results));
      const real = band1(exchange.response);
      expect(ours.data.toString()).toBe(real.data.toString());
      expect(ours.flushed && real.flushed).toBe(true);
    }
  });
});

/** A smart HTTP backend built on the library, packing with git pack-objects and receiving with git index-pack. */
function libraryBackend(repo: string, seen: ReceivePackRequest[]): Backend {
  return async ({ method, path, query, gitProtocol, body }) => {
    const state = snapshot(repo);
    const head = gitText(repo, ['symbolic-ref', 'HEAD']);
    const version = requestedVersion(gitProtocol);
    if (method === 'GET') {
      const service = new URLSearchParams(query).get('service') as Service;
      return { status: 200, contentType: `application/x-${service}-advertisement`, body: advertiseRefs(service, { refs: state.refs, head, agent: AGENT, version }) };
    }
    if (path.endsWith('git-receive-pack')) return { status: 200, body: receive(repo, body, seen) };
    if (version < 2) {
      const request = parseUploadPackRequest(body);
      const answer = await answerUploadPack(request, state);
      return { status: 200, body: withPack(answer, request.capabilities, sidebandMode(request.capabilities)) };
    }
    const request = parseCommandRequest(body);
    if (!request) return { status: 200, body: Buffer.alloc(0) };
    if (request.command === 'ls-refs') return { status: 200, body: lsRefs(parseLsRefsArgs(request.args), state.refs, head) };
    const fetch = parseFetchArgs(request.args);
    return { status: 200, body: withPack(await answerFetch(fetch, state), fetch.features, 'side-band-64k') };
  };

  function withPack(answer: UploadPackAnswer, features: string[], mode: ReturnType<typeof sidebandMode>): Buffer {
    if (!answer.pack) return answer.head;
    const input = answer.pack.oids.join('\n') + '\n';
    const pack = git(repo, ['pack-objects', '--stdout', '-q', ...(features.includes('ofs-delta') ? ['--delta-base-offset'] : [])], { input });
    if (!mode) return Buffer.concat([answer.head, pack]);
    const count = answer.pack.oids.length;
    const progress = features.includes('no-progress') ? [] : [sideband(2, progressLine('Counting objects', count, count, true), mode)];
    return Buffer.concat([answer.head, ...progress, sideband(1, pack, mode), FLUSH_PKT]);
  }
}

/** Receives a push: index-pack, then one update-ref per command; `refs/heads/protected` is refused. */
function receive(repo: string, body: Buffer, seen: ReceivePackRequest[]): Buffer {
  const request = parseReceivePackRequest(body);
  seen.push(request);
  let unpackError: string | undefined;
  if (!deletesOnly(request)) {
    unpackError = packHeaderError(body, request.packOffset);
    if (!unpackError) git(repo, ['index-pack', '--stdin', '--fix-thin'], { input: body.subarray(request.packOffset) });
  }
  const results = request.commands.map(({ oldOid, newOid, ref }): RefUpdateResult => {
    if (ref === 'refs/heads/protected') return { ref, error: 'pre-receive hook declined' };
    git(repo, newOid === '0'.repeat(40) ? ['update-ref', '-d', ref, oldOid] : ['update-ref', ref, newOid, oldOid]);
    return { ref };
  });
  return receivePackResponse(request, unpackError, results);
}

describe('real clients against a server built on the library', () => {
  let server: string;
  let http: TestServer;
  const pushes: ReceivePackRequest[] = [];
  beforeAll(async () => {
    server = buildServer();
    http = await startServer(libraryBackend(server, pushes));
  });
  afterAll(() => http.close());

  const url = () => `${http.url}/${basename(server)}`;

  it.each(['0', '1', '2'])('clones, fetches and fsck is clean (protocol %s)', async (version) => {
    const client = join(tempDir(), 'client');
    const config = ['-c', `protocol.version=${version}`];
    const { stderr } = await gitAsync(tempDir(), [...config, 'clone', '--progress', url(), client]);
    if (version !== '2') expect(stderr).toContain('remote: Counting objects: 100%');
    expect(gitText(client, ['rev-parse', 'HEAD', 'origin/feature'])).toBe(gitText(server, ['rev-parse', 'main', 'feature']));
    expect(gitText(client, ['rev-parse', 'v1^{}'])).toBe(gitText(server, ['rev-parse', 'v1^{}']));
    const work = join(tempDir(), 'work');
    git(server, ['clone', '-q', server, work]);
    commit(work, 'more', { 'more.txt': `${version}\n` }, 1700300000 + Number(version));
    git(work, ['push', '-q', 'origin', 'main']);
    await gitAsync(client, [...config, 'pull', '-q', '--ff-only']);
    expect(gitText(client, ['rev-parse', 'HEAD'])).toBe(gitText(server, ['rev-parse', 'main']));
    git(client, ['fsck', '--strict', '--no-dangling']);
  });

  it.each(['0', '2'])('serves shallow clones as git does (protocol %s)', async (version) => {
    const config = ['-c', `protocol.version=${version}`];
    const client = join(tempDir(), 'client');
    await gitAsync(tempDir(), [...config, 'clone', '-q', '--depth=3', url(), client]);
    const reference = join(tempDir(), 'reference');
    git(tempDir(), ['clone', '-q', '--depth=3', `file://${server}`, reference]);
    expect(readFileSync(join(client, '.git', 'shallow'), 'utf8')).toBe(readFileSync(join(reference, '.git', 'shallow'), 'utf8'));
    await gitAsync(client, [...config, 'fetch', '-q', '--depth=6']);
    git(reference, ['fetch', '-q', '--depth=6']);
    expect(readFileSync(join(client, '.git', 'shallow'), 'utf8')).toBe(readFileSync(join(reference, '.git', 'shallow'), 'utf8'));
    await gitAsync(client, [...config, 'fetch', '-q', '--unshallow']);
    git(client, ['fsck', '--strict', '--no-dangling']);
  });

  it('receives pushes: create, update, delete, tags, push options, and reports refusals', async () => {
    const client = join(tempDir(), 'client');
    await gitAsync(tempDir(), ['clone', '-q', url(), client]);
    const tip = commit(client, 'pushed', { 'pushed.txt': 'pushed\n' }, 1700400000);
    git(client, ['tag', '-a', 'v2', '-m', 'v2']);
    await gitAsync(client, ['push', '-q', '-o', 'ci.skip', 'origin', 'HEAD:refs/heads/new', 'v2']);
    expect(gitText(server, ['rev-parse', 'new', 'v2^{}'])).toBe(`${tip}\n${tip}`);
    expect(pushes.at(-1)?.pushOptions).toEqual(['ci.skip']);
    await gitAsync(client, ['push', '-q', 'origin', 'HEAD:main', ':refs/heads/feature']);
    expect(gitText(server, ['rev-parse', 'main'])).toBe(tip);
    expect(gitText(server, ['for-each-ref', 'refs/heads/feature'])).toBe('');
    const refused = await gitAsync(client, ['push', 'origin', 'HEAD:refs/heads/protected']).catch((error: Error) => error.message);
    expect(refused).toContain('[remote rejected] HEAD -> protected (pre-receive hook declined)');
    git(server, ['fsck', '--strict', '--no-dangling']);
  });

  it('clones an empty repository', async () => {
    const empty = join(dirname(server), 'empty.git');
    git(dirname(server), ['init', '-q', '--bare', empty]);
    const emptyServer = await startServer(libraryBackend(empty, []));
    try {
      const client = join(tempDir(), 'client');
      const { stderr } = await gitAsync(tempDir(), ['-c', 'protocol.version=0', 'clone', `${emptyServer.url}/empty.git`, client]);
      expect(stderr).toContain('You appear to have cloned an empty repository');
    } finally {
      await emptyServer.close();
    }
  });
});

describe('receive-pack requests', () => {
  const zero = '0'.repeat(40);
  const a = 'a'.repeat(40);
  const b = 'b'.repeat(40);
  const pkt = (line: string) => Buffer.from(`${(line.length + 4).toString(16).padStart(4, '0')}${line}`, 'latin1');

  it('reads commands, capabilities, shallow lines and the pack offset', () => {
    const body = Buffer.concat([pkt(`shallow ${b}`), pkt(`${zero} ${a} refs/heads/x\0 report-status side-band-64k agent=git/2.39.5\n`), pkt(`${a} ${zero} refs/heads/y\n`), FLUSH_PKT, Buffer.from('PACK\0\0\0\x02\0\0\0\0')]);
    const request = parseReceivePackRequest(body);
    expect(request).toEqual({
      commands: [{ oldOid: zero, newOid: a, ref: 'refs/heads/x' }, { oldOid: a, newOid: zero, ref: 'refs/heads/y' }],
      capabilities: ['report-status', 'side-band-64k', 'agent=git/2.39.5'],
      shallows: [b],
      pushOptions: [],
      packOffset: body.length - 12,
    });
    expect(packHeaderError(body, request.packOffset)).toBeUndefined();
    expect(deletesOnly(request)).toBe(false);
  });

  it('explains a bad pack as git receive-pack', () => {
    expect(packHeaderError(Buffer.from('PACK'), 0)).toBe('eof before pack header was fully read');
    expect(packHeaderError(Buffer.from('PACX\0\0\0\x02\0\0\0\0'), 0)).toBe('protocol error (pack signature mismatch detected)');
    expect(packHeaderError(Buffer.from('PACK\0\0\0\x04\0\0\0\0'), 0)).toBe('protocol error (pack version unsupported)');
  });

  it.each([
    ['a malformed command', [pkt('nonsense'), FLUSH_PKT]],
    ['a push certificate', [pkt('push-cert\0report-status'), FLUSH_PKT]],
    ['another object format', [pkt(`${zero} ${a} refs/heads/x\0object-format=sha256`), FLUSH_PKT]],
    ['no flush', [pkt(`${zero} ${a} refs/heads/x`)]],
    ['push options without a flush', [pkt(`${zero} ${a} refs/heads/x\0push-options`), FLUSH_PKT, pkt('opt')]],
  ])('refuses %s', (_name, packets) => {
    expect(() => parseReceivePackRequest(Buffer.concat(packets))).toThrow(/protocol error|not supported|object format/);
  });

  it('reports without side-band, and nothing when report-status was not asked', () => {
    const request = parseReceivePackRequest(Buffer.concat([pkt(`${zero} ${a} refs/heads/x\0report-status`), FLUSH_PKT]));
    const report = receivePackResponse(request, 'index-pack abnormal exit', [{ ref: 'refs/heads/x', error: 'unpacker error' }]);
    const reader = new PktLineReader(report);
    const texts: string[] = [];
    for (let p = reader.read(); p?.kind === 'data'; p = reader.read()) texts.push(pktLineText(p.data));
    expect(texts).toEqual(['unpack index-pack abnormal exit', 'ng refs/heads/x unpacker error']);
    const quiet = parseReceivePackRequest(Buffer.concat([pkt(`${zero} ${a} refs/heads/x\0side-band-64k`), FLUSH_PKT]));
    expect(receivePackResponse(quiet, undefined, [{ ref: 'refs/heads/x' }]).toString()).toBe('0000');
    expect(receivePackResponse(parseReceivePackRequest(FLUSH_PKT), undefined, []).length).toBe(0);
  });
});
