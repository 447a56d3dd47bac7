/**
 * The users feature's keys stay inside the key space it declares (`keySpace` in
 * `shared/users/store/keys.ts`), which the platform's key-spaces test checks against every other
 * feature's: each key builder, index attribute and collection is called with sample arguments.
 */
import { describe, expect, it } from 'vitest';
import { keySpace as auth } from '../../shared/auth/store/keys';
import { keySpace as groups } from '../../shared/namespaces/store/keys';
import { keySpace as hooks } from '../../shared/hooks/store/keys';
import { keySpace as issues } from '../../shared/issues/store/keys';
import type { Collection, Key } from '../../shared/platform/dynamo/keys';
import type { IndexName } from '../../shared/platform/dynamo/table-definition';
import { keySpace as projects } from '../../shared/projects/store/keys';
import { keySpace, userCollections, userIndexKeys, userKeys } from '../../shared/users/store/keys';

/** Partitions other features own (a users key may live under one, e.g. an item in a project's partition). */
const othersPartitions = [auth, groups, hooks, issues, projects].flatMap((space) => space.partitions);

/** Every table key builder, with sample arguments (the type makes a new builder without a sample a compile error). */
const tableKeys = {
  user: () => userKeys.user(7),
  sshKey: () => userKeys.sshKey(7, 12),
  email: () => userKeys.email(7, 13),
  token: () => userKeys.token(7, 14),
  tokenDigest: () => userKeys.tokenDigest('9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08'),
  stats: () => userKeys.stats(),
} satisfies Record<Exclude<keyof typeof userKeys, 'claims'>, () => Key>;

const claimKeys = {
  email: () => userKeys.claims.email('Alice@Example.com'),
  sshFingerprint: () => userKeys.claims.sshFingerprint('SHA256:nThbg6kXUpJWGl7E1IGOCspRomTxdCARLviKw6E5SY8'),
  identity: () => userKeys.claims.identity('LDAP', 'uid=alice,ou=people'),
} satisfies Record<keyof typeof userKeys.claims, () => Key>;

const indexKeys = {
  userList: () => userIndexKeys.userList(7),
  userState: () => userIndexKeys.userState('blocked', 7),
  userActivity: () => userIndexKeys.userActivity('2024-05-06', 7),
  sshKeyById: () => userIndexKeys.sshKeyById(12),
} satisfies Record<keyof typeof userIndexKeys, () => Record<string, string>>;

const collections = {
  users: () => userCollections.users(),
  usersInState: () => userCollections.usersInState('active'),
  usersActiveSince: () => userCollections.usersActiveSince('2024-05-06'),
  userSshKeys: () => userCollections.userSshKeys(7),
  userEmails: () => userCollections.userEmails(7),
  userTokens: () => userCollections.userTokens(7),
  userPartition: () => userCollections.userPartition(7),
  sshKeyById: () => userCollections.sshKeyById(12),
} satisfies Record<keyof typeof userCollections, () => Collection>;

/** The longest declared partition prefix `pk` starts with, the feature's own first, then another feature's. */
function partitionOf(pk: string): string | undefined {
  const longest = (prefixes: readonly string[]) => prefixes.filter((prefix) => pk.startsWith(prefix)).sort((a, b) => b.length - a.length)[0];
  return longest(keySpace.partitions) ?? longest(othersPartitions);
}

/** The sort-key prefixes the feature declares under a partition prefix. */
const sortKeysOf = (partition: string) => keySpace.sortKeys[partition] ?? [];

const startsWithAny = (value: string, prefixes: readonly string[]) => prefixes.some((prefix) => value.startsWith(prefix));

const allTableKeys = { ...tableKeys, ...Object.fromEntries(Object.entries(claimKeys).map(([name, build]) => [`claims.${name}`, build])) };

describe('users key builders stay in the declared key space', () => {
  it('has a sample for every builder', () => {
    // Prepare
    const declared = (builders: object) => Object.keys(builders).sort();
    // Assess
    expect(Object.keys(tableKeys).sort()).toEqual(declared(userKeys).filter((name) => name !== 'claims'));
    expect(Object.keys(claimKeys).sort()).toEqual(declared(userKeys.claims));
    expect(Object.keys(indexKeys).sort()).toEqual(declared(userIndexKeys));
    expect(Object.keys(collections).sort()).toEqual(declared(userCollections));
  });

  it.each(Object.entries(allTableKeys))('userKeys.%s: PK under a declared partition, SK under its declared sort-key prefixes', (_name, build) => {
    // Act
    const key = build();
    const partition = partitionOf(key.PK);
    // Assess
    expect(partition, `PK ${key.PK}`).toBeDefined();
    const sortKeys = sortKeysOf(partition ?? '');
    expect(sortKeys, `sort keys declared under ${partition}`).not.toEqual([]);
    expect(startsWithAny(key.SK, sortKeys), `SK ${key.SK} under ${partition}`).toBe(true);
  });

  it.each(Object.entries(indexKeys))('userIndexKeys.%s: every index partition among the declared indexPartitions', (_name, build) => {
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

  it.each(Object.entries(collections))('userCollections.%s: reads a declared partition (and sort-key prefix)', (_name, build) => {
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
    // An empty prefix reads the whole partition (deleting a user); any other is a declared sort-key prefix.
    if (collection.prefix) expect(startsWithAny(collection.prefix, sortKeysOf(partition ?? '')), collection.prefix).toBe(true);
  });

  it('lists each child item in the collection that reads it', () => {
    // Prepare
    const within = (key: Key, collection: Collection) =>
      !collection.index && key.PK === collection.partitionValue && key.SK.startsWith(collection.prefix ?? '');
    // Assess
    expect(within(userKeys.sshKey(7, 12), userCollections.userSshKeys(7))).toBe(true);
    expect(within(userKeys.email(7, 13), userCollections.userEmails(7))).toBe(true);
    expect(within(userKeys.token(7, 14), userCollections.userTokens(7))).toBe(true);
    expect(within(userKeys.email(7, 13), userCollections.userSshKeys(7))).toBe(false);
    for (const key of [userKeys.user(7), userKeys.sshKey(7, 12), userKeys.email(7, 13), userKeys.token(7, 14)]) {
      expect(within(key, userCollections.userPartition(7))).toBe(true);
    }
  });

  it('finds a key outside the declared space (the check itself can fail)', () => {
    expect(partitionOf('NOBODY#1')).toBeUndefined();
    expect(startsWithAny('WIDGET#000000000001', sortKeysOf('USER#'))).toBe(false);
  });
});
