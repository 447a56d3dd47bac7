/**
 * Partitions read together share a journal (`journalTogether`): an issue list of every state
 * reads its `opened` and `closed` partitions, and their recent writes are one journal partition,
 * read once per list read; a reader keeps only the journaled items that are in its own partition.
 */
import { BatchGetCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import { issueCollections } from '../../shared/issues/store/keys';
import { journalEntries } from '../../shared/platform/dynamo/recent';
import { mergedCollections } from '../../shared/platform/http/pagination';
import { useMockedTable } from '../support/mocked-table';

const ddb = useMockedTable('journal-groups-test');

const journalQueries = () =>
  ddb.commandCalls(QueryCommand).filter((call) => String(call.args[0].input.ExpressionAttributeValues?.[':pk']).startsWith('RECENT#'));

describe('journals shared by the partitions of one list', () => {
  it('journals a write to either state partition of a project’s issues under the project’s one journal', () => {
    const opened = journalEntries([{ PK: 'PROJECT#5', SK: 'ISSUE#1', GSI1PK: 'PROJECT_ISSUES#5#opened', GSI1SK: 'x' }]);
    const closed = journalEntries([{ PK: 'PROJECT#5', SK: 'ISSUE#2', GSI1PK: 'PROJECT_ISSUES#5#closed', GSI1SK: 'x' }]);
    const filtered = journalEntries([{ PK: 'PROJECT#5', SK: 'ISSUE_ENTRY#label:3#closed#1', GSI1PK: 'ISSUE_LIST#5#label:3#closed', GSI1SK: 'x' }]);

    expect([...opened, ...closed].map((entry) => entry.PK)).toEqual(['RECENT#PROJECT_ISSUES#5', 'RECENT#PROJECT_ISSUES#5']);
    expect(filtered.map((entry) => entry.PK)).toEqual(['RECENT#ISSUE_LIST#5#label:3']);
    // Other partitions keep a journal of their own.
    expect(journalEntries([{ PK: 'USER#7', SK: 'X', GSI1PK: 'USER_ISSUES#7', GSI1SK: 'x' }]).map((entry) => entry.PK)).toEqual(['RECENT#USER_ISSUES#7']);
  });

  it('reads the shared journal once for a list of both states, and each state keeps its own items', async () => {
    // Prepare: the journal names an opened and a closed issue; the index pages are empty (lagging).
    const journal = { PK: 'RECENT#PROJECT_ISSUES#5', type: 'RecentWrite' };
    ddb.on(QueryCommand, { ExpressionAttributeValues: { ':pk': 'RECENT#PROJECT_ISSUES#5' } }).resolves({
      Items: [
        { ...journal, SK: `${new Date().toISOString()}#PROJECT#5#ISSUE#1`, itemKey: { PK: 'PROJECT#5', SK: 'ISSUE#1' } },
        { ...journal, SK: `${new Date().toISOString()}#PROJECT#5#ISSUE#2`, itemKey: { PK: 'PROJECT#5', SK: 'ISSUE#2' } },
      ],
    });
    ddb.on(BatchGetCommand).resolves({
      Responses: {
        'journal-groups-test': [
          { PK: 'PROJECT#5', SK: 'ISSUE#1', GSI1PK: 'PROJECT_ISSUES#5#opened', GSI1SK: 'ISSUE#2026-01-01T00:00:01Z', iid: 1 },
          { PK: 'PROJECT#5', SK: 'ISSUE#2', GSI1PK: 'PROJECT_ISSUES#5#closed', GSI1SK: 'ISSUE#2026-01-01T00:00:02Z', iid: 2 },
        ],
      },
    });
    const list = mergedCollections([issueCollections.projectIssues(5, 'opened'), issueCollections.projectIssues(5, 'closed')], {
      ascending: false,
      isSortKey: () => true,
      select: (item) => item.iid as number,
    });

    // Act
    const iids: Array<number | undefined> = [];
    for await (const { value } of list.read(undefined, 20)) iids.push(value);

    // Assess: both issues, once each, newest first; one journal Query for the two partitions.
    expect(iids).toEqual([2, 1]);
    expect(journalQueries()).toHaveLength(1);
  });
});
