/**
 * The badges feature's keys stay inside the key space it declares (`keySpace` in
 * `shared/badges/store/keys.ts`): a badge lives in its project's or group's partition, which the
 * project and group deletions sweep whole (so deleting either removes its badges).
 */
import { TransactWriteCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { expect, it } from 'vitest';
import { insertBadge } from '../../shared/badges/store/badges';
import { badgeCollections, badgeKeys, keySpace } from '../../shared/badges/store/keys';
import type { Collection, Key } from '../../shared/platform/dynamo/keys';
import { describeKeySpace } from '../support/key-space';
import { idsEndAt, sequencesDrawn } from '../support/ids';
import { useMockedTable } from '../support/mocked-table';

const ddbMock = useMockedTable('badge-keys-test');

const tableKeys = {
  badge: [() => badgeKeys.badge({ kind: 'project', id: 7 }, 12), () => badgeKeys.badge({ kind: 'group', id: 3 }, 13)],
} satisfies Record<keyof typeof badgeKeys, Array<() => Key>>;

const collections = {
  badges: [() => badgeCollections.badges({ kind: 'project', id: 7 }), () => badgeCollections.badges({ kind: 'group', id: 3 })],
} satisfies Record<keyof typeof badgeCollections, Array<() => Collection>>;

describeKeySpace(
  {
    feature: 'badges',
    keySpace,
    keys: { name: 'badgeKeys', builders: badgeKeys, samples: tableKeys },
    collections: { name: 'badgeCollections', builders: badgeCollections, samples: collections },
    partitions: ['PROJECT#', 'NAMESPACE#'],
    outside: { PK: 'PROJECT#7', SK: 'WIDGET#000000000001' },
  },
  () => {
    it('draws ids only from the sequences it declares', async () => {
      // Prepare
      ddbMock.on(UpdateCommand).callsFake(idsEndAt(3));
      ddbMock.on(TransactWriteCommand).resolves({});
      // Act
      await insertBadge({ kind: 'group', id: 3 }, { name: null, linkUrl: 'https://example.com', imageUrl: 'https://example.com/b.svg' });
      // Assess
      expect(sequencesDrawn(ddbMock.commandCalls(UpdateCommand).map((call) => call.args[0].input))).toEqual(keySpace.sequences);
    });
  },
);
