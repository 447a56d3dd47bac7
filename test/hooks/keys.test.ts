/**
 * The hooks feature's keys stay inside the key space it declares (`keySpace` in
 * `shared/hooks/store/keys.ts`), which the platform's key-spaces test checks against every other
 * feature's: each key builder and collection is called with sample arguments, and the sequences
 * its writes draw ids from are declared.
 */
import { TransactWriteCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it, vi } from 'vitest';
import { keySpace as auth } from '../../shared/auth/store/keys';
import { keySpace as groups } from '../../shared/namespaces/store/keys';
import { prepareHookEvent, type NewHookEvent } from '../../shared/hooks/store/hook-events';
import { DEFAULT_HOOK_TRIGGERS, insertHook } from '../../shared/hooks/store/hooks';
import { hookCollections, hookKeys, keySpace } from '../../shared/hooks/store/keys';
import { keySpace as issues } from '../../shared/issues/store/keys';
import { keys, type Collection, type Key } from '../../shared/platform/dynamo/keys';
import { keySpace as projects } from '../../shared/projects/store/keys';
import { keySpace as users } from '../../shared/users/store/keys';
import { useMockedTable } from '../support/mocked-table';

const ddbMock = useMockedTable('hook-keys-test');

/** Partitions other features own (hook items live in a project's partition). */
const othersPartitions = [auth, groups, issues, projects, users].flatMap((space) => space.partitions);

/** Every table key builder, with sample arguments (the type makes a new builder without a sample a compile error). */
const tableKeys = {
  hook: () => hookKeys.hook(7, 12),
  hookEvent: () => hookKeys.hookEvent(7, 41),
} satisfies Record<keyof typeof hookKeys, () => Key>;

const collections = {
  projectHooks: () => hookCollections.projectHooks(7),
} satisfies Record<keyof typeof hookCollections, () => Collection>;

/** The longest declared partition prefix `pk` starts with, the feature's own first, then another feature's. */
function partitionOf(pk: string): string | undefined {
  const longest = (prefixes: readonly string[]) => prefixes.filter((prefix) => pk.startsWith(prefix)).sort((a, b) => b.length - a.length)[0];
  return longest(keySpace.partitions) ?? longest(othersPartitions);
}

/** The sort-key prefixes the feature declares under a partition prefix. */
const sortKeysOf = (partition: string) => keySpace.sortKeys[partition] ?? [];

const startsWithAny = (value: string, prefixes: readonly string[]) => prefixes.some((prefix) => value.startsWith(prefix));

describe('hooks key builders stay in the declared key space', () => {
  it('has a sample for every builder', () => {
    expect(Object.keys(tableKeys).sort()).toEqual(Object.keys(hookKeys).sort());
    expect(Object.keys(collections).sort()).toEqual(Object.keys(hookCollections).sort());
  });

  it.each(Object.entries(tableKeys))('hookKeys.%s: PK under a declared partition, SK under its declared sort-key prefixes', (_name, build) => {
    // Act
    const key = build();
    const partition = partitionOf(key.PK);
    // Assess
    expect(partition, `PK ${key.PK}`).toBe('PROJECT#');
    const sortKeys = sortKeysOf(partition ?? '');
    expect(sortKeys, `sort keys declared under ${partition}`).not.toEqual([]);
    expect(startsWithAny(key.SK, sortKeys), `SK ${key.SK} under ${partition}`).toBe(true);
  });

  it.each(Object.entries(collections))('hookCollections.%s: reads a declared partition and sort-key prefix', (_name, build) => {
    // Act
    const collection = build();
    // Assess
    expect(collection.index).toBeUndefined();
    const partition = partitionOf(collection.partitionValue);
    expect(partition, `PK ${collection.partitionValue}`).toBeDefined();
    expect(startsWithAny(collection.prefix ?? '', sortKeysOf(partition ?? '')), collection.prefix).toBe(true);
  });

  it('lists hooks, and not the outbox items beside them, in the collection of a project\'s hooks', () => {
    // Prepare
    const within = (key: Key, collection: Collection) => key.PK === collection.partitionValue && key.SK.startsWith(collection.prefix ?? '');
    // Assess
    expect(within(hookKeys.hook(7, 12), hookCollections.projectHooks(7))).toBe(true);
    expect(within(hookKeys.hookEvent(7, 41), hookCollections.projectHooks(7))).toBe(false);
    expect(within(hookKeys.hook(8, 12), hookCollections.projectHooks(7))).toBe(false);
  });

  it('draws ids only from the sequences it declares', async () => {
    // Prepare
    ddbMock.on(UpdateCommand).resolves({ Attributes: { value: 3 } });
    ddbMock.on(TransactWriteCommand).resolves({});
    const event = { projectId: 7, actorId: 1, kind: 'ping', action: 'ping' } as unknown as NewHookEvent;
    vi.spyOn(process.stdout, 'write').mockImplementation(() => true); // the warning about a kind without a stored form
    // Act
    await insertHook(7, { url: 'https://ci.example.com/hook', ...DEFAULT_HOOK_TRIGGERS }, undefined);
    await prepareHookEvent(event);
    // Assess
    vi.restoreAllMocks();
    const counters = ddbMock.commandCalls(UpdateCommand).map((call) => call.args[0].input.Key);
    expect(counters).toEqual(keySpace.sequences.map((name) => keys.counter(name)));
  });

  it('finds a key outside the declared space (the check itself can fail)', () => {
    expect(partitionOf('NOBODY#1')).toBeUndefined();
    expect(startsWithAny('WIDGET#000000000001', sortKeysOf('PROJECT#'))).toBe(false);
  });
});
