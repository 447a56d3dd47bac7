/**
 * The hooks feature's keys stay inside the key space it declares (`keySpace` in
 * `shared/hooks/store/keys.ts`), which the platform's key-spaces test checks against every other
 * feature's: each key builder and collection is called with sample arguments, and the sequences
 * its writes draw ids from are declared.
 */
import { TransactWriteCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { expect, it, vi } from 'vitest';
import { prepareHookEvent, type NewHookEvent } from '../../shared/hooks/store/hook-events';
import { DEFAULT_HOOK_TRIGGERS, insertHook } from '../../shared/hooks/store/hooks';
import { hookCollections, hookKeys, keySpace } from '../../shared/hooks/store/keys';
import { type Collection, type Key } from '../../shared/platform/dynamo/keys';
import { describeKeySpace } from '../support/key-space';
import { useMockedTable } from '../support/mocked-table';
import { idsEndAt, sequencesDrawn } from '../support/ids';

const ddbMock = useMockedTable('hook-keys-test');

/** Every table key builder, with sample arguments (the type makes a new builder without a sample a compile error). */
const tableKeys = {
  hook: () => hookKeys.hook(7, 12),
  hookEvent: () => hookKeys.hookEvent(7, 41),
  systemHook: () => hookKeys.systemHook(3),
  systemHookEvent: () => hookKeys.systemHookEvent('0b7e4c1e-2f6a-4d2b-9a51-3f0c2d1e5a77'),
} satisfies Record<keyof typeof hookKeys, () => Key>;

const collections = {
  projectHooks: () => hookCollections.projectHooks(7),
  systemHooks: () => hookCollections.systemHooks(),
} satisfies Record<keyof typeof hookCollections, () => Collection>;

describeKeySpace(
  {
    feature: 'hooks',
    keySpace,
    keys: { name: 'hookKeys', builders: hookKeys, samples: tableKeys },
    collections: { name: 'hookCollections', builders: hookCollections, samples: collections },
    partitions: ['PROJECT#', 'SYSTEM_HOOKS', 'SYSTEM_HOOK_EVENT#'],
    outside: { PK: 'PROJECT#000000000007', SK: 'WIDGET#000000000001' },
  },
  () => {
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
      ddbMock.on(UpdateCommand).callsFake(idsEndAt(3));
      ddbMock.on(TransactWriteCommand).resolves({});
      const event = { projectId: 7, actorId: 1, kind: 'ping', action: 'ping' } as unknown as NewHookEvent;
      vi.spyOn(process.stdout, 'write').mockImplementation(() => true); // the warning about a kind without a stored form
      // Act
      await insertHook(7, { url: 'https://ci.example.com/hook', ...DEFAULT_HOOK_TRIGGERS }, undefined);
      await prepareHookEvent(event);
      // Assess
      vi.restoreAllMocks();
      const drawn = sequencesDrawn(ddbMock.commandCalls(UpdateCommand).map((call) => call.args[0].input));
      expect(drawn).toEqual(keySpace.sequences);
    });
  },
);
