import { basename, dirname } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  advertiseRefs,
  advertiseV2,
  lsRefs,
  parseCommandRequest,
  parseLsRefsArgs,
  requestedVersion,
  type Ref,
  type Service,
} from '../../../../shared/repository/git/protocol/advertise';
import { ProtocolError } from '../../../../shared/repository/git/protocol/errors';
import { DELIM_PKT, FLUSH_PKT, PktLineReader, pktLineText, pktText } from '../../../../shared/repository/git/protocol/pkt-line';
import { commit, git, gitText, initRepo, refsOf } from '../git-fixtures';
import { gitAsync, httpBackend, startServer, type TestServer } from './smart-http-fixtures';

const AGENT = 'git/2.39.5';

/** The packets of a body as text lines; special packets as 0000, 0001. */
function lines(body: Buffer): string[] {
  const reader = new PktLineReader(body);
  const result: string[] = [];
  for (let pkt = reader.read(); pkt; pkt = reader.read()) {
    result.push(pkt.kind === 'data' ? pktLineText(pkt.data) : pkt.kind === 'flush' ? '0000' : '0001');
  }
  return result;
}

/** A body's lines with the capability list cut off, and the capabilities. */
function structure(body: Buffer): { lines: string[]; capabilities: string[] } {
  let capabilities: string[] = [];
  const cut = lines(body).map((line) => {
    const nul = line.indexOf('\0');
    if (nul < 0) return line;
    capabilities = line.slice(nul + 1).split(' ');
    return line.slice(0, nul);
  });
  return { lines: cut, capabilities };
}

/** A repository with branches, a lightweight, an annotated and a nested annotated tag. */
function buildRepo(): string {
  const repo = initRepo();
  const first = commit(repo, 'one', { a: '1' }, 1700000000);
  commit(repo, 'two', { a: '2' }, 1700000060);
  git(repo, ['branch', 'feature', first]);
  git(repo, ['branch', 'Zeta']);
  git(repo, ['tag', 'light', first]);
  git(repo, ['tag', '-a', 'v1', '-m', 'v1']);
  git(repo, ['tag', '-a', 'v1-nested', '-m', 'nested', 'v1']);
  return repo;
}

async function gitAdvertisement(repo: string, service: Service, gitProtocol?: string): Promise<Buffer> {
  const answer = await httpBackend(dirname(repo))({ method: 'GET', path: `/${basename(repo)}/info/refs`, query: `service=${service}`, gitProtocol, body: Buffer.alloc(0) });
  return answer.body;
}

function ours(repo: string, service: Service, version: 0 | 1 | 2 = 0): Buffer {
  const head = gitText(repo, ['symbolic-ref', '-q', 'HEAD']);
  return advertiseRefs(service, { refs: refsOf(repo), head, agent: AGENT, version });
}

describe('info/refs advertisement, against git http-backend', () => {
  let repo: string;
  beforeAll(() => {
    repo = buildRepo();
  });

  it('lists HEAD, the refs in C locale order and peeled tags for upload-pack', async () => {
    const real = structure(await gitAdvertisement(repo, 'git-upload-pack'));
    const mine = structure(ours(repo, 'git-upload-pack'));
    expect(mine.lines).toEqual(real.lines);
    expect(mine.lines[0]).toBe('# service=git-upload-pack');
    expect(mine.lines[2]).toMatch(/^[0-9a-f]{40} HEAD$/);
    expect(mine.lines.some((line) => line.endsWith('refs/tags/v1-nested^{}'))).toBe(true);
    expect(mine.capabilities).toEqual([
      'thin-pack', 'side-band', 'side-band-64k', 'ofs-delta', 'shallow', 'deepen-since', 'deepen-not', 'deepen-relative', 'no-progress', 'include-tag',
      'multi_ack_detailed', 'no-done', 'symref=HEAD:refs/heads/main', 'object-format=sha1', `agent=${AGENT}`,
    ]);
    expect(real.capabilities).toEqual(expect.arrayContaining(mine.capabilities.filter((capability) => !capability.startsWith('agent='))));
  });

  it('adds version 1 when asked', async () => {
    expect(structure(ours(repo, 'git-upload-pack', 1)).lines).toEqual(structure(await gitAdvertisement(repo, 'git-upload-pack', 'version=1')).lines);
    expect(lines(ours(repo, 'git-upload-pack', 1)).slice(0, 3)).toEqual(['# service=git-upload-pack', '0000', 'version 1']);
  });

  it('lists the refs without HEAD or peeled tags for receive-pack', async () => {
    const real = structure(await gitAdvertisement(repo, 'git-receive-pack'));
    const mine = structure(ours(repo, 'git-receive-pack'));
    expect(mine.lines).toEqual(real.lines);
    expect(mine.capabilities).toEqual(['report-status', 'delete-refs', 'side-band-64k', 'quiet', 'atomic', 'ofs-delta', 'push-options', 'object-format=sha1', `agent=${AGENT}`]);
    expect(real.capabilities).toEqual(expect.arrayContaining(mine.capabilities.filter((c) => !c.startsWith('agent=') && c !== 'push-options')));
  });

  it('answers receive-pack in v0 when v2 is asked, as git', async () => {
    expect(structure(ours(repo, 'git-receive-pack', 2)).lines).toEqual(structure(await gitAdvertisement(repo, 'git-receive-pack', 'version=2')).lines);
  });

  it.each<Service>(['git-upload-pack', 'git-receive-pack'])('puts the capabilities on capabilities^{} for an empty repository (%s)', async (service) => {
    const empty = initRepo(true);
    const mine = structure(advertiseRefs(service, { refs: [], head: 'refs/heads/main', agent: AGENT }));
    const real = structure(await gitAdvertisement(empty, service)).lines;
    // git 2.39's upload-pack sends no line at all there; git 2.41 and later send this one.
    if (service === 'git-upload-pack') real.splice(2, 0, `${'0'.repeat(40)} capabilities^{}`);
    expect(mine.lines).toEqual(real);
    expect(mine.lines[2]).toBe(`${'0'.repeat(40)} capabilities^{}`);
    expect(mine.capabilities.some((capability) => capability.startsWith('symref='))).toBe(false);
  });

  it('leaves HEAD out when its branch does not exist', async () => {
    const unborn = buildRepo();
    git(unborn, ['symbolic-ref', 'HEAD', 'refs/heads/nothing']);
    const mine = structure(ours(unborn, 'git-upload-pack'));
    expect(mine.lines).toEqual(structure(await gitAdvertisement(unborn, 'git-upload-pack')).lines);
    expect(mine.lines.some((line) => line.endsWith(' HEAD'))).toBe(false);
  });

  it('advertises v2 capabilities, without a service line', async () => {
    const real = lines(await gitAdvertisement(repo, 'git-upload-pack', 'version=2'));
    const mine = lines(ours(repo, 'git-upload-pack', 2));
    expect(mine).toEqual(['version 2', `agent=${AGENT}`, 'ls-refs=unborn', 'fetch=shallow', 'server-option', 'object-format=sha1', '0000']);
    expect(real[0]).toBe('version 2');
    const keys = (all: string[]) => all.map((line) => line.split('=')[0]);
    expect(keys(real)).toEqual(expect.arrayContaining(keys(mine)));
    expect(real).toEqual(expect.arrayContaining(mine.filter((line) => !/^(agent|fetch)=/.test(line))));
    expect(advertiseV2('my agent\n')).toEqual(advertiseV2('my.agent.'));
  });

  it('reads the version from the Git-Protocol header', () => {
    expect([undefined, '', 'version=1', 'version=2', 'foo=bar:version=2', 'version=1:version=2', 'version=3'].map(requestedVersion)).toEqual([0, 0, 1, 2, 2, 2, 0]);
  });
});

describe('protocol v2 commands', () => {
  let repo: string;
  beforeAll(() => {
    repo = buildRepo();
  });

  /** A v2 request body for a command with arguments. */
  const command = (name: string, args: string[]) =>
    Buffer.concat([pktText(`command=${name}`), pktText(`agent=${AGENT}`), pktText('object-format=sha1'), DELIM_PKT, ...args.map(pktText), FLUSH_PKT]);

  it.each([
    [['symrefs', 'peel', 'unborn']],
    [['peel', 'ref-prefix HEAD', 'ref-prefix refs/tags/']],
    [['symrefs', 'ref-prefix refs/heads/']],
    [[]],
  ])('answers ls-refs %j as git', async (args) => {
    const body = command('ls-refs', args);
    const real = await httpBackend(dirname(repo))({ method: 'POST', path: `/${basename(repo)}/git-upload-pack`, query: '', gitProtocol: 'version=2', body });
    const request = parseCommandRequest(body)!;
    expect(request).toEqual({ command: 'ls-refs', capabilities: [`agent=${AGENT}`, 'object-format=sha1'], args });
    const mine = lsRefs(parseLsRefsArgs(request.args), refsOf(repo), 'refs/heads/main');
    expect(lines(mine)).toEqual(lines(real.body));
  });

  it('tells an unborn HEAD in ls-refs as git does', async () => {
    const empty = initRepo(true);
    const body = command('ls-refs', ['symrefs', 'peel', 'unborn', 'ref-prefix HEAD']);
    const real = await httpBackend(dirname(empty))({ method: 'POST', path: `/${basename(empty)}/git-upload-pack`, query: '', gitProtocol: 'version=2', body });
    const mine = lsRefs(parseLsRefsArgs(parseCommandRequest(body)!.args), [], 'refs/heads/main');
    expect(lines(mine)).toEqual(lines(real.body));
    expect(lines(mine)).toEqual(['unborn HEAD symref-target:refs/heads/main', '0000']);
  });

  it('parses a command without arguments, and the empty request', () => {
    expect(parseCommandRequest(Buffer.concat([pktText('command=ls-refs'), FLUSH_PKT]))).toEqual({ command: 'ls-refs', capabilities: [], args: [] });
    expect(parseCommandRequest(FLUSH_PKT)).toBeUndefined();
  });

  it.each([
    ['an unknown command', [pktText('command=push'), FLUSH_PKT]],
    ['two commands', [pktText('command=fetch'), pktText('command=ls-refs'), FLUSH_PKT]],
    ['no command', [pktText('agent=x'), FLUSH_PKT]],
    ['an unknown capability', [pktText('command=fetch'), pktText('frobnicate'), FLUSH_PKT]],
    ['another object format', [pktText('command=fetch'), pktText('object-format=sha256'), FLUSH_PKT]],
    ['arguments without a flush', [pktText('command=fetch'), DELIM_PKT, pktText('done')]],
  ])('refuses %s', (_name, packets) => {
    expect(() => parseCommandRequest(Buffer.concat(packets))).toThrow(ProtocolError);
  });

  it('refuses unknown ls-refs arguments', () => {
    expect(() => parseLsRefsArgs(['symrefs', 'frob'])).toThrow(ProtocolError);
  });
});

describe('git ls-remote against our advertisement', () => {
  let repo: string;
  let server: TestServer;
  beforeAll(async () => {
    repo = buildRepo();
    const refs: Ref[] = refsOf(repo);
    server = await startServer(async ({ method, query, gitProtocol, body }) => {
      const version = requestedVersion(gitProtocol);
      if (method === 'GET') {
        const service = new URLSearchParams(query).get('service') as Service;
        return { status: 200, contentType: `application/x-${service}-advertisement`, body: advertiseRefs(service, { refs, head: 'refs/heads/main', agent: AGENT, version }) };
      }
      const request = parseCommandRequest(body)!;
      return { status: 200, contentType: 'application/x-git-upload-pack-result', body: lsRefs(parseLsRefsArgs(request.args), refs, 'refs/heads/main') };
    });
  });
  afterAll(() => server.close());

  it.each(['0', '1', '2'])('lists what ls-remote of the repository lists (protocol.version=%s)', async (version) => {
    const { stdout } = await gitAsync(repo, ['-c', `protocol.version=${version}`, 'ls-remote', '--symref', `${server.url}/repo.git`]);
    const expected = gitText(repo, ['ls-remote', '--symref', repo]);
    expect(stdout.trim()).toBe(expected);
  });
});
