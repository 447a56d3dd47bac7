/**
 * `GET /projects/:id/repository/files/:file_path/blame` (python-gitlab's
 * `project.files.blame(path, ref)`), checked against `git blame` on the same history pushed
 * with the real git CLI: a history with a branch and its merge, so lines come from both sides.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { api } from '../../support/api';
import { ownedProject, type OwnedProject } from '../../support/fixtures';
import { cloneUrl, gitOk, scratch } from '../../support/git';
import { enc, repo } from './helpers';

type BlameRange = { commit: Record<string, unknown> & { id: string }; lines: string[] };

const lines = (count: number, prefix: string) => Array.from({ length: count }, (_, index) => `${prefix} ${index + 1}`);

describe('GET /projects/:id/repository/files/:file_path/blame', () => {
  let project: OwnedProject;
  let work: string;
  let time = 1_700_000_000;

  /** Writes `app.txt` and commits it, a second later than the commit before. */
  async function commitApp(content: string[], message: string): Promise<void> {
    writeFileSync(join(work, 'app.txt'), `${content.join('\n')}\n`);
    time += 1;
    const env = { GIT_AUTHOR_DATE: `${time} +0000`, GIT_COMMITTER_DATE: `${time} +0000` };
    await gitOk(['commit', '-q', '-a', '-m', message], { cwd: work, env });
  }

  beforeAll(async () => {
    // Prepare: main and a topic branch change different lines; topic is merged; then more changes.
    project = await ownedProject();
    work = scratch('blame-');
    await gitOk(['init', '-q', work]);
    let content = lines(12, 'line');
    writeFileSync(join(work, 'app.txt'), `${content.join('\n')}\n`);
    await gitOk(['add', '-A'], { cwd: work });
    await gitOk(['commit', '-q', '-m', 'first'], { cwd: work, env: { GIT_AUTHOR_DATE: `${time} +0000`, GIT_COMMITTER_DATE: `${time} +0000` } });
    content = [...content.slice(0, 1), 'line 2 changed', ...content.slice(2, 5), 'inserted', ...content.slice(5)];
    await commitApp(content, 'second');
    await gitOk(['checkout', '-q', '-b', 'topic'], { cwd: work });
    const topic = content.map((line) => (line === 'line 9' ? 'line 9 on topic' : line));
    await commitApp(topic, 'topic change');
    await gitOk(['checkout', '-q', 'main'], { cwd: work });
    content = content.map((line) => (line === 'line 1' ? 'line 1 on main' : line));
    await commitApp(content, 'main change');
    time += 1;
    await gitOk(['merge', '-q', '--no-edit', 'topic'], { cwd: work, env: { GIT_AUTHOR_DATE: `${time} +0000`, GIT_COMMITTER_DATE: `${time} +0000` } });
    content = (await gitOk(['show', 'HEAD:app.txt'], { cwd: work })).trimEnd().split('\n');
    await commitApp([...content.filter((line) => line !== 'line 4'), 'appended'], 'last');
    await gitOk(['push', '-q', cloneUrl(project.fullPath, project.owner.token), 'main:refs/heads/main', 'topic:refs/heads/topic'], { cwd: work });
  });

  it("answers git blame's commit for every line, in ranges of consecutive lines, with the file's headers", async () => {
    // Prepare: git's own blame, line by line.
    const porcelain = await gitOk(['blame', '--porcelain', 'main', '--', 'app.txt'], { cwd: work });
    const expected = [...porcelain.matchAll(/^([0-9a-f]{40}) \d+ (\d+)/gm)].map((match) => match[1]);

    // Act
    const response = await api(repo(project.id, `/files/${enc('app.txt')}/blame`), { token: project.owner.token, query: { ref: 'main' } });

    // Assess
    expect(response.status, JSON.stringify(response.body)).toBe(200);
    const ranges = response.body as BlameRange[];
    expect(ranges.flatMap((range) => range.lines.map(() => range.commit.id))).toEqual(expected);
    expect(ranges.flatMap((range) => range.lines)).toEqual((await gitOk(['show', 'main:app.txt'], { cwd: work })).trimEnd().split('\n'));
    for (let index = 1; index < ranges.length; index++) expect(ranges[index].commit.id).not.toBe(ranges[index - 1].commit.id);
    expect(new Set(expected).size).toBe(5);
    expect(Object.keys(ranges[0].commit)).toEqual(['id', 'parent_ids', 'message', 'authored_date', 'author_name', 'author_email', 'committed_date', 'committer_name', 'committer_email']);
    expect(ranges[0]).toMatchObject({ commit: { message: 'main change\n', author_email: 'author@example.com', committer_name: 'Test Committer' }, lines: ['line 1 on main'] });
    expect(response.headers.get('x-gitlab-file-path')).toBe('app.txt');
    expect(response.headers.get('x-gitlab-commit-id')).toMatch(/^[0-9a-f]{40}$/);
  });

  it('blames only the range asked for', async () => {
    // Act
    const response = await api(repo(project.id, `/files/${enc('app.txt')}/blame`), { token: project.owner.token, query: { ref: 'main', 'range[start]': 2, 'range[end]': 3 } });

    // Assess
    expect(response.status).toBe(200);
    expect((response.body as BlameRange[]).flatMap((range) => range.lines)).toEqual(['line 2 changed', 'line 3']);
  });

  it("answers GitLab's errors: a missing ref, a bad range, an unknown file or ref", async () => {
    // Act
    const answers = await Promise.all([
      api(repo(project.id, `/files/${enc('app.txt')}/blame`), { token: project.owner.token }),
      api(repo(project.id, `/files/${enc('app.txt')}/blame`), { token: project.owner.token, query: { ref: 'main', 'range[start]': 3, 'range[end]': 2 } }),
      api(repo(project.id, `/files/${enc('app.txt')}/blame`), { token: project.owner.token, query: { ref: 'main', 'range[start]': 0, 'range[end]': 2 } }),
      api(repo(project.id, `/files/${enc('app.txt')}/blame`), { token: project.owner.token, query: { ref: 'main', 'range[start]': 1 } }),
      api(repo(project.id, `/files/${enc('nope.txt')}/blame`), { token: project.owner.token, query: { ref: 'main' } }),
      api(repo(project.id, `/files/${enc('app.txt')}/blame`), { token: project.owner.token, query: { ref: 'nope' } }),
    ]);

    // Assess
    expect(answers.map((answer) => [answer.status, answer.body])).toEqual([
      [400, { error: 'ref is missing' }],
      [400, { message: 'range[start] must be less than or equal to range[end]' }],
      [400, { error: 'range[start] does not have a valid value' }],
      [400, { error: 'range[end] is missing' }],
      [404, { message: '404 File Not Found' }],
      [404, { message: '404 Commit Not Found' }],
    ]);
  });
});
