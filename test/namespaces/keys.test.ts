/**
 * The groups feature's keys stay inside the key space it declares (`keySpace` in
 * `shared/namespaces/store/keys.ts`), which the platform's key-spaces test checks against every other
 * feature's: each key builder, index attribute and collection is called with sample arguments.
 */
import { describe, expect, it } from 'vitest';
import { keySpace as auth } from '../../shared/auth/store/keys';
import { keySpace, namespaceCollections, namespaceIndexKeys, namespaceKeys } from '../../shared/namespaces/store/keys';
import { namespaceToItem, personalNamespace, type Namespace } from '../../shared/namespaces/store/namespaces';
import { keySpace as hooks } from '../../shared/hooks/store/keys';
import { keySpace as issues } from '../../shared/issues/store/keys';
import type { Collection, Key } from '../../shared/platform/dynamo/keys';
import type { IndexName } from '../../shared/platform/dynamo/table-definition';
import { keySpace as projects } from '../../shared/projects/store/keys';
import { keySpace as users } from '../../shared/users/store/keys';

/** Partitions other features own (a groups key may live under one). */
const othersPartitions = [auth, hooks, issues, projects, users].flatMap((space) => space.partitions);

/** Every table key builder, with sample arguments (the type makes a new builder without a sample a compile error). */
const tableKeys = {
  namespace: () => namespaceKeys.namespace(7),
} satisfies Record<Exclude<keyof typeof namespaceKeys, 'claims'>, () => Key>;

const claimKeys = {
  projectPath: () => namespaceKeys.claims.projectPath(7, 'My-Project'),
  namespacePath: () => namespaceKeys.claims.namespacePath('Platform/Backend'),
} satisfies Record<keyof typeof namespaceKeys.claims, () => Key>;

const indexKeys = {
  namespaceList: () => namespaceIndexKeys.namespaceList(7),
  groupList: () => namespaceIndexKeys.groupList(7),
  subgroups: () => namespaceIndexKeys.subgroups(3, 7),
} satisfies Record<keyof typeof namespaceIndexKeys, () => Record<string, string>>;

const collections = {
  namespaces: () => namespaceCollections.namespaces(),
  groups: () => namespaceCollections.groups(),
  subgroups: () => namespaceCollections.subgroups(3),
  namespacePartition: () => namespaceCollections.namespacePartition(7),
} satisfies Record<keyof typeof namespaceCollections, () => Collection>;

/** The longest declared partition prefix `pk` starts with, the feature's own first, then another feature's. */
function partitionOf(pk: string): string | undefined {
  const longest = (prefixes: readonly string[]) => prefixes.filter((prefix) => pk.startsWith(prefix)).sort((a, b) => b.length - a.length)[0];
  return longest(keySpace.partitions) ?? longest(othersPartitions);
}

/** The sort-key prefixes the feature declares under a partition prefix. */
const sortKeysOf = (partition: string) => keySpace.sortKeys[partition] ?? [];

const startsWithAny = (value: string, prefixes: readonly string[]) => prefixes.some((prefix) => value.startsWith(prefix));

/** The index partitions among `attributes` (`GSI<n>PK`), each with its index. */
const indexPartitionsOf = (attributes: Record<string, unknown>) =>
  Object.entries(attributes).flatMap(([name, value]) => (/^GSI\dPK$/.test(name) ? [{ index: name.slice(0, -2) as IndexName, value: String(value) }] : []));

const allTableKeys = { ...tableKeys, ...Object.fromEntries(Object.entries(claimKeys).map(([name, build]) => [`claims.${name}`, build])) };

const subgroup: Namespace = {
  ...personalNamespace({ id: 7, username: 'backend', ownerId: 1, createdAt: '2024-05-06T00:00:00.000Z' }),
  kind: 'group',
  fullPath: 'platform/backend',
  parentId: 3,
  ancestorIds: [3],
  ownerId: null,
  subgroupCount: 0,
};

describe('groups key builders stay in the declared key space', () => {
  it('has a sample for every builder', () => {
    // Prepare
    const declared = (builders: object) => Object.keys(builders).sort();
    // Assess
    expect(Object.keys(tableKeys).sort()).toEqual(declared(namespaceKeys).filter((name) => name !== 'claims'));
    expect(Object.keys(claimKeys).sort()).toEqual(declared(namespaceKeys.claims));
    expect(Object.keys(indexKeys).sort()).toEqual(declared(namespaceIndexKeys));
    expect(Object.keys(collections).sort()).toEqual(declared(namespaceCollections));
  });

  it.each(Object.entries(allTableKeys))('namespaceKeys.%s: PK under a declared partition, SK under its declared sort-key prefixes', (_name, build) => {
    // Act
    const key = build();
    const partition = partitionOf(key.PK);
    // Assess
    expect(partition, `PK ${key.PK}`).toBeDefined();
    const sortKeys = sortKeysOf(partition ?? '');
    expect(sortKeys, `sort keys declared under ${partition}`).not.toEqual([]);
    expect(startsWithAny(key.SK, sortKeys), `SK ${key.SK} under ${partition}`).toBe(true);
  });

  it.each(Object.entries(indexKeys))('namespaceIndexKeys.%s: every index partition among the declared indexPartitions', (_name, build) => {
    // Act
    const attributes: Record<string, string> = build();
    const partitions = indexPartitionsOf(attributes);
    // Assess
    expect(partitions).not.toEqual([]);
    for (const { index, value } of partitions) {
      expect(attributes[`${index}SK`], `${index}SK beside ${index}PK`).toEqual(expect.any(String));
      expect(startsWithAny(value, keySpace.indexPartitions[index] ?? []), `${index}PK ${value}`).toBe(true);
    }
  });

  it.each(Object.entries(collections))('namespaceCollections.%s: reads a declared partition (and sort-key prefix)', (_name, build) => {
    // Act
    const collection = build();
    // Assess
    if (collection.index) {
      expect(collection.partitionAttribute).toBe(`${collection.index}PK`);
      expect(startsWithAny(collection.partitionValue, keySpace.indexPartitions[collection.index] ?? []), collection.partitionValue).toBe(true);
      return;
    }
    const partition = partitionOf(collection.partitionValue);
    expect(partition, `PK ${collection.partitionValue}`).toBeDefined();
    // An empty prefix reads the whole partition (deleting a group); any other is a declared sort-key prefix.
    if (collection.prefix) expect(startsWithAny(collection.prefix, sortKeysOf(partition ?? '')), collection.prefix).toBe(true);
  });

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

  it('writes a personal namespace to the namespaces index only', () => {
    // Act
    const item = namespaceToItem(personalNamespace({ id: 8, username: 'alice', ownerId: 2, createdAt: '2024-05-06T00:00:00.000Z' }));
    // Assess
    expect(indexPartitionsOf(item)).toEqual([{ index: 'GSI1', value: 'NAMESPACES' }]);
  });

  it('finds a key outside the declared space (the check itself can fail)', () => {
    expect(partitionOf('NOBODY#1')).toBeUndefined();
    expect(startsWithAny('MEMBER#000000000001', sortKeysOf('NAMESPACE#'))).toBe(false);
  });
});
