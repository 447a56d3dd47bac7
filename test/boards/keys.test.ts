/**
 * The boards feature's keys stay inside the key space it declares (`keySpace` in
 * `shared/boards/store/keys.ts`): a board lives in its project's or group's partition, and a label
 * list's entry in its label's owner's, which the project and group deletions sweep whole.
 */
import { TransactWriteCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { expect, it } from 'vitest';
import { insertBoard } from '../../shared/boards/store/boards';
import { boardCollections, boardKeys, keySpace } from '../../shared/boards/store/keys';
import type { Collection, Key } from '../../shared/platform/dynamo/keys';
import { describeKeySpace } from '../support/key-space';
import { idsEndAt, sequencesDrawn } from '../support/ids';
import { useMockedTable } from '../support/mocked-table';

const ddbMock = useMockedTable('board-keys-test');

const tableKeys = {
  board: [() => boardKeys.board({ kind: 'project', id: 7 }, 12), () => boardKeys.board({ kind: 'group', id: 3 }, 13)],
  labelList: [() => boardKeys.labelList({ kind: 'project', id: 7 }, 5, 12), () => boardKeys.labelList({ kind: 'group', id: 3 }, 6, 13)],
  groupBoardClaim: () => boardKeys.groupBoardClaim(3),
} satisfies Record<keyof typeof boardKeys, Array<() => Key> | (() => Key)>;

const collections = {
  boards: [() => boardCollections.boards({ kind: 'project', id: 7 }), () => boardCollections.boards({ kind: 'group', id: 3 })],
  labelLists: [() => boardCollections.labelLists({ kind: 'project', id: 7 }, 5), () => boardCollections.labelLists({ kind: 'group', id: 3 }, 6)],
} satisfies Record<keyof typeof boardCollections, Array<() => Collection>>;

describeKeySpace(
  {
    feature: 'boards',
    keySpace,
    keys: { name: 'boardKeys', builders: boardKeys, samples: tableKeys },
    collections: { name: 'boardCollections', builders: boardCollections, samples: collections },
    partitions: ['PROJECT#', 'NAMESPACE#'],
    outside: { PK: 'PROJECT#7', SK: 'WIDGET#000000000001' },
  },
  () => {
    it('draws ids only from the sequences it declares', async () => {
      // Prepare
      ddbMock.on(UpdateCommand).callsFake(idsEndAt(3));
      ddbMock.on(TransactWriteCommand).resolves({});
      // Act
      await insertBoard({ kind: 'group', id: 3 }, { name: 'Development', hideBacklogList: false, hideClosedList: false });
      // Assess
      expect(new Set(sequencesDrawn(ddbMock.commandCalls(UpdateCommand).map((call) => call.args[0].input)))).toEqual(new Set(keySpace.sequences));
    });
  },
);
