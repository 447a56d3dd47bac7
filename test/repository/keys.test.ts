/**
 * The repository feature's keys stay inside the key space it declares (`keySpace` in
 * `shared/repository/store/keys.ts`): a project's code repository and its wiki repository each
 * have their record and refs in the project's partition under prefixes of their own (`REPOSITORY`
 * / `REF#`, `WIKI_REPOSITORY` / `WIKI_REF#`), so neither reads the other's refs; pools are
 * partitions of their own (a wiki's: `POOL#wiki-<id>`).
 */
import { expect, it } from 'vitest';
import type { Collection, Key } from '../../shared/platform/dynamo/keys';
import { commitNoteCollections, commitNoteKeys, keySpace, repositoryCollections, repositoryKeys } from '../../shared/repository/store/keys';
import { ownPool } from '../../shared/repository/store/repositories';
import { describeKeySpace } from '../support/key-space';

const tableKeys = {
  repository: [() => repositoryKeys.repository(7), () => repositoryKeys.repository(7, 'wiki')],
  ref: [() => repositoryKeys.ref(7, 'refs/heads/main'), () => repositoryKeys.ref(7, 'refs/heads/main', 'wiki')],
  protectedBranch: () => repositoryKeys.protectedBranch(7, 'release/*'),
  protectedTag: () => repositoryKeys.protectedTag(7, 'v*'),
  languages: () => repositoryKeys.languages(7),
  pool: [() => repositoryKeys.pool(ownPool(7)), () => repositoryKeys.pool(ownPool(7, 'wiki'))],
  poolMember: () => repositoryKeys.poolMember('wiki-7', 7),
  pack: () => repositoryKeys.pack('7', 'a'.repeat(40)),
} satisfies Record<keyof typeof repositoryKeys, (() => Key) | Array<() => Key>>;

const collections = {
  refs: [() => repositoryCollections.refs(7), () => repositoryCollections.refs(7, 'refs/tags/'), () => repositoryCollections.refs(7, '', 'wiki')],
  protectedBranches: () => repositoryCollections.protectedBranches(7),
  protectedTags: () => repositoryCollections.protectedTags(7),
  packs: () => repositoryCollections.packs('wiki-7'),
  poolMembers: () => repositoryCollections.poolMembers('7'),
} satisfies Record<keyof typeof repositoryCollections, (() => Collection) | Array<() => Collection>>;

describeKeySpace(
  {
    feature: 'repository',
    keySpace,
    keys: { name: 'repositoryKeys', builders: repositoryKeys, samples: tableKeys },
    collections: { name: 'repositoryCollections', builders: repositoryCollections, samples: collections },
    partitions: ['PROJECT#', 'POOL#'],
    outside: { PK: 'PROJECT#7', SK: 'WIDGET#000000000001' },
  },
  () => {
    it("keeps a wiki's refs apart from the project's: neither collection reads the other's items", () => {
      const code = repositoryCollections.refs(7) as unknown as Record<string, string>;
      const wiki = repositoryCollections.refs(7, '', 'wiki') as unknown as Record<string, string>;
      expect(JSON.stringify(code)).not.toContain('WIKI_REF#');
      expect(JSON.stringify(wiki)).toContain('WIKI_REF#');
      expect(repositoryKeys.ref(7, 'refs/heads/main', 'wiki').SK.startsWith('REF#')).toBe(false);
      expect(ownPool(7, 'wiki')).not.toBe(ownPool(7));
    });

    it('builds the commit notes keys inside the space too', () => {
      const keys = [commitNoteKeys.note(7, 'a'.repeat(40), 3), commitNoteKeys.discussion(7, 'd'.repeat(40))];
      const notes = commitNoteCollections.notes(7, 'a'.repeat(40)) as unknown as Record<string, string>;
      for (const key of keys) expect(keySpace.sortKeys['PROJECT#'].some((prefix) => key.SK.startsWith(prefix))).toBe(true);
      expect(JSON.stringify(notes)).toContain('COMMIT_NOTE#');
    });
  },
);
