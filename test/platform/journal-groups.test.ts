/**
 * Partitions read together share a journal (`journalTogether`): a project's state lists (a list of
 * every state reads its `opened` and `closed` partitions), its filtered lists and its search terms
 * each have one journal, read once per list read. A write puts one entry per journal, naming its
 * items with their partitions, and a reader loads only the items named in its own partition.
 */
import { BatchGetCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import { issueCollections, issueKeys } from '../../shared/issues/store/keys';
import type { Item } from '../../shared/platform/dynamo/query';
import { RECENT_WINDOW_MS, journalEntries, quietJournals } from '../../shared/platform/dynamo/recent';
import { mergedCollections } from '../../shared/platform/http/pagination';
import { useMockedTable } from '../support/mocked-table';

const ddb = useMockedTable('journal-groups-test');

const journalQueries = () =>
  ddb.commandCalls(QueryCommand).filter((call) => String(call.args[0].input.ExpressionAttributeValues?.[':pk']).startsWith('RECENT#'));
const loadedKeys = () => ddb.commandCalls(BatchGetCommand).flatMap((call) => Object.values(call.args[0].input.RequestItems!)[0].Keys!.map((key) => key.SK));
const journalOnly = (entries: Item[]) => entries.filter((entry) => entry.type === 'RecentWrite');

describe('journals shared by the partitions of one list', () => {
  it('journals a write to either state partition of a project’s issues under the project’s one journal', () => {
    const opened = journalEntries([{ PK: 'PROJECT#5', SK: 'ISSUE#1', GSI1PK: 'PROJECT_ISSUES#5#opened', GSI1SK: 'x' }]);
    const closed = journalEntries([{ PK: 'PROJECT#5', SK: 'ISSUE#2', GSI1PK: 'PROJECT_ISSUES#5#closed', GSI1SK: 'x' }]);
    const filtered = journalEntries([{ PK: 'PROJECT#5', SK: 'ISSUE_ENTRY#label:3#closed#1', GSI1PK: 'ISSUE_LIST#5#label:3#closed', GSI1SK: 'x' }]);

    expect(journalOnly([...opened, ...closed]).map((entry) => entry.PK)).toEqual(['RECENT#PROJECT_ISSUES#5', 'RECENT#PROJECT_ISSUES#5']);
    expect(journalOnly(filtered).map((entry) => entry.PK)).toEqual(['RECENT#ISSUE_LIST#5']);
    // An issue is in its state's list and in the list of every state: one entry names it in both.
    const both = journalEntries([{ PK: 'PROJECT#5', SK: 'ISSUE#3', GSI1PK: 'PROJECT_ISSUES#5#opened', GSI1SK: 'x', GSI7PK: 'PROJECT_ISSUES#5#all', GSI7SK: 'x' }]);
    expect(journalOnly(both).map((entry) => entry.names)).toEqual([[{ PK: 'PROJECT#5', SK: 'ISSUE#3', in: ['PROJECT_ISSUES#5#opened', 'PROJECT_ISSUES#5#all'] }]]);
    // Other partitions keep a journal of their own.
    expect(journalEntries([{ PK: 'USER#7', SK: 'X', GSI1PK: 'USER_ISSUES#7', GSI1SK: 'x' }]).map((entry) => entry.PK)).toEqual(['RECENT#USER_ISSUES#7']);
  });

  it('puts one entry per journal for a write of many items (an issue with labels and words), naming each item in its partitions', () => {
    const label = (id: number) => ({ PK: 'PROJECT#5', SK: `ISSUE_ENTRY#label:${id}#opened#1`, GSI1PK: `ISSUE_LIST#5#label:${id}#opened`, GSI1SK: 'x', GSI2PK: `ISSUE_LIST#5#label:${id}`, GSI2SK: 'x' });
    const term = (word: string) => ({ PK: 'PROJECT#5', SK: `ISSUE_TERM#${word}#1`, GSI1PK: `ISSUE_SEARCH#5#${word}`, GSI1SK: 'x' });
    const issue = { PK: 'PROJECT#5', SK: 'ISSUE#1', GSI1PK: 'PROJECT_ISSUES#5#opened', GSI1SK: 'x', GSI2PK: 'USER_ISSUES#7', GSI2SK: 'x' };

    const entries = journalOnly(journalEntries([issue, label(1), label(2), term('fix'), term('log'), term('login')]));

    expect(entries.map((entry) => entry.PK).sort()).toEqual(['RECENT#ISSUE_LIST#5', 'RECENT#ISSUE_SEARCH#5', 'RECENT#PROJECT_ISSUES#5', 'RECENT#USER_ISSUES#7']);
    const namesIn = (pk: string) => entries.find((entry) => entry.PK === pk)!.names;
    expect(namesIn('RECENT#ISSUE_LIST#5')).toEqual([
      { PK: 'PROJECT#5', SK: 'ISSUE_ENTRY#label:1#opened#1', in: ['ISSUE_LIST#5#label:1#opened', 'ISSUE_LIST#5#label:1'] },
      { PK: 'PROJECT#5', SK: 'ISSUE_ENTRY#label:2#opened#1', in: ['ISSUE_LIST#5#label:2#opened', 'ISSUE_LIST#5#label:2'] },
    ]);
    expect(namesIn('RECENT#ISSUE_SEARCH#5').map((name: { in: string[] }) => name.in)).toEqual([['ISSUE_SEARCH#5#fix'], ['ISSUE_SEARCH#5#log'], ['ISSUE_SEARCH#5#login']]);
  });

  it('keys two writes naming one item in the same millisecond apart (neither entry replaces the other)', () => {
    const at = Date.now();
    const closing = journalEntries([{ PK: 'PROJECT#5', SK: 'ISSUE#1', GSI1PK: 'PROJECT_ISSUES#5#closed', GSI1SK: 'x' }, { PK: 'PROJECT#5', SK: 'ISSUE#1', GSI1PK: 'PROJECT_ISSUES#5#opened', GSI1SK: 'x' }], at);
    const touching = journalEntries([{ PK: 'PROJECT#5', SK: 'ISSUE#1', GSI1PK: 'PROJECT_ISSUES#5#closed', GSI1SK: 'y' }], at);
    expect(journalOnly(closing)[0].SK).not.toBe(journalOnly(touching)[0].SK);
    expect(journalOnly(closing)[0].names).toEqual([{ PK: 'PROJECT#5', SK: 'ISSUE#1', in: ['PROJECT_ISSUES#5#closed', 'PROJECT_ISSUES#5#opened'] }]);
  });

  it('splits a journal’s names over entries of at most 100 items, each keyed by its first item', () => {
    const terms = Array.from({ length: 250 }, (_, i) => ({ PK: 'PROJECT#5', SK: `ISSUE_TERM#w${String(i).padStart(3, '0')}#1`, GSI1PK: `ISSUE_SEARCH#5#w${i}`, GSI1SK: 'x' }));
    const entries = journalOnly(journalEntries(terms));
    expect(entries.map((entry) => (entry.names as unknown[]).length)).toEqual([100, 100, 50]);
    expect(new Set(entries.map((entry) => entry.SK)).size).toBe(3);
  });

  it('reads the shared journal once for a list of both states, and each state loads and keeps its own items', async () => {
    // Prepare: the journal names an opened and a closed issue, and a filtered list's entry in
    // another partition of it; the index pages are empty (lagging).
    const journal = { PK: 'RECENT#PROJECT_ISSUES#5', type: 'RecentWrite' };
    ddb.on(QueryCommand, { ExpressionAttributeValues: { ':pk': 'RECENT#PROJECT_ISSUES#5' } }).resolves({
      Items: [
        { ...journal, SK: `${new Date().toISOString()}#PROJECT#5#ISSUE#1`, names: [{ PK: 'PROJECT#5', SK: 'ISSUE#1', in: ['PROJECT_ISSUES#5#opened'] }] },
        { ...journal, SK: `${new Date().toISOString()}#PROJECT#5#ISSUE#2`, names: [{ PK: 'PROJECT#5', SK: 'ISSUE#2', in: ['PROJECT_ISSUES#5#opened', 'PROJECT_ISSUES#5#closed'] }] },
        { ...journal, SK: `${new Date().toISOString()}#PROJECT#5#ISSUE#9`, names: [{ PK: 'PROJECT#5', SK: 'ISSUE#9', in: ['PROJECT_ISSUES#5#all'] }] },
      ],
    });
    ddb.on(BatchGetCommand).resolves({
      Responses: {
        'journal-groups-test': [
          { PK: 'PROJECT#5', SK: 'ISSUE#1', GSI1PK: 'PROJECT_ISSUES#5#opened', GSI1SK: 'ISSUE#2026-01-01T00:00:01Z', iid: 1 },
          // Closed by the write: it left `opened` for `closed`.
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

    // Assess: both issues, once each, newest first; one journal Query for the two partitions, and
    // one load of the items named in them (not the one named only in the list of every state).
    expect(iids).toEqual([2, 1]);
    expect(journalQueries()).toHaveLength(1);
    expect(loadedKeys().sort()).toEqual(['ISSUE#1', 'ISSUE#2']);
    expect(ddb.commandCalls(BatchGetCommand)).toHaveLength(1);
  });

  it('reads an entry of the earlier form (one item, no partitions) as naming its item in every partition of its journal', async () => {
    ddb.on(QueryCommand, { ExpressionAttributeValues: { ':pk': 'RECENT#PROJECT_ISSUES#5' } }).resolves({
      Items: [{ PK: 'RECENT#PROJECT_ISSUES#5', SK: `${new Date().toISOString()}#PROJECT#5#ISSUE#1`, itemKey: { PK: 'PROJECT#5', SK: 'ISSUE#1' } }],
    });
    ddb.on(BatchGetCommand).resolves({
      Responses: { 'journal-groups-test': [{ PK: 'PROJECT#5', SK: 'ISSUE#1', GSI1PK: 'PROJECT_ISSUES#5#closed', GSI1SK: 'ISSUE#2026-01-01T00:00:01Z', iid: 1 }] },
    });
    const list = mergedCollections([issueCollections.projectIssues(5, 'closed')], { ascending: false, isSortKey: () => true, select: (item) => item.iid as number });

    const iids: Array<number | undefined> = [];
    for await (const { value } of list.read(undefined, 20)) iids.push(value);

    expect(iids).toEqual([1]);
  });
});

describe('the journal mark of a project’s issue lists', () => {
  const bothStates = () => [issueCollections.projectIssues(5, 'opened'), issueCollections.projectIssues(5, 'closed')];
  const listed = async (journals: ReturnType<typeof quietJournals>) => {
    const list = mergedCollections(bothStates(), { ascending: false, isSortKey: () => true, select: (item) => item.iid as number, journals });
    const iids: Array<number | undefined> = [];
    for await (const { value } of list.read(undefined, 20)) iids.push(value);
    return iids;
  };

  it('is put with every journal entry of the project’s issue lists (states, filtered lists, search), at the entry’s time', () => {
    const at = Date.parse('2026-11-27T10:00:00.000Z');
    const written = journalEntries(
      [
        { PK: 'PROJECT#5', SK: 'ISSUE#1', GSI1PK: 'PROJECT_ISSUES#5#opened', GSI1SK: 'x' },
        { PK: 'PROJECT#5', SK: 'ISSUE_ENTRY#label:3#closed#1', GSI1PK: 'ISSUE_LIST#5#label:3#closed', GSI1SK: 'x' },
        { PK: 'PROJECT#5', SK: 'ISSUE_TERM#word#1', GSI1PK: 'ISSUE_SEARCH#5#word', GSI1SK: 'x' },
      ],
      at,
    );

    // One mark for the three lists, beside their three journal entries.
    expect(written.filter((entry) => entry.type === 'JournalMark')).toEqual([{ ...issueKeys.journalMark(5), type: 'JournalMark', journaledAt: '2026-11-27T10:00:00.000Z' }]);
    expect(written.filter((entry) => entry.type === 'RecentWrite')).toHaveLength(3);
    // A user's issue list has no mark: its readers read its journal.
    expect(journalEntries([{ PK: 'USER#7', SK: 'X', GSI1PK: 'USER_ISSUES#7', GSI1SK: 'x' }]).some((entry) => entry.type === 'JournalMark')).toBe(false);
  });

  it('lets a list skip its journal while no write is within the window, and not after a write', async () => {
    // Prepare: the journal names an issue the lagging index does not show yet.
    ddb.on(QueryCommand, { ExpressionAttributeValues: { ':pk': 'RECENT#PROJECT_ISSUES#5' } }).resolves({
      Items: [{ PK: 'RECENT#PROJECT_ISSUES#5', SK: `${new Date().toISOString()}#PROJECT#5#ISSUE#1`, names: [{ PK: 'PROJECT#5', SK: 'ISSUE#1', in: ['PROJECT_ISSUES#5#opened'] }] }],
    });
    ddb.on(BatchGetCommand).resolves({
      Responses: { 'journal-groups-test': [{ PK: 'PROJECT#5', SK: 'ISSUE#1', GSI1PK: 'PROJECT_ISSUES#5#opened', GSI1SK: 'ISSUE#2026-01-01T00:00:01Z', iid: 1 }] },
    });
    const partitions = bothStates().map((c) => c.partitionValue);
    const markAt = (ms: number) => (key: { PK: string; SK: string }) =>
      key.SK === issueKeys.journalMark(5).SK ? { ...key, journaledAt: new Date(Date.now() - ms).toISOString() } : undefined;

    // Act
    const quiet = await listed(quietJournals(partitions, markAt(RECENT_WINDOW_MS + 1000)));
    const noMark = await listed(quietJournals(partitions, () => undefined));
    const queriesWhileQuiet = journalQueries().length;
    const afterWrite = await listed(quietJournals(partitions, markAt(1000)));

    // Assess: quiet (an old mark, or none) reads no journal; a recent mark reads it and finds the issue.
    expect(quiet).toEqual([]);
    expect(noMark).toEqual([]);
    expect(queriesWhileQuiet).toBe(0);
    expect(afterWrite).toEqual([1]);
    expect(journalQueries()).toHaveLength(1);
  });
});
