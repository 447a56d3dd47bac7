/**
 * Whether a received pack is self-contained (every object its objects refer to is in it): a push
 * of such a pack needs no connectivity walk. Packs made by git: a whole history, a thin one, one
 * lacking objects.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashObject, type ObjectType } from '../../../shared/repository/git/objects/types';
import { indexPack } from '../../../shared/repository/git/pack/index-pack';
import { SelfContainedCheck } from '../../../shared/repository/git/pack/self-contained';
import { git, historyRepo, removeDir, tempDir } from './fixtures';

let dir: string;

beforeAll(() => {
  dir = tempDir();
  git(dir, ['init', '-q', '--bare']);
  historyRepo(dir, 60);
});

afterAll(() => removeDir(dir));

/** Internal: indexes `pack` (bases of a thin pack read from the repository) and answers the check's verdict. */
async function selfContained(pack: Buffer): Promise<boolean> {
  const check = new SelfContainedCheck();
  const readExternal = async (oid: string) => {
    const type = git(dir, ['cat-file', '-t', oid]).toString().trim() as 'commit' | 'tree' | 'blob' | 'tag';
    return { type, body: git(dir, ['cat-file', type, oid]) };
  };
  const indexed = await indexPack(pack, { readExternal, onObject: (_oid, type, body) => check.add(type, body) });
  return check.allIn(indexed.objects.map(({ oid }) => oid));
}

describe('SelfContainedCheck', () => {
  it('accepts the pack of a whole history', async () => {
    expect(await selfContained(git(dir, ['pack-objects', '--stdout', '--revs', '--delta-base-offset'], 'main\n'))).toBe(true);
  });

  it('refuses the pack of the last commits, whose parents and unchanged files are not in it', async () => {
    expect(await selfContained(git(dir, ['pack-objects', '--stdout', '--revs', '--delta-base-offset'], 'main\n^main~5\n'))).toBe(false);
  });

  it('refuses a thin pack once completed (its appended bases refer to objects outside)', async () => {
    expect(await selfContained(git(dir, ['pack-objects', '--stdout', '--revs', '--thin', '--delta-base-offset'], 'main\n^main~5\n'))).toBe(false);
  });

  it('refuses a whole history without one of its blobs', async () => {
    // Prepare: every object of the history but one blob.
    const objects = git(dir, ['rev-list', '--objects', 'main']).toString().trim().split('\n').map((line) => line.slice(0, 40));
    const blob = objects.find((oid) => git(dir, ['cat-file', '-t', oid]).toString().trim() === 'blob')!;
    const pack = git(dir, ['pack-objects', '--stdout'], `${objects.filter((oid) => oid !== blob).join('\n')}\n`);

    // Act / Assert
    expect(await selfContained(pack)).toBe(false);
  });

  it('does not need the commit of a submodule, but needs every other entry of a tree', () => {
    // Prepare: a tree of a blob and a submodule whose commit is elsewhere.
    const blob = Buffer.from('content\n');
    const blobId = hashObject('blob', blob);
    const entry = (mode: string, name: string, oid: string) => Buffer.concat([Buffer.from(`${mode} ${name}\0`), Buffer.from(oid, 'hex')]);
    const tree = Buffer.concat([entry('100644', 'file', blobId), entry('160000', 'module', 'c'.repeat(40))]);
    const check = (objects: [ObjectType, Buffer][]) => {
      const checked = new SelfContainedCheck();
      for (const [type, body] of objects) checked.add(type, body);
      return checked.allIn(objects.map(([type, body]) => hashObject(type, body)));
    };

    // Act / Assert
    expect(check([['tree', tree], ['blob', blob]])).toBe(true);
    expect(check([['tree', tree], ['blob', Buffer.from('other\n')]])).toBe(false);
    expect(check([['tree', Buffer.concat([tree, Buffer.from('100644 truncated\0abc')])], ['blob', blob]])).toBe(false);
  });

  it('refuses when an object cannot be read as git writes it', () => {
    const check = new SelfContainedCheck();
    check.add('commit', Buffer.from('parent 0000000000000000000000000000000000000000\n\nno tree first'));
    expect(check.allIn(['1'.repeat(40)])).toBe(false);
  });
});
