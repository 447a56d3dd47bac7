/**
 * Repositories for the pack tests, built with the real git CLI. History is generated with
 * `git fast-import` (one process for hundreds of commits), then packed with `git repack -adf`
 * so the pack has deep delta chains. Content comes from a seeded generator: runs are repeatable.
 */
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type GitObject, type ObjectType } from '../../../shared/repository/git/objects/types';

const ENV = {
  ...process.env,
  GIT_CONFIG_NOSYSTEM: '1',
  GIT_CONFIG_GLOBAL: '/dev/null',
  GIT_AUTHOR_NAME: 'Test Author',
  GIT_AUTHOR_EMAIL: 'author@example.com',
  GIT_AUTHOR_DATE: '1700000000 +0000',
  GIT_COMMITTER_NAME: 'Test Committer',
  GIT_COMMITTER_EMAIL: 'committer@example.com',
  GIT_COMMITTER_DATE: '1700000000 +0000',
};

/** Runs git in `cwd`, returning its standard output. */
export function git(cwd: string, args: string[], input?: Buffer | string): Buffer {
  return execFileSync('git', ['-c', 'init.defaultBranch=main', ...args], { cwd, env: ENV, input, maxBuffer: 1 << 30, stdio: ['pipe', 'pipe', 'pipe'] });
}

export function tempDir(prefix = 'pack-test-'): string {
  return mkdtempSync(join(tmpdir(), prefix));
}

export function removeDir(dir: string): void {
  rmSync(dir, { recursive: true, force: true });
}

/** A small deterministic generator (LCG), so fixtures are the same on every run. */
export function random(seed: number): (limit: number) => number {
  let state = seed >>> 0;
  return (limit) => {
    state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
    return state % limit;
  };
}

/** A git fast-import stream, built as bytes (binary file contents are not text). */
class FastImport {
  private readonly parts: Buffer[] = [];
  private mark = 0;
  private time = 1_700_000_000;

  data(content: Buffer | string): void {
    const bytes = Buffer.from(content);
    this.parts.push(Buffer.from(`data ${bytes.length}\n`), bytes, Buffer.from('\n'));
  }

  line(text: string): void {
    this.parts.push(Buffer.from(`${text}\n`));
  }

  /** A commit on `ref` changing files (`null` deletes); returns its mark. */
  commit(ref: string, message: string, changes: [string, Buffer | string | null][], parents: number[] = []): number {
    const mark = ++this.mark;
    this.time += 60;
    this.line(`commit ${ref}`);
    this.line(`mark :${mark}`);
    this.line(`author Test Author <author@example.com> ${this.time} +0000`);
    this.line(`committer Test Committer <committer@example.com> ${this.time} +0000`);
    this.data(message);
    parents.forEach((parent, i) => this.line(`${i === 0 ? 'from' : 'merge'} :${parent}`));
    for (const [path, content] of changes) {
      if (content === null) {
        this.line(`D ${path}`);
      } else {
        this.line(`M 100644 inline ${path}`);
        this.data(content);
      }
    }
    this.line('');
    return mark;
  }

  tag(name: string, target: number, message: string): void {
    this.line(`tag ${name}`);
    this.line(`from :${target}`);
    this.line(`tagger Test Tagger <tagger@example.com> ${this.time} +0000`);
    this.data(message);
  }

  bytes(): Buffer {
    return Buffer.concat(this.parts);
  }
}

/** Edits a text file: changes, inserts or deletes a few of its lines. */
function editText(lines: string[], next: (limit: number) => number, step: number): void {
  for (let edits = 1 + next(3); edits > 0; edits--) {
    const at = next(lines.length + 1);
    const choice = next(3);
    if (choice === 0 && lines.length > 5) lines.splice(at, 1);
    else if (choice === 1) lines.splice(at, 0, `inserted at step ${step}: ${'x'.repeat(next(60))}`);
    else lines[Math.min(at, lines.length - 1)] = `line changed at step ${step} ${next(1_000_000)}`;
  }
}

function randomBytes(size: number, next: (limit: number) => number): Buffer {
  const bytes = Buffer.alloc(size);
  for (let i = 0; i < size; i++) bytes[i] = next(256);
  return bytes;
}

/**
 * A repository with `commits` commits on main (text files edited a few lines at a time, binary
 * files patched in place, files added and deleted), a `feature` branch merged back, a `topic`
 * branch, an annotated tag and a lightweight tag; all packed in one pack by `git repack -adf`.
 */
export function historyRepo(dir: string, commits = 300): void {
  const next = random(42);
  const stream = new FastImport();
  const texts = new Map<string, string[]>();
  const binaries = new Map<string, Buffer>();
  for (let i = 0; i < 12; i++) {
    texts.set(`src/dir${i % 4}/file${i}.txt`, Array.from({ length: 40 + next(80) }, (_, n) => `file ${i} line ${n} ${next(1e9)}`));
  }
  for (let i = 0; i < 3; i++) binaries.set(`assets/blob${i}.bin`, randomBytes(2000 + next(6000), next));
  const snapshot = (): [string, Buffer | string | null][] => [
    ...[...texts].map(([path, lines]): [string, string] => [path, `${lines.join('\n')}\n`]),
    ...[...binaries].map(([path, bytes]): [string, Buffer] => [path, Buffer.from(bytes)]),
  ];
  const step = (n: number): [string, Buffer | string | null][] => {
    const changes: [string, Buffer | string | null][] = [];
    for (const [path, lines] of [...texts].filter(() => next(4) === 0)) {
      editText(lines, next, n);
      changes.push([path, `${lines.join('\n')}\n`]);
    }
    if (next(5) === 0) {
      const [path, bytes] = [...binaries][next(binaries.size)];
      randomBytes(16, next).copy(bytes, next(bytes.length - 16));
      changes.push([path, Buffer.from(bytes)]);
    }
    if (n % 37 === 0) changes.push([`notes/note${n}.md`, `# Note ${n}\n\n${'text '.repeat(next(200))}\n`]);
    if (n % 74 === 0) changes.push([`notes/note${n - 37}.md`, null]);
    return changes.length > 0 ? changes : [['counter.txt', `${n}\n`]];
  };
  let head = stream.commit('refs/heads/main', 'initial\n', snapshot());
  let forkPoint = head;
  for (let n = 1; n < commits; n++) {
    head = stream.commit('refs/heads/main', `commit ${n}\n`, step(n), [head]);
    if (n === Math.floor(commits / 3)) stream.tag('v1.0', head, 'release 1.0\n');
    if (n === Math.floor(commits / 2)) forkPoint = head;
  }
  let feature = forkPoint;
  for (let n = 0; n < 20; n++) feature = stream.commit('refs/heads/feature', `feature ${n}\n`, [[`feature/f${n}.txt`, `feature ${n}\n`]], [feature]);
  head = stream.commit('refs/heads/main', 'merge feature\n', [['merged.txt', 'merged\n']], [head, feature]);
  let topic = head;
  for (let n = 0; n < 10; n++) topic = stream.commit('refs/heads/topic', `topic ${n}\n`, step(commits + n), [topic]);
  git(dir, ['init', '-q', '--bare', '.']);
  git(dir, ['fast-import', '--quiet'], stream.bytes());
  git(dir, ['tag', 'light', 'main~10']);
  git(dir, ['repack', '-adfq']);
}

/** A repository of about `files` small files spread over many commits and directories. */
export function manyObjectsRepo(dir: string, files = 4000): void {
  const next = random(7);
  const stream = new FastImport();
  let head: number | undefined;
  for (let n = 0; n < files; n += 8) {
    const changes: [string, string][] = [];
    for (let k = 0; k < 8; k++) changes.push([`d${next(64)}/e${next(16)}/f${n + k}.txt`, `object ${n + k} ${next(1e9)}\n`]);
    head = stream.commit('refs/heads/main', `batch ${n}\n`, changes, head === undefined ? [] : [head]);
  }
  git(dir, ['init', '-q', '--bare', '.']);
  git(dir, ['fast-import', '--quiet'], stream.bytes());
  git(dir, ['repack', '-adfq']);
}

/** The only pack of a repository (after `git repack -ad`). */
export function onlyPack(dir: string): { pack: Buffer; idx: Buffer; packPath: string; idxPath: string } {
  const packDir = join(dir, 'objects', 'pack');
  const packs = readdirSync(packDir).filter((file) => file.endsWith('.pack'));
  if (packs.length !== 1) throw new Error(`expected one pack in ${packDir}, found ${packs.length}`);
  const packPath = join(packDir, packs[0]);
  const idxPath = packPath.replace(/\.pack$/, '.idx');
  return { pack: readFileSync(packPath), idx: readFileSync(idxPath), packPath, idxPath };
}

export interface VerifiedObject {
  oid: string;
  type: ObjectType;
  size: number;
  sizeInPack: number;
  offset: number;
  depth?: number;
  base?: string;
}

/** `git verify-pack -v`: every object of a pack, in pack order. */
export function verifyPack(idxPath: string): VerifiedObject[] {
  const output = git(tmpdir(), ['verify-pack', '-v', idxPath]).toString();
  return output
    .split('\n')
    .filter((line) => /^[0-9a-f]{40} /.test(line))
    .map((line) => {
      const [oid, type, size, sizeInPack, offset, depth, base] = line.trim().split(/\s+/);
      return { oid, type: type as ObjectType, size: +size, sizeInPack: +sizeInPack, offset: +offset, depth: depth ? +depth : undefined, base };
    });
}

/** The objects of a repository, through `git cat-file --batch`. */
export function catFile(dir: string, oids: string[]): Map<string, GitObject> {
  const output = git(dir, ['cat-file', '--batch'], `${oids.join('\n')}\n`);
  const objects = new Map<string, GitObject>();
  let at = 0;
  for (const oid of oids) {
    const headerEnd = output.indexOf(0x0a, at);
    const [, type, size] = output.toString('latin1', at, headerEnd).split(' ');
    const body = output.subarray(headerEnd + 1, headerEnd + 1 + Number(size));
    objects.set(oid, { type: type as ObjectType, body });
    at = headerEnd + 1 + Number(size) + 1;
  }
  return objects;
}

/** The ids of `git rev-list --objects <revs>`. */
export function revListObjects(dir: string, revs: string[]): string[] {
  return git(dir, ['rev-list', '--objects', ...revs])
    .toString()
    .split('\n')
    .filter(Boolean)
    .map((line) => line.slice(0, 40));
}

/** Writes a pack to a file and runs `git index-pack` on it (no repository needed); returns git's index. */
export function gitIndexPack(dir: string, pack: Buffer, name = 'check'): Buffer {
  const path = join(dir, `${name}.pack`);
  writeFileSync(path, pack);
  git(dir, ['index-pack', path]);
  return readFileSync(path.replace(/\.pack$/, '.idx'));
}

/** A delta that rebuilds `base` followed by `suffix` (at most 127 bytes): one copy, one insert. */
export function appendingDelta(base: Buffer, suffix: string): Buffer {
  const varint = (value: number) => {
    const bytes: number[] = [];
    for (; value > 0x7f; value = Math.floor(value / 128)) bytes.push((value % 128) | 0x80);
    return [...bytes, value];
  };
  const copy = [0x80 | 0x70, base.length & 0xff, (base.length >> 8) & 0xff, (base.length >> 16) & 0xff];
  return Buffer.from([...varint(base.length), ...varint(base.length + suffix.length), ...copy, suffix.length, ...Buffer.from(suffix)]);
}

/** A pack of raw entries (header, entries, SHA-1 trailer). */
export function rawPack(entries: Buffer[], count = entries.length): Buffer {
  const header = Buffer.from('PACK\0\0\0\x02\0\0\0\0', 'latin1');
  header.writeUInt32BE(count, 8);
  const body = Buffer.concat([header, ...entries]);
  return Buffer.concat([body, createHash('sha1').update(body).digest()]);
}
