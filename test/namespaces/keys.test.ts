/**
 * The groups feature's keys stay inside the key space it declares (`keySpace` in
 * `shared/namespaces/store/keys.ts`), which the platform's key-spaces test checks against every other
 * feature's: each key builder, index attribute and collection is called with sample arguments.
 */
import { expect, it } from 'vitest';
import { keySpace, namespaceCollections, namespaceIndexKeys, namespaceKeys, namespaceObjects } from '../../shared/namespaces/store/keys';
import { namespaceToItem, personalNamespace, type Namespace } from '../../shared/namespaces/store/namespaces';
import type { Collection, Key } from '../../shared/platform/dynamo/keys';
import type { IndexName } from '../../shared/platform/dynamo/table-definition';
import { describeKeySpace } from '../support/key-space';

/** Every table key builder, with sample arguments (the type makes a new builder without a sample a compile error). */
const tableKeys = {
  namespace: () => namespaceKeys.namespace(7),
  groupLink: () => namespaceKeys.groupLink(7, 3),
} satisfies Record<Exclude<keyof typeof namespaceKeys, 'claims'>, () => Key>;

const claimKeys = {
  projectPath: () => namespaceKeys.claims.projectPath(7, 'My-Project'),
  namespacePath: () => namespaceKeys.claims.namespacePath('Platform/Backend'),
} satisfies Record<keyof typeof namespaceKeys.claims, () => Key>;

const indexKeys = {
  namespaceList: () => namespaceIndexKeys.namespaceList(7),
  groupList: () => namespaceIndexKeys.groupList(7),
  subgroups: () => namespaceIndexKeys.subgroups(3, 7),
  groupLinksTo: () => namespaceIndexKeys.groupLinksTo(3, 7),
} satisfies Record<keyof typeof namespaceIndexKeys, () => Record<string, string>>;

const collections = {
  namespaces: () => namespaceCollections.namespaces(),
  groups: () => namespaceCollections.groups(),
  subgroups: () => namespaceCollections.subgroups(3),
  groupLinksTo: () => namespaceCollections.groupLinksTo(3),
  namespacePartition: () => namespaceCollections.namespacePartition(7),
} satisfies Record<keyof typeof namespaceCollections, () => Collection>;

/** Every S3 object key builder, with sample arguments. */
const objectKeys = {
  groupAvatar: () => namespaceObjects.groupAvatar(7, '0123456789abcdef0123456789abcdef', 'logo.png'),
} satisfies Record<keyof typeof namespaceObjects, () => string>;

/** The index partitions among `attributes` (`GSI<n>PK`), each with its index. */
const indexPartitionsOf = (attributes: Record<string, unknown>) =>
  Object.entries(attributes).flatMap(([name, value]) => (/^GSI\dPK$/.test(name) ? [{ index: name.slice(0, -2) as IndexName, value: String(value) }] : []));

const subgroup: Namespace = {
  ...personalNamespace({ id: 7, username: 'backend', ownerId: 1, createdAt: '2024-05-06T00:00:00.000Z' }),
  kind: 'group',
  fullPath: 'platform/backend',
  parentId: 3,
  ancestorIds: [3],
  ownerId: null,
  subgroupCount: 0,
};

describeKeySpace(
  {
    feature: 'groups',
    keySpace,
    keys: { name: 'namespaceKeys', builders: namespaceKeys, samples: tableKeys, claims: claimKeys },
    indexKeys: { name: 'namespaceIndexKeys', builders: namespaceIndexKeys, samples: indexKeys },
    collections: { name: 'namespaceCollections', builders: namespaceCollections, samples: collections, wholePartition: ['namespacePartition'] },
    outside: { PK: 'NAMESPACE#000000000007', SK: 'MEMBER#000000000001' },
  },
  () => {
    it('writes a subgroup item under its keys and the three namespace indexes, each read by its collection', () => {
      // Act
      const item = namespaceToItem(subgroup);
      // Assess
      expect({ PK: item.PK, SK: item.SK }).toEqual(namespaceKeys.namespace(7));
      expect(indexPartitionsOf(item).map(({ index }) => index).sort()).toEqual(['GSI1', 'GSI2', 'GSI3']);
      for (const collection of [namespaceCollections.namespaces(), namespaceCollections.groups(), namespaceCollections.subgroups(3)]) {
        expect(item[collection.partitionAttribute], collection.partitionValue).toBe(collection.partitionValue);
      }
      expect(item.PK).toBe(namespaceCollections.namespacePartition(7).partitionValue);
    });

    it.each(Object.entries(objectKeys))('namespaceObjects.%s: under the group prefix, groups/<id>/', (_name, build) => {
      // Act
      const key = build();
      // Assess
      expect(key.startsWith('groups/7/'), key).toBe(true);
    });

    it('keeps one group’s avatar objects apart from another’s (groups/7/ is no prefix of groups/70/)', () => {
      // Act
      const ofGroup70 = namespaceObjects.groupAvatar(70, 'ab'.repeat(16), 'a.png');
      // Assess
      expect(ofGroup70).toBe(`groups/70/avatar/${'ab'.repeat(16)}/a.png`);
      expect(ofGroup70.startsWith('groups/7/')).toBe(false);
    });

    it('writes a personal namespace to the namespaces index only', () => {
      // Act
      const item = namespaceToItem(personalNamespace({ id: 8, username: 'alice', ownerId: 2, createdAt: '2024-05-06T00:00:00.000Z' }));
      // Assess
      expect(indexPartitionsOf(item)).toEqual([{ index: 'GSI1', value: 'NAMESPACES' }]);
    });
  },
);
