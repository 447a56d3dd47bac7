import { describe, expect, it } from 'vitest';
import { resolveRevision } from '../../../shared/repository/queries/revisions';
import { MemoryRepository, project } from './memory-repository';

describe('resolveRevision', () => {
  const repo = new MemoryRepository();
  const root = repo.commit({ files: { a: '1' } });
  const second = repo.commit({ files: { a: '2' }, parents: [root] });
  const side = repo.commit({ files: { b: '1' }, parents: [root] });
  const merge = repo.commit({ files: { a: '2', b: '1' }, parents: [second, side] });
  const tag = repo.annotatedTag('v1', second, 'Release\n');
  repo.setRef('refs/heads/main', merge);
  repo.setRef('refs/heads/feature/x', side);
  repo.setRef('refs/tags/v1', tag);
  // A tag and a branch of one name: git takes the tag.
  repo.setRef('refs/tags/both', root);
  repo.setRef('refs/heads/both', second);

  it.each([
    ['a full id', merge, merge],
    ['an upper-case full id', merge.toUpperCase(), merge],
    ['a branch', 'main', merge],
    ['a branch with a slash', 'feature/x', side],
    ['a full ref name', 'refs/heads/main', merge],
    ['HEAD (the default branch)', 'HEAD', merge],
    ['an annotated tag (the tag object)', 'v1', tag],
    ['the tag before the branch of one name', 'both', root],
    ['~n', 'main~1', second],
    ['~~', 'main~2', root],
    ['^2', 'main^2', side],
    ['a tag peeled by ~0', 'v1~0', second],
    ['^{commit}', 'v1^{commit}', second],
    ['an abbreviated id', merge.slice(0, 10), merge],
  ])('resolves %s', async (_name, revision, expected) => {
    expect(await resolveRevision(repo.reader(), project, revision)).toBe(expected);
  });

  it.each([['nope'], ['main~9'], ['main^3'], ['-main'], ['a..b'], ['0000']])('resolves %s to nothing', async (revision) => {
    expect(await resolveRevision(repo.reader(), project, revision)).toBeUndefined();
  });
});
