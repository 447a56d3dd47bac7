/**
 * The real `git` CLI against the service under test, for smart HTTP integration tests. Every
 * command runs with a fixed identity, no prompt, no credential helper and no system or
 * global configuration, so what it does depends only on the arguments and the server.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll } from 'vitest';
import { baseUrl } from './api';

const run = promisify(execFile);

export interface GitResult {
  code: number;
  stdout: string;
  stderr: string;
}

const ENV = {
  GIT_TERMINAL_PROMPT: '0',
  GIT_CONFIG_NOSYSTEM: '1',
  GIT_CONFIG_GLOBAL: '/dev/null',
  GIT_AUTHOR_NAME: 'Test Author',
  GIT_AUTHOR_EMAIL: 'author@example.com',
  GIT_COMMITTER_NAME: 'Test Committer',
  GIT_COMMITTER_EMAIL: 'committer@example.com',
  GIT_ASKPASS: '',
  SSH_ASKPASS: '',
};

/** Runs git (`input`: written to its standard input); resolves with its exit code and output (never rejects on a failing command). */
export async function git(args: string[], options: { cwd?: string; env?: Record<string, string>; input?: string } = {}): Promise<GitResult> {
  try {
    const running = run('git', ['-c', 'init.defaultBranch=main', '-c', 'credential.helper=', ...args], {
      cwd: options.cwd,
      env: { PATH: process.env.PATH, HOME: process.env.HOME, ...ENV, ...options.env },
      maxBuffer: 256 * 1024 * 1024,
    });
    if (options.input !== undefined) running.child.stdin?.end(options.input);
    const { stdout, stderr } = await running;
    return { code: 0, stdout, stderr };
  } catch (error) {
    const failed = error as { code?: number; stdout?: string; stderr?: string };
    return { code: typeof failed.code === 'number' ? failed.code : 1, stdout: failed.stdout ?? '', stderr: failed.stderr ?? '' };
  }
}

/** Like {@link git}, but fails the test with git's output when the command fails. */
export async function gitOk(args: string[], options: { cwd?: string; env?: Record<string, string>; input?: string } = {}): Promise<string> {
  const result = await git(args, options);
  if (result.code !== 0) throw new Error(`git ${args.join(' ')} failed (${result.code}):\n${result.stderr}${result.stdout}`);
  return result.stdout;
}

/** The clone URL of a project, with `token` as the Basic password (any username works, as on GitLab). */
export function cloneUrl(fullPath: string, token?: string, username = 'oauth2'): string {
  const url = new URL(`${baseUrl()}/${fullPath}.git`);
  if (token) {
    url.username = username;
    url.password = token;
  }
  return url.toString();
}

const directories: string[] = [];
afterAll(() => {
  for (const directory of directories) rmSync(directory, { recursive: true, force: true });
});

/** A fresh temporary directory, removed after the test file. */
export function scratch(prefix = 'git-'): string {
  const directory = mkdtempSync(join(tmpdir(), prefix));
  directories.push(directory);
  return directory;
}

/** A new local repository (branch `main`) with the given files committed, one commit. */
export async function localRepository(files: Record<string, string | Buffer> = { 'README.md': '# hello\n' }, message = 'initial commit'): Promise<string> {
  const directory = scratch('work-');
  await gitOk(['init', '-q', directory]);
  await commitFiles(directory, files, message);
  return directory;
}

/** A new local repository with the given files committed (as {@link localRepository}), pushed to the project's `main`; answers its directory. */
export async function pushNewRepository(fullPath: string, token: string, files?: Record<string, string | Buffer>, message?: string): Promise<string> {
  const directory = await localRepository(files, message);
  await gitOk(['push', '-q', cloneUrl(fullPath, token), 'HEAD:refs/heads/main'], { cwd: directory });
  return directory;
}

/** Writes files and commits them; answers the new commit id. */
export async function commitFiles(directory: string, files: Record<string, string | Buffer>, message: string): Promise<string> {
  for (const [path, content] of Object.entries(files)) {
    mkdirSync(dirname(join(directory, path)), { recursive: true });
    writeFileSync(join(directory, path), content);
  }
  await gitOk(['add', '-A'], { cwd: directory });
  await gitOk(['commit', '-q', '--allow-empty', '-m', message], { cwd: directory });
  return (await gitOk(['rev-parse', 'HEAD'], { cwd: directory })).trim();
}

/**
 * Makes the commits one after another on the checked-out branch, as {@link commitFiles} would one
 * by one, in a single git process (`git fast-import`) instead of three per commit; the working tree
 * and index follow (`reset --hard`). For tests that need many commits (negotiation across rounds):
 * forty commits took some 120 git processes. Answers the last commit id.
 */
export async function commitMany(directory: string, commits: ReadonlyArray<{ files: Record<string, string>; message: string }>): Promise<string> {
  const branch = (await gitOk(['symbolic-ref', 'HEAD'], { cwd: directory })).trim();
  const parent = await git(['rev-parse', '-q', '--verify', 'HEAD'], { cwd: directory });
  const data = (text: string) => `data ${Buffer.byteLength(text)}\n${text}\n`;
  const stream = commits
    .map(({ files, message }, index) =>
      [
        `commit ${branch}\n`,
        `author ${ENV.GIT_AUTHOR_NAME} <${ENV.GIT_AUTHOR_EMAIL}> now\n`,
        `committer ${ENV.GIT_COMMITTER_NAME} <${ENV.GIT_COMMITTER_EMAIL}> now\n`,
        data(`${message}\n`),
        index === 0 && parent.code === 0 ? `from ${parent.stdout.trim()}\n` : '',
        ...Object.entries(files).map(([path, content]) => `M 100644 inline ${path}\n${data(content)}`),
      ].join(''),
    )
    .join('');
  await gitOk(['fast-import', '--quiet', '--date-format=now'], { cwd: directory, input: stream });
  await gitOk(['reset', '-q', '--hard'], { cwd: directory });
  return (await gitOk(['rev-parse', 'HEAD'], { cwd: directory })).trim();
}
