/**
 * `putMany` (`shared/platform/dynamo/batch.ts`): items in read-your-writes index partitions get
 * their journal entries in the same batches, ahead of them; a bulk write no client waits to list
 * (`journal: false`: an import, a data migration's rebuild) writes the items alone. A mocked table
 * answers, to see the batches.
 */
import { BatchWriteCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import '../../shared/issues/store/keys'; // declares the issue lists read-your-writes
import { putMany } from '../../shared/platform/dynamo/batch';
import { useMockedTable } from '../support/mocked-table';

const mock = useMockedTable('bulk-writes-test');

const issue = (iid: number) => ({ PK: 'PROJECT#5', SK: `ISSUE#${iid}`, GSI1PK: 'PROJECT_ISSUES#5#opened', GSI1SK: `x${iid}` });
const written = () => mock.commandCalls(BatchWriteCommand).flatMap((call) => Object.values(call.args[0].input.RequestItems!)[0].map((r) => `${r.PutRequest!.Item!.PK} ${r.PutRequest!.Item!.type ?? r.PutRequest!.Item!.SK}`));

describe('putMany', () => {
  it('journals the items of read-your-writes partitions, ahead of them', async () => {
    mock.on(BatchWriteCommand).resolves({});
    await putMany([issue(1), issue(2)]);
    // One entry of the project's state lists' journal names both issues.
    expect(written()).toEqual(['RECENT#PROJECT_ISSUES#5 RecentWrite', 'PROJECT#5 JournalMark', 'PROJECT#5 ISSUE#1', 'PROJECT#5 ISSUE#2']);
  });

  it('writes only the items of a bulk write, in batches of 25', async () => {
    mock.on(BatchWriteCommand).resolves({});
    await putMany(Array.from({ length: 30 }, (_, i) => issue(i + 1)), { journal: false });
    expect(written()).toEqual(Array.from({ length: 30 }, (_, i) => `PROJECT#5 ISSUE#${i + 1}`));
    expect(mock.commandCalls(BatchWriteCommand).map((call) => Object.values(call.args[0].input.RequestItems!)[0].length)).toEqual([25, 5]);
  });
});
