/**
 * The auth feature's keys (memberships) stay inside the key space it declares (`keySpace` in
 * `shared/auth/store/keys.ts`), which the platform's key-spaces test checks against every other
 * feature's: each key builder, index attribute and collection is called with sample arguments.
 * Memberships live in the partitions of their groups and projects, which other features own.
 */
import { describe, expect, it } from 'vitest';
import { keySpace, membershipCollections, membershipIndexKeys, membershipKeys, type MemberSource } from '../../shared/auth/store/keys';
import { membershipToItem } from '../../shared/auth/store/memberships';
import { keySpace as groups } from '../../shared/namespaces/store/keys';
import { keySpace as hooks } from '../../shared/hooks/store/keys';
import { keySpace as issues } from '../../shared/issues/store/keys';
import type { Collection, Key } from '../../shared/platform/dynamo/keys';
import type { IndexName } from '../../shared/platform/dynamo/table-definition';
import { keySpace as projects } from '../../shared/projects/store/keys';
import { keySpace as users } from '../../shared/users/store/keys';

/** Partitions other features own (every membership lives under one: its group's or project's). */
const othersPartitions = [groups, hooks, issues, projects, users].flatMap((space) => space.partitions);

const GROUP: MemberSource = { kind: 'group', id: 3 };
const PROJECT: MemberSource = { kind: 'project', id: 42 };

/** Every table key builder, with sample arguments for each kind of source. */
const tableKeys = {
  member: [() => membershipKeys.member(GROUP, 7), () => membershipKeys.member(PROJECT, 7)],
} satisfies Record<keyof typeof membershipKeys, Array<() => Key>>;

const indexKeys = {
  userMembership: [() => membershipIndexKeys.userMembership(7, GROUP), () => membershipIndexKeys.userMembership(7, PROJECT)],
} satisfies Record<keyof typeof membershipIndexKeys, Array<() => Record<string, string>>>;

const collections = {
  members: [() => membershipCollections.members(GROUP), () => membershipCollections.members(PROJECT)],
  userMemberships: [
    () => membershipCollections.userMemberships(7),
    () => membershipCollections.userMemberships(7, 'group'),
    () => membershipCollections.userMemberships(7, 'project'),
  ],
} satisfies Record<keyof typeof membershipCollections, Array<() => Collection>>;

/** `[name, build]` rows for `it.each`, one per sample. */
const samples = <T>(builders: Record<string, Array<() => T>>) =>
  Object.entries(builders).flatMap(([name, list]) => list.map((build, i) => [`${name} #${i + 1}`, build] as [string, () => T]));

/** The longest declared partition prefix `pk` starts with, the feature's own first, then another feature's. */
function partitionOf(pk: string): string | undefined {
  const longest = (prefixes: readonly string[]) => prefixes.filter((prefix) => pk.startsWith(prefix)).sort((a, b) => b.length - a.length)[0];
  return longest(keySpace.partitions) ?? longest(othersPartitions);
}

/** The sort-key prefixes the feature declares under a partition prefix. */
const sortKeysOf = (partition: string) => keySpace.sortKeys[partition] ?? [];

const startsWithAny = (value: string, prefixes: readonly string[]) => prefixes.some((prefix) => value.startsWith(prefix));

describe('auth key builders stay in the declared key space', () => {
  it('has a sample for every builder', () => {
    // Prepare
    const declared = (builders: object) => Object.keys(builders).sort();
    // Assess
    expect(Object.keys(tableKeys).sort()).toEqual(declared(membershipKeys));
    expect(Object.keys(indexKeys).sort()).toEqual(declared(membershipIndexKeys));
    expect(Object.keys(collections).sort()).toEqual(declared(membershipCollections));
  });

  it.each(samples(tableKeys))('membershipKeys.%s: PK under a declared partition, SK under its declared sort-key prefixes', (_name, build) => {
    // Act
    const key = build();
    const partition = partitionOf(key.PK);
    // Assess
    expect(partition, `PK ${key.PK}`).toBeDefined();
    const sortKeys = sortKeysOf(partition ?? '');
    expect(sortKeys, `sort keys declared under ${partition}`).not.toEqual([]);
    expect(startsWithAny(key.SK, sortKeys), `SK ${key.SK} under ${partition}`).toBe(true);
  });

  it.each(samples(indexKeys))('membershipIndexKeys.%s: every index partition among the declared indexPartitions', (_name, build) => {
    // Act
    const attributes: Record<string, string> = build();
    const partitions = Object.entries(attributes).filter(([name]) => /^GSI\dPK$/.test(name));
    // Assess
    expect(partitions).not.toEqual([]);
    for (const [name, value] of partitions) {
      const index = name.slice(0, -2) as IndexName;
      expect(attributes[`${index}SK`], `${index}SK beside ${name}`).toEqual(expect.any(String));
      expect(startsWithAny(value, keySpace.indexPartitions[index] ?? []), `${name} ${value}`).toBe(true);
    }
  });

  it.each(samples(collections))('membershipCollections.%s: reads a declared partition (and sort-key prefix)', (_name, build) => {
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
    expect(startsWithAny(collection.prefix ?? '', sortKeysOf(partition ?? '')), collection.prefix).toBe(true);
  });

  it.each([GROUP, PROJECT])('writes a membership of a %o where its collections read it', (source) => {
    // Prepare
    const item = membershipToItem({ sourceKind: source.kind, sourceId: source.id, userId: 7, accessLevel: 30, expiresAt: null, createdAt: '2024-05-06T00:00:00.000Z', createdById: 1 });
    const within = (collection: Collection) =>
      item[collection.partitionAttribute] === collection.partitionValue && String(item[collection.sortAttribute]).startsWith(collection.prefix ?? '');
    // Assess
    expect(within(membershipCollections.members(source))).toBe(true);
    expect(within(membershipCollections.userMemberships(7))).toBe(true);
    expect(within(membershipCollections.userMemberships(7, source.kind))).toBe(true);
    expect(within(membershipCollections.userMemberships(7, source.kind === 'group' ? 'project' : 'group'))).toBe(false);
  });

  it('finds a key outside the declared space (the check itself can fail)', () => {
    expect(partitionOf('NOBODY#1')).toBeUndefined();
    expect(startsWithAny('STAR#000000000007', sortKeysOf('PROJECT#'))).toBe(false);
  });
});
