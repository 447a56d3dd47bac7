/**
 * Real git repositories for the git library's tests: the `git` CLI with a fixed identity and
 * clock, no user or system configuration, in temporary directories.
 */
import { execFileSync, type ExecFileSyncOptions } from 'node:child_process';
import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll } from 'vitest';
import type { GitObject, ObjectType } from '../../../shared/repository/git/objects/types';
import type { ObjectReader } from '../../../shared/repository/git/walk';

/** The environment every git command runs in. */
export const gitEnv: NodeJS.ProcessEnv = {
  PATH: process.env.PATH,
  GIT_CONFIG_NOSYSTEM: '1',
  GIT_CONFIG_GLOBAL: '/dev/null',
  GIT_AUTHOR_NAME: 'A U Thor',
  GIT_AUTHOR_EMAIL: 'author@example.com',
  GIT_COMMITTER_NAME: 'C O Mitter',
  GIT_COMMITTER_EMAIL: 'committer@example.com',
  GIT_AUTHOR_DATE: '1700000000 +0200',
  GIT_COMMITTER_DATE: '1700000000 +0200',
  LANG: 'C',
};

const dirs: string[] = [];
afterAll(() => dirs.splice(0).forEach((dir) => rmSync(dir, { recursive: true, force: true })));

/** A temporary directory, removed after the test file. */
export function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'git-lib-'));
  dirs.push(dir);
  return dir;
}

/** Runs git in `cwd`; returns stdout. */
export function git(cwd: string, args: string[], options: { input?: string | Buffer; env?: NodeJS.ProcessEnv } = {}): Buffer {
  const exec: ExecFileSyncOptions = { cwd, input: options.input, env: { ...gitEnv, ...options.env }, maxBuffer: 1 << 28, stdio: ['pipe', 'pipe', 'pipe'] };
  return execFileSync('git', ['-c', 'init.defaultBranch=main', '-c', 'protocol.file.allow=always', ...args], exec) as Buffer;
}

/** Runs git in `cwd`; returns stdout as trimmed text. */
export function gitText(cwd: string, args: string[], options: { input?: string | Buffer; env?: NodeJS.ProcessEnv } = {}): string {
  return git(cwd, args, options).toString('utf8').trim();
}

/** A new repository (bare when asked). */
export function initRepo(bare = false): string {
  const dir = tempDir();
  git(dir, ['init', '-q', ...(bare ? ['--bare'] : [])]);
  return dir;
}

/** Writes files (path → content) into a work tree, creating directories. */
export function writeFiles(repo: string, files: Record<string, string | Buffer>): void {
  for (const [path, content] of Object.entries(files)) {
    mkdirSync(dirname(join(repo, path)), { recursive: true });
    writeFileSync(join(repo, path), content);
  }
}

/** Commits the given files at `time` (seconds); returns the commit id. */
export function commit(repo: string, message: string, files: Record<string, string | Buffer>, time: number): string {
  writeFiles(repo, files);
  const env = { GIT_AUTHOR_DATE: `${time} +0200`, GIT_COMMITTER_DATE: `${time} +0200` };
  git(repo, ['add', '-A'], { env });
  git(repo, ['commit', '-q', '--allow-empty', '-m', message], { env });
  return gitText(repo, ['rev-parse', 'HEAD']);
}

/** Every object of a repository (git cat-file --batch-all-objects). */
export function readAllObjects(repo: string): Map<string, GitObject> {
  const out = git(repo, ['cat-file', '--batch-all-objects', '--batch', '--unordered']);
  const objects = new Map<string, GitObject>();
  for (let offset = 0; offset < out.length; ) {
    const eol = out.indexOf(0x0a, offset);
    const [oid, type, size] = out.toString('latin1', offset, eol).split(' ');
    const start = eol + 1;
    objects.set(oid, { type: type as ObjectType, body: Buffer.from(out.subarray(start, start + Number(size))) });
    offset = start + Number(size) + 1;
  }
  return objects;
}

/** A reader over a repository's objects that counts its calls. */
export function countingReader(objects: Map<string, GitObject>): ObjectReader & { calls: number } {
  const reader = Object.assign(
    async (oid: string) => {
      reader.calls++;
      return objects.get(oid);
    },
    { calls: 0 },
  );
  return reader;
}

/** `git rev-list --objects …` as a sorted list of ids. */
export function revListObjects(repo: string, args: string[]): string[] {
  const out = gitText(repo, ['rev-list', '--objects', ...args]);
  return out === '' ? [] : out.split('\n').map((line) => line.slice(0, 40)).sort();
}

/**
 * A linear history of `length` commits on `branch` via git fast-import, one second apart from
 * `start`, on top of commit `from` if given; commit i changes `dir<i % 4>/file<i % 8>` and the
 * first adds a few directories left untouched.
 */
export function linearHistory(repo: string, length: number, start: number, branch = 'main', from?: string): string[] {
  const data = (text: string) => `data ${Buffer.byteLength(text)}\n${text}\n`;
  const commands: string[] = [];
  for (let i = 1; i <= length; i++) {
    commands.push(`commit refs/heads/${branch}\ncommitter C O Mitter <committer@example.com> ${start + i} +0000\n${data(`commit ${i}`)}`);
    if (i === 1 && from) commands.push(`from ${from}\n`);
    if (i === 1) for (let k = 0; k < 4; k++) commands.push(`M 100644 inline static${k}/keep.txt\n${data(`static ${k}`)}`);
    commands.push(`M 100644 inline dir${i % 4}/file${i % 8}.txt\n${data(`version ${i}`)}\n`);
  }
  git(repo, ['fast-import', '--quiet'], { input: commands.join('') });
  return gitText(repo, ['rev-list', '--reverse', branch, ...(from ? [`^${from}`] : [])]).split('\n');
}

/** The refs of a repository (HEAD aside), with the fully peeled id of annotated tags. */
export function refsOf(repo: string): { name: string; oid: string; peeled?: string }[] {
  const out = gitText(repo, ['for-each-ref', '--format=%(objectname) %(refname) %(objecttype)']);
  if (out === '') return [];
  return out.split('\n').map((line) => {
    const [oid, name, type] = line.split(' ');
    return { name, oid, ...(type === 'tag' && { peeled: gitText(repo, ['rev-parse', `${name}^{}`]) }) };
  });
}
