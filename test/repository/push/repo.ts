/**
 * Repositories for the push tests, built with the real git CLI (fixed names, emails and dates, no
 * user or system configuration), and an in-memory object reader over `git cat-file --batch`
 * output that counts its reads, so the push code is tested without the pack library.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, unlinkSync, writeFileSync, chmodSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll } from 'vitest';
import type { GitObject } from '../../../shared/repository/git/objects/types';
import { readAllObjects } from '../git/git-fixtures';

const BASE_ENV = {
  ...process.env,
  GIT_CONFIG_NOSYSTEM: '1',
  GIT_CONFIG_GLOBAL: '/dev/null',
  GIT_AUTHOR_NAME: 'Ada Author',
  GIT_AUTHOR_EMAIL: 'ada@example.com',
  GIT_COMMITTER_NAME: 'Cy Committer',
  GIT_COMMITTER_EMAIL: 'cy@example.com',
};

/** A file's new content: text, a symlink, an executable, or `null` to delete it. */
export type FileChange = string | null | { symlink: string } | { executable: string };

export interface CommitOptions {
  /** Committer (and author) time in seconds; by default one minute after the previous commit. */
  time?: number;
  /** The zone, `+0200` by default. */
  zone?: string;
  author?: { name: string; email: string };
}

export class TestRepo {
  readonly dir = mkdtempSync(join(tmpdir(), 'push-test-'));
  private clock = 1_700_000_000;

  constructor() {
    this.git(['init', '-q', '-b', 'main']);
  }

  git(args: string[], options: { input?: string | Buffer; env?: Record<string, string> } = {}): string {
    return execFileSync('git', args, {
      cwd: this.dir,
      env: { ...BASE_ENV, GIT_AUTHOR_DATE: `${this.clock} +0000`, GIT_COMMITTER_DATE: `${this.clock} +0000`, ...options.env },
      input: options.input,
      maxBuffer: 1 << 30,
      stdio: ['pipe', 'pipe', 'pipe'],
    }).toString('utf8');
  }

  /** Changes files in the work tree and commits everything; answers the new commit's id. */
  commit(message: string, files: Record<string, FileChange> = {}, options: CommitOptions = {}): string {
    for (const [path, change] of Object.entries(files)) {
      const file = join(this.dir, path);
      rmSync(file, { force: true, recursive: true });
      if (change === null) continue;
      mkdirSync(dirname(file), { recursive: true });
      if (typeof change === 'string') writeFileSync(file, change);
      else if ('symlink' in change) symlinkSync(change.symlink, file);
      else {
        writeFileSync(file, change.executable);
        chmodSync(file, 0o755);
      }
    }
    this.clock = options.time ?? this.clock + 60;
    const date = `${this.clock} ${options.zone ?? '+0200'}`;
    const author = options.author ?? { name: BASE_ENV.GIT_AUTHOR_NAME, email: BASE_ENV.GIT_AUTHOR_EMAIL };
    this.git(['add', '-A']);
    this.git(['commit', '-q', '--allow-empty', '--no-verify', '-m', message], {
      env: { GIT_AUTHOR_DATE: date, GIT_COMMITTER_DATE: date, GIT_AUTHOR_NAME: author.name, GIT_AUTHOR_EMAIL: author.email },
    });
    return this.head();
  }

  head(): string {
    return this.rev('HEAD');
  }

  rev(name: string): string {
    return this.git(['rev-parse', name]).trim();
  }

  checkout(branch: string, create = false): void {
    this.git(create ? ['checkout', '-q', '-b', branch] : ['checkout', '-q', branch]);
  }

  /** A merge commit of `branch` into the current branch (no fast-forward). */
  merge(branch: string, message: string): string {
    this.clock += 60;
    const date = `${this.clock} +0200`;
    this.git(['merge', '-q', '--no-ff', '--no-edit', '-m', message, branch], { env: { GIT_AUTHOR_DATE: date, GIT_COMMITTER_DATE: date } });
    return this.head();
  }

  /** `git rev-list <args>`: ids, one a line. */
  revList(args: string[]): string[] {
    return this.git(['rev-list', ...args]).split('\n').filter(Boolean);
  }

  /** Loads a fast-import stream (many commits in one process). */
  fastImport(stream: string): void {
    this.git(['fast-import', '--quiet'], { input: stream });
  }

  remove(): void {
    rmSync(this.dir, { recursive: true, force: true });
  }

  unlink(path: string): void {
    unlinkSync(join(this.dir, path));
  }

  /** Every object of the repository in memory, read through a counting reader. */
  reader(): CountingReader {
    return new CountingReader(readAllObjects(this.dir));
  }
}

/** A function that makes a new repository at each call; all are removed after the file's tests. */
export function repoFactory(): () => TestRepo {
  const repos: TestRepo[] = [];
  afterAll(() => repos.forEach((repo) => repo.remove()));
  return () => {
    const repo = new TestRepo();
    repos.push(repo);
    return repo;
  };
}

export class CountingReader {
  /** Every id read, in order (repeats included). */
  readonly log: string[] = [];

  constructor(private readonly objects: Map<string, GitObject>) {}

  readonly read = async (oid: string): Promise<GitObject | undefined> => {
    this.log.push(oid);
    return this.objects.get(oid);
  };

  /** How many reads of commits there were. */
  commitReads(): number {
    return this.log.filter((oid) => this.objects.get(oid)?.type === 'commit').length;
  }

  reset(): void {
    this.log.length = 0;
  }
}

/** A fast-import stream of `count` commits on `branch`, one file changed each, one minute apart. */
export function linearHistory(branch: string, count: number, start = 1_600_000_000): string {
  const lines: string[] = [];
  for (let i = 1; i <= count; i++) {
    const message = `commit ${i}\n`;
    const content = `line ${i}\n`;
    lines.push(
      `commit refs/heads/${branch}`,
      `mark :${i}`,
      `author Ada Author <ada@example.com> ${start + i * 60} +0000`,
      `committer Cy Committer <cy@example.com> ${start + i * 60} +0000`,
      `data ${Buffer.byteLength(message)}`,
      message.slice(0, -1),
      ...(i > 1 ? [`from :${i - 1}`] : []),
      `M 644 inline file-${i % 50}.txt`,
      `data ${Buffer.byteLength(content)}`,
      content.slice(0, -1),
      '',
    );
  }
  return `${lines.join('\n')}\n`;
}
