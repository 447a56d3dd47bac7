import { beforeAll, describe, expect, it } from 'vitest';
import type { GitObject } from '../../../../shared/repository/git/objects/types';
import { ProtocolError } from '../../../../shared/repository/git/protocol/errors';
import { parseCommandRequest } from '../../../../shared/repository/git/protocol/advertise';
import { DELIM_PKT, errorPkt, FLUSH_PKT, pktText } from '../../../../shared/repository/git/protocol/pkt-line';
import { answerFetch, answerUploadPack, parseFetchArgs, parseUploadPackRequest, type UploadPackAnswer } from '../../../../shared/repository/git/protocol/upload-pack';
import { commit, countingReader, git, gitText, initRepo, readAllObjects, refsOf } from '../git-fixtures';
import { packCount, packObjectIds, splitResponse, uploadPackOracle } from './smart-http-fixtures';

const UNKNOWN1 = '1111111111111111111111111111111111111111';
const UNKNOWN2 = '2222222222222222222222222222222222222222';

interface Server {
  repo: string;
  objects: Map<string, GitObject>;
  refs: ReturnType<typeof refsOf>;
  c: string[];
  f: string[];
  v1: string;
  tree3: string;
  /** A commit on top of main that no ref points at. */
  dangling: string;
}

/** main: c0 … c9; feature: f0 … f2 forked at c4; an annotated tag v1 on c6. */
function buildServer(): Server {
  const repo = initRepo();
  const c: string[] = [];
  const f: string[] = [];
  let time = 1700000000;
  for (let i = 0; i < 5; i++) c.push(commit(repo, `c${i}`, { [`dir${i % 3}/c${i}.txt`]: `c ${i}\n`, 'list.txt': `${i}\n` }, (time += 60)));
  git(repo, ['checkout', '-q', '-b', 'feature']);
  for (let i = 0; i < 3; i++) f.push(commit(repo, `f${i}`, { [`feature/f${i}.txt`]: `f ${i}\n` }, (time += 60)));
  git(repo, ['checkout', '-q', 'main']);
  for (let i = 5; i < 10; i++) c.push(commit(repo, `c${i}`, { [`dir${i % 3}/c${i}.txt`]: `c ${i}\n`, 'list.txt': `${i}\n` }, (time += 60)));
  git(repo, ['tag', '-a', 'v1', '-m', 'v1', c[6]]);
  git(repo, ['tag', 'light', c[2]]);
  const dangling = gitText(repo, ['commit-tree', '-p', c[9], '-m', 'dangling', `${c[9]}^{tree}`]);
  return {
    repo,
    dangling,
    objects: readAllObjects(repo),
    refs: refsOf(repo),
    c,
    f,
    v1: gitText(repo, ['rev-parse', 'v1']),
    tree3: gitText(repo, ['rev-parse', `${c[3]}^{tree}`]),
  };
}

/** A v0 request body: want lines (capabilities on the first), other lines, flush, haves, end. */
function requestBody(wants: string[], capabilities: string[], lines: string[], haves: string[], end: 'done' | 'flush' | 'eof'): Buffer {
  const first = [`want ${wants[0]}${capabilities.length ? ` ${capabilities.join(' ')}` : ''}`, ...wants.slice(1).map((want) => `want ${want}`)];
  const tail = end === 'eof' ? [] : [...haves.map((have) => pktText(`have ${have}`)), end === 'done' ? pktText('done') : FLUSH_PKT];
  return Buffer.concat([...[...first, ...lines].map(pktText), FLUSH_PKT, ...tail]);
}

/** Our answer must be git's: the same pkt-lines before the pack, the same objects in it. */
async function expectSameAsGit(server: Server, body: Buffer): Promise<UploadPackAnswer> {
  const real = splitResponse(await uploadPackOracle(server.repo, body));
  const ours = await answerUploadPack(parseUploadPackRequest(body), { read: countingReader(server.objects), refs: server.refs });
  expect(ours.head.toString('latin1')).toBe(real.head.toString('latin1'));
  expect(ours.pack !== undefined).toBe(real.pack !== undefined);
  if (ours.pack && real.pack) {
    const thin = parseUploadPackRequest(body).capabilities.includes('thin-pack');
    if (thin) expect(ours.pack.oids).toHaveLength(packCount(real.pack));
    else expect([...ours.pack.oids].sort()).toEqual(packObjectIds(real.pack));
  }
  return ours;
}

const MODES: Record<string, string[]> = {
  'multi_ack_detailed no-done': ['multi_ack_detailed', 'no-done', 'side-band-64k', 'ofs-delta', 'agent=git/2.39.5'],
  multi_ack_detailed: ['multi_ack_detailed', 'side-band-64k', 'no-progress'],
  multi_ack: ['multi_ack', 'side-band'],
  'no multi_ack': [],
};

type Scenario = (s: Server) => { wants: string[]; haves: string[]; end: 'done' | 'flush'; capabilities?: string[] };

const SCENARIOS: Record<string, Scenario> = {
  'a clone': (s) => ({ wants: [s.c[9]], haves: [], end: 'done' }),
  'a common have': (s) => ({ wants: [s.c[9]], haves: [s.c[7]], end: 'flush' }),
  'unknown haves, then common ones': (s) => ({ wants: [s.c[9]], haves: [UNKNOWN1, UNKNOWN2, s.c[7], s.c[5]], end: 'flush' }),
  'no common have': (s) => ({ wants: [s.c[9]], haves: [UNKNOWN1, UNKNOWN2], end: 'flush' }),
  'a have one want does not reach': (s) => ({ wants: [s.c[9], s.f[2]], haves: [s.f[1]], end: 'flush' }),
  'a have both wants reach': (s) => ({ wants: [s.c[9], s.f[2]], haves: [s.c[3]], end: 'flush' }),
  'a have and its parent': (s) => ({ wants: [s.c[9]], haves: [s.c[7], s.c[6]], end: 'flush' }),
  'a common have, then an unknown one': (s) => ({ wants: [s.c[9]], haves: [s.c[7], UNKNOWN1], end: 'flush' }),
  'done after haves': (s) => ({ wants: [s.c[9]], haves: [UNKNOWN1, s.c[5]], end: 'done' }),
  'done without common haves': (s) => ({ wants: [s.c[9]], haves: [UNKNOWN1], end: 'done' }),
  'a tree among the haves': (s) => ({ wants: [s.c[9]], haves: [s.tree3, s.c[4]], end: 'flush' }),
  'an annotated tag wanted': (s) => ({ wants: [s.v1], haves: [s.c[2]], end: 'done' }),
  'include-tag': (s) => ({ wants: [s.c[9]], haves: [s.c[4]], end: 'done', capabilities: ['include-tag'] }),
  'a want that is no tip but is reachable': (s) => ({ wants: [s.c[9], s.c[5]], haves: [s.c[2]], end: 'done' }),
};

describe('upload-pack negotiation, against git upload-pack --stateless-rpc', () => {
  let server: Server;
  beforeAll(() => {
    server = buildServer();
  });

  const cases = Object.entries(MODES).flatMap(([mode, capabilities]) =>
    Object.entries(SCENARIOS).map(([name, scenario]) => [mode, name, capabilities, scenario] as const),
  );

  it.each(cases)('%s: %s', async (_mode, _name, capabilities, scenario) => {
    const { wants, haves, end, capabilities: extra = [] } = scenario(server);
    await expectSameAsGit(server, requestBody(wants, [...capabilities, ...extra], [], haves, end));
  });

  it('says ready and sends the pack at once with no-done', async () => {
    const body = requestBody([server.c[9]], MODES['multi_ack_detailed no-done'], [], [server.c[8], server.c[7]], 'flush');
    const answer = await expectSameAsGit(server, body);
    expect(answer.head.toString()).toContain(`ACK ${server.c[7]} ready\n`);
    expect(answer.pack?.oids).toContain(server.c[9]);
  });

  it('refuses a want the repository does not have, with git message', async () => {
    const body = requestBody([UNKNOWN1], MODES['multi_ack_detailed no-done'], [], [], 'done');
    const real = await uploadPackOracle(server.repo, body);
    const error = await answerUploadPack(parseUploadPackRequest(body), { read: countingReader(server.objects), refs: server.refs }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ProtocolError);
    expect(errorPkt((error as ProtocolError).message).toString()).toBe(real.toString());
  });

  it.each([
    ['a commit no ref reaches', (s: Server) => [s.c[9], s.dangling]],
    ['a blob (git 2.39 would send it: stricter)', (s: Server) => [gitText(s.repo, ['rev-parse', `${s.c[3]}:list.txt`])]],
  ])('refuses a want that is %s, as git', async (_name, wants) => {
    const body = requestBody(wants(server), MODES['multi_ack_detailed no-done'], [], [], 'done');
    const real = await uploadPackOracle(server.repo, body);
    const error = await answerUploadPack(parseUploadPackRequest(body), { read: countingReader(server.objects), refs: server.refs }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ProtocolError);
    if (wants(server).length > 1) expect(errorPkt((error as ProtocolError).message).toString()).toBe(real.toString());
  });

  it('answers nothing to a request without wants', async () => {
    const answer = await answerUploadPack(parseUploadPackRequest(FLUSH_PKT), { read: countingReader(server.objects), refs: server.refs });
    expect(answer).toEqual({ head: Buffer.alloc(0) });
  });
});

describe('shallow requests, against git upload-pack --stateless-rpc', () => {
  let server: Server;
  beforeAll(() => {
    server = buildServer();
  });
  const caps = ['multi_ack_detailed', 'no-done', 'side-band-64k', 'ofs-delta', 'shallow'];

  const cases: Array<[string, (s: Server) => Buffer]> = [
    ['the first round of a shallow clone: shallow info only', (s) => requestBody([s.c[9]], caps, ['deepen 2'], [], 'eof')],
    ['a shallow clone', (s) => requestBody([s.c[9]], caps, ['deepen 2'], [], 'done')],
    ['a shallow clone of two branches', (s) => requestBody([s.c[9], s.f[2]], caps, ['deepen 3'], [], 'done')],
    ['deepening a shallow clone, a negotiation round', (s) => requestBody([s.c[9]], caps, [`shallow ${s.c[7]}`, 'deepen 5'], [s.c[9], s.c[8], s.c[7]], 'flush')],
    ['deepening a shallow clone, done', (s) => requestBody([s.c[9]], caps, [`shallow ${s.c[7]}`, 'deepen 5'], [s.c[9]], 'done')],
    ['deepening past a fork', (s) => requestBody([s.c[9], s.f[2]], caps, [`shallow ${s.c[7]}`, `shallow ${s.f[2]}`, 'deepen 8'], [s.c[9], s.f[2]], 'done')],
    ['a thin deepening pack', (s) => requestBody([s.c[9]], [...caps, 'thin-pack'], [`shallow ${s.c[7]}`, 'deepen 4'], [s.c[9], s.c[8]], 'done')],
    ['unshallowing everything', (s) => requestBody([s.c[9]], caps, [`shallow ${s.c[7]}`, 'deepen 2147483647'], [s.c[9]], 'done')],
    ['deepen-since', (s) => requestBody([s.c[9]], caps, [`deepen-since ${1700000000 + 60 * 7}`], [], 'done')],
    ['deepen-not a branch', (s) => requestBody([s.c[9]], caps, ['deepen-not feature'], [], 'done')],
    ['a shallow client not deepening', (s) => requestBody([s.f[2]], caps, [`shallow ${s.c[7]}`], [s.c[9]], 'done')],
    ['a shallow line the server does not know', (s) => requestBody([s.c[9]], caps, [`shallow ${UNKNOWN1}`, 'deepen 1'], [], 'done')],
  ];

  it.each(cases)('%s', async (_name, body) => {
    await expectSameAsGit(server, body(server));
  });

  it('refuses deepen with deepen-since', () => {
    const body = requestBody([server.c[9]], caps, ['deepen 1', 'deepen-since 1'], [], 'done');
    expect(() => parseUploadPackRequest(body)).toThrow(/cannot be used together/);
  });
});

describe('protocol v2 fetch, against git upload-pack --stateless-rpc', () => {
  let server: Server;
  beforeAll(() => {
    server = buildServer();
  });

  /** A v2 fetch request body. */
  const fetch = (args: string[]) =>
    Buffer.concat([pktText('command=fetch'), pktText('agent=git/2.39.5'), pktText('object-format=sha1'), DELIM_PKT, ...args.map(pktText), FLUSH_PKT]);

  const cases: Array<[string, (s: Server) => string[]]> = [
    ['a clone', (s) => ['ofs-delta', 'no-progress', `want ${s.c[9]}`, `want ${s.f[2]}`, 'done']],
    ['a round that finds a common base', (s) => ['ofs-delta', `want ${s.c[9]}`, `have ${UNKNOWN1}`, `have ${s.c[7]}`]],
    ['a round that is not enough', (s) => [`want ${s.c[9]}`, `want ${s.f[2]}`, `have ${s.f[1]}`, `have ${s.f[0]}`]],
    ['a round without common haves', (s) => [`want ${s.c[9]}`, `have ${UNKNOWN1}`]],
    ['done after haves', (s) => [`want ${s.c[9]}`, `have ${s.c[4]}`, `have ${UNKNOWN2}`, 'done']],
    ['include-tag', (s) => ['include-tag', `want ${s.c[9]}`, `have ${s.c[3]}`, 'done']],
    ['a shallow clone', (s) => [`want ${s.c[9]}`, 'deepen 3', 'done']],
    ['deepening', (s) => [`want ${s.c[9]}`, `shallow ${s.c[7]}`, 'deepen 5', `have ${s.c[9]}`, `have ${s.c[8]}`, 'done']],
    ['deepen-since', (s) => [`want ${s.c[9]}`, `deepen-since ${1700000000 + 60 * 8}`, 'done']],
    ['a shallow client not deepening', (s) => [`want ${s.f[2]}`, `shallow ${s.c[7]}`, `have ${s.c[9]}`, 'done']],
    ['no wants', (s) => [`have ${s.c[9]}`, 'done']],
  ];

  it.each(cases)('%s', async (_name, args) => {
    const body = fetch(args(server));
    const real = splitResponse(await uploadPackOracle(server.repo, body, 'version=2'));
    const request = parseCommandRequest(body)!;
    expect(request.command).toBe('fetch');
    const ours = await answerFetch(parseFetchArgs(request.args), { read: countingReader(server.objects), refs: server.refs });
    expect(ours.head.toString('latin1')).toBe(real.head.toString('latin1'));
    expect(ours.pack !== undefined).toBe(real.pack !== undefined);
    if (ours.pack && real.pack) expect([...ours.pack.oids].sort()).toEqual(packObjectIds(real.pack));
  });

  it('refuses unknown arguments', () => {
    expect(() => parseFetchArgs(['want-ref refs/heads/main'])).toThrow(ProtocolError);
  });
});

describe('parseUploadPackRequest', () => {
  const oid = 'a'.repeat(40);

  it('reads wants, capabilities, shallow and deepen lines, haves and the end', () => {
    const body = requestBody([oid, 'b'.repeat(40)], ['multi_ack_detailed', 'side-band-64k', 'agent=git/2.39.5'], [`shallow ${'c'.repeat(40)}`, 'deepen 3'], ['d'.repeat(40)], 'done');
    expect(parseUploadPackRequest(body)).toEqual({
      wants: [oid, 'b'.repeat(40)],
      capabilities: ['multi_ack_detailed', 'side-band-64k', 'agent=git/2.39.5'],
      shallows: ['c'.repeat(40)],
      depth: 3,
      deepenNot: [],
      haves: ['d'.repeat(40)],
      end: 'done',
    });
    expect(parseUploadPackRequest(requestBody([oid], [], ['deepen-since 1700000000', 'deepen-not refs/heads/x'], [], 'eof'))).toMatchObject({
      deepenSince: 1700000000,
      deepenNot: ['refs/heads/x'],
      end: 'eof',
    });
  });

  it.each([
    ['a line that is no want', Buffer.concat([pktText('wants nothing'), FLUSH_PKT])],
    ['a want without an id', Buffer.concat([pktText('want xyz'), FLUSH_PKT])],
    ['no flush after the wants', pktText(`want ${'a'.repeat(40)}`)],
    ['a bad deepen', Buffer.concat([pktText(`want ${'a'.repeat(40)}`), pktText('deepen 0'), FLUSH_PKT])],
    ['a have list without an end', Buffer.concat([pktText(`want ${'a'.repeat(40)}`), FLUSH_PKT, pktText(`have ${'a'.repeat(40)}`)])],
    ['a line among the haves', Buffer.concat([pktText(`want ${'a'.repeat(40)}`), FLUSH_PKT, pktText('want x'), FLUSH_PKT])],
    ['a malformed length', Buffer.from('00zzwant')],
  ])('refuses %s', (_name, body) => {
    expect(() => parseUploadPackRequest(body)).toThrow(ProtocolError);
  });
});
