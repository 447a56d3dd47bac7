/**
 * What the repository API writes and shows, checked against the real `git` CLI: commits made by
 * the API clone cleanly and pass `git fsck`; the API's history, trees, diffs (byte for byte, with
 * renames, modes, binaries and missing final newlines; as hunks and as unified diffs), stats and
 * merge bases are git's.
 */
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { api } from '../../support/api';
import { ownedProject, type OwnedProject } from '../../support/fixtures';
import { cloneUrl, gitOk, scratch } from '../../support/git';
import { commit, repo } from './helpers';

/** git's empty tree: what a root commit is compared with. */
const EMPTY_TREE = '4b825dc642cb6eb9a060e54bf8d69288fbee4904';

/** Pseudo-random source text, so the diffs have real structure (blocks, blank lines, indentation). */
function source(seed: number, blocks: number): string {
  let state = seed;
  const next = (n: number) => {
    state = (state * 1103515245 + 12345) & 0x7fffffff;
    return state % n;
  };
  let text = '';
  for (let b = 0; b < blocks; b++) {
    text += `function f${next(50)}() {\n`;
    for (let i = next(6); i >= 0; i--) text += `${'  '.repeat(1 + next(2))}call${next(8)}();\n`;
    text += '}\n\n';
  }
  return text;
}

describe('the API against the git CLI', () => {
  let project: OwnedProject;
  let clone: string;
  const ids: string[] = [];
  beforeAll(async () => {
    project = await ownedProject();
    const token = project.owner.token;
    ids.push((await commit(project.id, token, [
      { action: 'create', file_path: 'src/app.js', content: source(1, 30) },
      { action: 'create', file_path: 'src/lib.js', content: source(2, 20) },
      { action: 'create', file_path: 'README.md', content: '# Demo\nno newline at the end' },
      { action: 'create', file_path: 'img/logo.png', content: Buffer.from([0x89, 0x50, 0x4e, 0x47, 0, 1, 2, 3]).toString('base64'), encoding: 'base64' },
    ])).id);
    ids.push((await commit(project.id, token, [
      { action: 'update', file_path: 'src/app.js', content: source(1, 30).replace(/call3\(\);\n/g, 'call3(true);\n').replace(/function f1\d\(\) \{\n/, 'function inserted() {\n  x();\n}\n\nfunction f10() {\n') },
      { action: 'update', file_path: 'README.md', content: '# Demo\nno newline at the end, still\n' },
    ])).id);
    ids.push((await commit(project.id, token, [
      { action: 'move', previous_path: 'src/lib.js', file_path: 'lib/index.js', content: source(2, 20).replace('call1();', 'call1(1);') },
      { action: 'update', file_path: 'img/logo.png', content: Buffer.from([0x89, 0x50, 0x4e, 0x47, 0, 9]).toString('base64'), encoding: 'base64' },
      { action: 'chmod', file_path: 'src/app.js', execute_filemode: true },
    ])).id);
    ids.push((await commit(project.id, token, [{ action: 'create', file_path: 'topic.txt', content: 'topic\n' }], { branch: 'topic', start_branch: 'main' })).id);
    ids.push((await commit(project.id, token, [{ action: 'delete', file_path: 'README.md' }])).id);

    clone = join(scratch(), 'clone');
    await gitOk(['clone', '-q', cloneUrl(project.fullPath, token), clone]);
    await gitOk(['fetch', '-q', 'origin', 'topic:topic'], { cwd: clone });
  });

  it('writes objects git accepts, and the history git reads', async () => {
    expect(await gitOk(['fsck', '--full', '--strict'], { cwd: clone })).toBe('');
    const log = (await gitOk(['log', '--format=%H', 'main'], { cwd: clone })).trim().split('\n');
    const listed = await api(repo(project.id, '/commits'), { token: project.owner.token });
    expect(listed.body.map((c: { id: string }) => c.id)).toEqual(log);
    expect(log).toEqual([ids[4], ids[2], ids[1], ids[0]]);
  });

  it('shows the diffs git prints, byte for byte', async () => {
    for (const id of [ids[0], ids[1], ids[2], ids[4]]) {
      const diffs = (await api(repo(project.id, `/commits/${id}/diff`), { token: project.owner.token })).body as Array<Record<string, unknown>>;
      const raw = await gitOk(['diff-tree', '-r', '-M', '--root', '--no-commit-id', '--raw', id], { cwd: clone });
      const entries = raw.trim().split('\n').map((line) => {
        const [meta, ...paths] = line.split('\t');
        const [aMode, bMode, , , status] = meta.slice(1).split(' ');
        return { aMode: aMode.replace(/^0+(?=\d)/, ''), bMode: bMode.replace(/^0+(?=\d)/, ''), status, oldPath: paths[0], newPath: paths[paths.length - 1] };
      });
      expect(diffs.map((d) => [d.old_path, d.new_path, d.a_mode, d.b_mode]), id).toEqual(entries.map((e) => [e.oldPath, e.newPath, e.aMode, e.bMode]));
      for (const [i, entry] of entries.entries()) {
        const from = id === ids[0] ? EMPTY_TREE : `${id}^`;
        const patch = await gitOk(['diff', '-M', from, id, '--', ...new Set([entry.oldPath, entry.newPath])], { cwd: clone });
        const hunks = patch.includes('\n@@') ? patch.slice(patch.indexOf('\n@@') + 1) : patch.match(/^Binary files .*\n/m)?.[0] ?? '';
        expect(diffs[i].diff, `${id} ${entry.newPath}`).toBe(hunks);
      }
    }
  });

  it('shows unified diffs (`unidiff=true`) as git prints them, file lines and all, for a commit and a comparison', async () => {
    /** git's patch of one file from its `---` line (what GitLab's `unidiff` shows), or its binary notice. */
    const gitUnidiff = async (from: string, to: string, paths: string[]) => {
      const patch = await gitOk(['diff', '-M', from, to, '--', ...new Set(paths)], { cwd: clone });
      return patch.includes('\n--- ') ? patch.slice(patch.indexOf('\n--- ') + 1) : patch.match(/^Binary files .*\n/m)?.[0] ?? '';
    };
    const token = project.owner.token;
    for (const id of [ids[0], ids[1], ids[2], ids[4]]) {
      const diffs = (await api(repo(project.id, `/commits/${id}/diff`), { token, query: { unidiff: true } })).body as Array<Record<string, string>>;
      for (const diff of diffs) expect(diff.diff, `${id} ${diff.new_path}`).toBe(await gitUnidiff(id === ids[0] ? EMPTY_TREE : `${id}^`, id, [diff.old_path, diff.new_path]));
    }
    const compared = await api(repo(project.id, '/compare'), { token, query: { from: ids[0], to: ids[4], unidiff: true } });
    expect(compared.body.diffs.length).toBeGreaterThan(2);
    for (const diff of compared.body.diffs as Array<Record<string, string>>) expect(diff.diff, diff.new_path).toBe(await gitUnidiff(ids[0], ids[4], [diff.old_path, diff.new_path]));
    // Without it, the hunks alone.
    const plain = await api(repo(project.id, '/compare'), { token, query: { from: ids[0], to: ids[4] } });
    expect(plain.body.diffs.every((diff: { diff: string }) => !diff.diff.startsWith('--- '))).toBe(true);
  });

  it('counts the lines git counts, and lists the trees git lists', async () => {
    const shown = await api(repo(project.id, `/commits/${ids[1]}`), { token: project.owner.token });
    const numstat = (await gitOk(['diff', '--numstat', `${ids[1]}^`, ids[1]], { cwd: clone })).trim().split('\n').map((line) => line.split('\t'));
    const additions = numstat.reduce((sum, [added]) => sum + Number(added), 0);
    const deletions = numstat.reduce((sum, [, deleted]) => sum + Number(deleted), 0);
    expect(shown.body.stats).toEqual({ additions, deletions, total: additions + deletions });
    const tree = await api(repo(project.id, '/tree'), { token: project.owner.token, query: { recursive: true, per_page: 100 } });
    const lsTree = (await gitOk(['ls-tree', '-r', '-t', 'main'], { cwd: clone })).trim().split('\n').map((line) => {
      const [meta, path] = line.split('\t');
      const [mode, type, id] = meta.split(' ');
      return { mode, type, id, path };
    });
    const sorted = ['tree', 'blob', 'commit'].flatMap((type) => lsTree.filter((entry) => entry.type === type));
    expect(tree.body).toEqual(sorted.map((entry) => ({ id: entry.id, name: entry.path.split('/').pop(), type: entry.type, path: entry.path, mode: entry.mode })));
  });

  it('finds the merge base git finds', async () => {
    const base = (await gitOk(['merge-base', 'main', 'topic'], { cwd: clone })).trim();
    const response = await api(repo(project.id, '/merge_base'), { token: project.owner.token, query: { 'refs[]': ['main', 'topic'] } });
    expect(response.body.id).toBe(base);
  });
});
