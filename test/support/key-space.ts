/**
 * The standard tests that a feature's keys stay inside the key space it declares (`keySpace` in its
 * `store/keys.ts`; test/platform/key-spaces.test.ts checks the declarations against each other):
 * every key builder, index attribute and collection is called with sample arguments and what it
 * returns must lie under a declared partition and sort-key prefix. A key may live under another
 * feature's partition (a membership in a project's), so the other features' partitions count too.
 *
 * The sample maps stay in the feature's test file, typed `satisfies Record<keyof typeof xKeys, …>`,
 * so that a new builder without a sample is a compile error there.
 */
import { describe, expect, it } from 'vitest';
import { keySpace as auth } from '../../shared/auth/store/keys';
import { keySpace as badges } from '../../shared/badges/store/keys';
import { keySpace as boards } from '../../shared/boards/store/keys';
import { keySpace as ci } from '../../shared/ci/store/keys';
import { keySpace as deployTokens } from '../../shared/deploy-tokens/store/keys';
import { keySpace as hooks } from '../../shared/hooks/store/keys';
import { keySpace as issues } from '../../shared/issues/store/keys';
import { keySpace as members } from '../../shared/members/store/keys';
import { keySpace as notificationSettings } from '../../shared/notification-settings/store/keys';
import { keySpace as mergeRequests } from '../../shared/merge-requests/store/keys';
import { keySpace as groups } from '../../shared/namespaces/store/keys';
import { keySpace as packages } from '../../shared/packages/store/keys';
import type { Collection, Key, KeySpace } from '../../shared/platform/dynamo/keys';
import type { IndexName } from '../../shared/platform/dynamo/table-definition';
import { keySpace as projects } from '../../shared/projects/store/keys';
import { keySpace as releases } from '../../shared/releases/store/keys';
import { keySpace as repository } from '../../shared/repository/store/keys';
import { keySpace as snippets } from '../../shared/snippets/store/keys';
import { keySpace as terraformStates } from '../../shared/terraform-states/store/keys';
import { keySpace as users } from '../../shared/users/store/keys';

/** Every feature's declared key space. */
export const featureKeySpaces: readonly KeySpace[] = [users, groups, auth, members, projects, hooks, issues, repository, mergeRequests, ci, releases, badges, boards, notificationSettings, deployTokens, snippets, terraformStates, packages];

/** Sample calls of builders, by builder name: one call, or several (e.g. one per kind of argument). */
export type Samples<T> = Record<string, (() => T) | Array<() => T>>;

type IndexAttributes = Record<string, string | undefined>;

export interface KeySpaceSpec {
  /** The feature's name, for the describe title. */
  feature: string;
  keySpace: KeySpace;
  /** The table key builders (`name` e.g. 'userKeys'), their samples and, if any, the samples of `builders.claims`. */
  keys: { name: string; builders: object; samples: Samples<Key>; claims?: Samples<Key> };
  /** The index attribute builders; `sortKeysOnly` names the ones that write only index sort keys (moving an item in its index). */
  indexKeys?: { name: string; builders: object; samples: Samples<IndexAttributes>; sortKeysOnly?: readonly string[] };
  /** The collections; `wholePartition` names the ones that read a whole partition (no sort-key prefix). */
  collections: { name: string; builders: object; samples: Samples<Collection>; wholePartition?: readonly string[] };
  /** The only partitions the feature's table keys and collections may live under (default: any declared one). */
  partitions?: readonly string[];
  /** A key under a partition the feature uses, with a sort key it does not declare (the check must reject it). */
  outside: Key;
}

const startsWithAny = (value: string, prefixes: readonly string[]) => prefixes.some((prefix) => value.startsWith(prefix));

/** The longest of `prefixes` that `value` starts with. */
const longest = (value: string, prefixes: readonly string[]) =>
  prefixes.filter((prefix) => value.startsWith(prefix)).sort((a, b) => b.length - a.length)[0];

/** `[name, builder, build]` rows for `it.each`, one per sample (`name #n` when a builder has several). */
const rows = <T>(samples: Samples<T>): Array<[string, string, () => T]> =>
  Object.entries(samples).flatMap(([builder, sample]) =>
    Array.isArray(sample) ? sample.map((build, i): [string, string, () => T] => [`${builder} #${i + 1}`, builder, build]) : [[builder, builder, sample]],
  );

const names = (builders: object) => Object.keys(builders).sort();

/** The checks the generated tests run, each failing an `expect` when its argument is outside `keySpace`. */
export function keySpaceChecks(keySpace: KeySpace, allowed?: readonly string[]) {
  const others = featureKeySpaces.filter((space) => space !== keySpace).flatMap((space) => space.partitions);
  /** The declared partition prefix `pk` is under: the feature's own first, then another feature's. */
  const partitionOf = (pk: string): string | undefined => longest(pk, keySpace.partitions) ?? longest(pk, others);
  /** The sort-key prefixes the feature declares under a partition prefix. */
  const sortKeysOf = (partition: string) => keySpace.sortKeys[partition] ?? [];

  /** Returns the declared partition `pk` is under (one of `allowed`, if given). */
  function expectPartition(pk: string): string {
    const partition = partitionOf(pk);
    expect(partition, `PK ${pk}`).toBeDefined();
    if (allowed) expect(allowed, `PK ${pk}`).toContain(partition);
    return partition ?? '';
  }

  function tableKey(key: Key) {
    const partition = expectPartition(key.PK);
    const sortKeys = sortKeysOf(partition);
    expect(sortKeys, `sort keys declared under ${partition}`).not.toEqual([]);
    expect(startsWithAny(key.SK, sortKeys), `SK ${key.SK} under ${partition}`).toBe(true);
  }

  /** Index attributes write declared indexes, each partition among the declared ones (none if `sortKeysOnly`). */
  function indexAttributes(attributes: IndexAttributes, sortKeysOnly = false) {
    expect(Object.keys(attributes), 'index attributes').not.toEqual([]);
    expect(Object.keys(attributes).every((name) => /^GSI\d(PK|SK)$/.test(name)), Object.keys(attributes).join(', ')).toBe(true);
    const partitions = Object.entries(attributes).filter(([name]) => name.endsWith('PK'));
    if (sortKeysOnly) expect(partitions).toEqual([]);
    else expect(partitions).not.toEqual([]);
    for (const name of Object.keys(attributes)) {
      expect(keySpace.indexPartitions[name.slice(0, -2) as IndexName], `${name}: its index is declared`).toBeDefined();
    }
    for (const [name, value] of partitions) {
      const index = name.slice(0, -2) as IndexName;
      expect(attributes[`${index}SK`], `${index}SK beside ${name}`).toEqual(expect.any(String));
      expect(startsWithAny(value ?? '', keySpace.indexPartitions[index] ?? []), `${name} ${value}`).toBe(true);
    }
  }

  /** A collection reads a declared index partition, or a declared table partition and sort-key prefix (none if `whole`). */
  function collection(read: Collection, whole = false) {
    if (read.index) {
      expect(read.partitionAttribute).toBe(`${read.index}PK`);
      expect(read.sortAttribute).toBe(`${read.index}SK`);
      expect(startsWithAny(read.partitionValue, keySpace.indexPartitions[read.index] ?? []), read.partitionValue).toBe(true);
      return;
    }
    expect(read.partitionAttribute).toBe('PK');
    expect(read.sortAttribute).toBe('SK');
    const partition = expectPartition(read.partitionValue);
    // A collection reading the whole partition (deleting an entity) has no prefix; any other a
    // declared one, or a bound inside one (its reader stops at the first key outside the prefix).
    const bound = read.prefix ?? read.from ?? read.below ?? '';
    if (whole) expect(bound, `${read.partitionValue} read whole`).toBe('');
    else expect(startsWithAny(bound, sortKeysOf(partition)), `${read.partitionValue} / ${bound}`).toBe(true);
  }

  return { partitionOf, sortKeysOf, tableKey, indexAttributes, collection };
}

/**
 * Declares the standard key-space tests of a feature inside `describe('<feature> key builders stay
 * in the declared key space')`; `extra` declares the feature's own tests in the same describe.
 */
export function describeKeySpace(spec: KeySpaceSpec, extra?: () => void) {
  const { keys, indexKeys, collections } = spec;
  const check = keySpaceChecks(spec.keySpace, spec.partitions);
  const claimRows = rows(keys.claims ?? {}).map(([name, builder, build]): [string, string, () => Key] => [`claims.${name}`, builder, build]);
  const wholePartition = collections.wholePartition ?? [];

  describe(`${spec.feature} key builders stay in the declared key space`, () => {
    it('has a sample for every builder', () => {
      expect(names(keys.samples)).toEqual(names(keys.builders).filter((name) => name !== 'claims'));
      const claims = (keys.builders as { claims?: object }).claims;
      expect(names(keys.claims ?? {})).toEqual(names(claims ?? {}));
      if (indexKeys) expect(names(indexKeys.samples)).toEqual(names(indexKeys.builders));
      expect(names(collections.samples)).toEqual(names(collections.builders));
      expect(wholePartition.filter((name) => !(name in collections.samples))).toEqual([]);
      expect((indexKeys?.sortKeysOnly ?? []).filter((name) => !(name in indexKeys!.samples))).toEqual([]);
    });

    it.each([...rows(keys.samples), ...claimRows])(`${keys.name}.%s: PK under a declared partition, SK under its declared sort-key prefixes`, (_name, _builder, build) => {
      check.tableKey(build());
    });

    if (indexKeys) {
      it.each(rows(indexKeys.samples))(`${indexKeys.name}.%s: every index partition among the declared indexPartitions`, (_name, builder, build) => {
        check.indexAttributes(build(), indexKeys.sortKeysOnly?.includes(builder));
      });
    }

    it.each(rows(collections.samples))(`${collections.name}.%s: reads a declared partition (and sort-key prefix)`, (_name, builder, build) => {
      check.collection(build(), wholePartition.includes(builder));
    });

    extra?.();

    it('finds a key outside the declared space (the check itself can fail)', () => {
      expect(check.partitionOf('NOBODY#1')).toBeUndefined();
      expect(() => check.tableKey({ PK: 'NOBODY#1', SK: spec.outside.SK })).toThrow();
      expect(() => check.tableKey(spec.outside)).toThrow();
      expect(() => check.collection({ partitionAttribute: 'PK', partitionValue: spec.outside.PK, sortAttribute: 'SK', prefix: spec.outside.SK })).toThrow();
      expect(() => check.indexAttributes({ GSI1PK: 'NOBODY#1', GSI1SK: 'x' })).toThrow();
    });
  });

  return check;
}

/** `[name, build]` rows for `it.each`, one per sample (`name #n` when a builder has several). */
export const sampleRows = <T>(samples: Samples<T>): Array<[string, () => T]> => rows(samples).map(([name, , build]) => [name, build]);
