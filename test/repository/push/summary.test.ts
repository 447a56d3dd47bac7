/**
 * What a push did to one ref (`shared/repository/push/summary.ts`), as GitLab's branch and tag
 * hook services work it out, on real repositories.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { actionOf, effectiveDefaultBranch, refTypeOf, summarizeRef } from '../../../shared/repository/push/summary';
import { TestRepo } from './repo';

const ZERO = '0'.repeat(40);
const repo = new TestRepo();
afterAll(() => repo.remove());

const root = repo.commit('root', { a: '0' });
const main1 = repo.commit('main 1', { a: '1' });
const main2 = repo.commit('main 2', { a: '2' });
repo.checkout('feature', true);
const feature1 = repo.commit('feature 1', { f: '1' });
const feature2 = repo.commit('feature 2', { f: '2' });
repo.git(['tag', 'light']);
repo.git(['tag', '-a', '-m', 'Release 1.0\n\nNotes.', 'v1.0']);
repo.git(['tag', '-a', '-m', 'tree tag', 'treetag', `${root}^{tree}`]);
const refsAfter = new Map([
  ['refs/heads/main', main2],
  ['refs/heads/feature', feature2],
]);
const context = { defaultBranch: 'main', refsAfter };
const ids = (commits: Array<{ id: string }>) => commits.map((commit) => commit.id);

describe('refTypeOf and actionOf', () => {
  it('tells branches and tags from other refs', () => {
    expect(refTypeOf('refs/heads/main')).toBe('branch');
    expect(refTypeOf('refs/tags/v1')).toBe('tag');
    expect(refTypeOf('refs/notes/commits')).toBeUndefined();
    expect(refTypeOf('refs/merge-requests/1/head')).toBeUndefined();
  });

  it('names the action as GitLab does', () => {
    expect(actionOf({ name: 'refs/heads/x', before: ZERO, after: main1 })).toBe('created');
    expect(actionOf({ name: 'refs/heads/x', before: main1, after: ZERO })).toBe('removed');
    expect(actionOf({ name: 'refs/heads/x', before: main1, after: main2 })).toBe('pushed');
  });
});

describe('effectiveDefaultBranch', () => {
  it("keeps the project's default branch when it exists", () => {
    expect(effectiveDefaultBranch('develop', ['main', 'develop'])).toBe('develop');
  });

  it('otherwise answers as Gitaly does for a HEAD naming no branch', () => {
    expect(effectiveDefaultBranch('master', [])).toBeUndefined();
    expect(effectiveDefaultBranch('master', ['feature'])).toBe('feature');
    expect(effectiveDefaultBranch('develop', ['feature', 'main', 'master'])).toBe('main');
    expect(effectiveDefaultBranch('develop', ['feature', 'master'])).toBe('master');
    expect(effectiveDefaultBranch('develop', ['zeta', 'alpha'])).toBe('alpha');
  });
});

describe('summarizeRef', () => {
  it('answers the commits of a branch update, newest first', async () => {
    const summary = await summarizeRef(repo.reader().read, { name: 'refs/heads/main', before: root, after: main2 }, context);
    expect(summary).toMatchObject({ type: 'branch', action: 'pushed', checkoutSha: main2, message: null, total: 2 });
    expect(ids(summary.commits)).toEqual([main2, main1]);
  });

  it('answers the commits of a new branch not on the default branch', async () => {
    const summary = await summarizeRef(repo.reader().read, { name: 'refs/heads/feature', before: ZERO, after: feature2 }, context);
    expect(summary).toMatchObject({ action: 'created', checkoutSha: feature2, total: 2 });
    expect(ids(summary.commits)).toEqual([feature2, feature1]);
  });

  it("answers the whole history of a new default branch (the first push)", async () => {
    const summary = await summarizeRef(repo.reader().read, { name: 'refs/heads/main', before: ZERO, after: main2 }, context);
    expect(summary.total).toBe(3);
    expect(ids(summary.commits)).toEqual([main2, main1, root]);
  });

  it('answers nothing for a new branch at a commit of the default branch', async () => {
    const summary = await summarizeRef(repo.reader().read, { name: 'refs/heads/copy', before: ZERO, after: main1 }, context);
    expect(summary).toMatchObject({ action: 'created', checkoutSha: main1, commits: [], total: 0 });
  });

  it('answers nothing for a deleted branch', async () => {
    const summary = await summarizeRef(repo.reader().read, { name: 'refs/heads/feature', before: feature2, after: ZERO }, context);
    expect(summary).toEqual({
      ref: { name: 'refs/heads/feature', before: feature2, after: ZERO },
      type: 'branch',
      action: 'removed',
      checkoutSha: null,
      message: null,
      commits: [],
      total: 0,
    });
  });

  it("answers a lightweight tag's commit, with an empty message", async () => {
    const summary = await summarizeRef(repo.reader().read, { name: 'refs/tags/light', before: ZERO, after: feature2 }, context);
    expect(summary).toMatchObject({ type: 'tag', action: 'created', checkoutSha: feature2, message: '', total: 1 });
    expect(ids(summary.commits)).toEqual([feature2]);
  });

  it("answers an annotated tag's commit and message", async () => {
    const tag = repo.rev('v1.0');
    const summary = await summarizeRef(repo.reader().read, { name: 'refs/tags/v1.0', before: ZERO, after: tag }, context);
    expect(summary).toMatchObject({ type: 'tag', checkoutSha: feature2, message: 'Release 1.0\n\nNotes.\n', total: 1 });
    expect(ids(summary.commits)).toEqual([feature2]);
  });

  it('answers no commit for a tag of a tree, and nothing for a deleted tag', async () => {
    const tag = repo.rev('treetag');
    const reader = repo.reader();
    expect(await summarizeRef(reader.read, { name: 'refs/tags/treetag', before: ZERO, after: tag }, context)).toMatchObject({
      checkoutSha: null,
      message: 'tree tag\n',
      commits: [],
      total: 0,
    });
    expect(await summarizeRef(reader.read, { name: 'refs/tags/v1.0', before: tag, after: ZERO }, context)).toMatchObject({
      action: 'removed',
      checkoutSha: null,
      message: null,
      total: 0,
    });
  });
});
