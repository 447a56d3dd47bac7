/**
 * The issue list indexes that GSIs alone cannot give, and the counts behind list totals:
 *
 * - **list entries**: one item per filtered list an issue is in (`label:<id>`, `milestone:<id>`,
 *   `assignee:<userId>`, `author:<userId>`) and state, indexed on GSI1 by creation, so
 *   `labels=`, `milestone=`, `assignee_id=` and `author_id=` read their own list;
 * - **search entries**: one item per search term of the title and description
 *   (`shared/platform/search.ts`), indexed on GSI1 by creation;
 * - **counts**: `ISSUE_COUNT#<dimension>` items (`all` and the lists above; a label's counts are on
 *   its item) moved by `ADD` in the issue write transaction, so totals are exact without reading.
 *
 * Entries are written around the issue's transaction: the new ones before it (BatchWriteItem),
 * the ones it no longer needs after it (one DeleteItem each, conditioned on the entry having been
 * written by a write no newer than the one read, so a racing write's fresh entry survives). The
 * entries are thus always a superset of the truth; readers load the issues an entry names and
 * keep only the ones that really are in the list ({@link isCurrentEntry}), and remove an entry
 * they find stale ({@link dropStaleEntries}).
 */
import { getMany, putMany } from '../../platform/dynamo/batch';
import { tableName } from '../../platform/dynamo/client';
import { removeEntriesUpTo } from '../../platform/dynamo/entries';
import type { Key } from '../../platform/dynamo/keys';
import type { Item } from '../../platform/dynamo/query';
import type { TransactItem } from '../../platform/dynamo/transactions';
import { hasSearchTerm, searchTerms } from '../../platform/search';
import { isListEntryKey, issueIndexKeys, issueKeys, searchTermOfKey } from './keys';
import type { Issue, IssueState } from './issues';

/**
 * The data migration that rebuilds every project's entries and counts (`reindexProjectIssues`;
 * its v2 put the filtered lists' entries into the lists of every state, its v3 also puts every
 * issue into its project's list of every state, GSI7): readers keep to the lists of each state
 * until it has run on the table.
 */
export const ISSUE_INDEXES_MIGRATION = 'issue-indexes-v3';

/**
 * The data migration that puts every live issue into its project's list of every state by update
 * (GSI8, `listIssuesInEveryState`; issues written since carry it): readers of that order without a
 * `state` filter merge the states' lists until it has run on the table.
 */
export const ISSUE_UPDATE_LIST_MIGRATION = 'issue-update-list-v1';

/** A filtered list of a project's issues that has entries and a count. */
export type IssueDimension = `label:${number}` | `milestone:${number}` | `assignee:${number}` | `author:${number}`;

/** Internal: the filtered lists an issue is in (none when deleted). */
function dimensionsOf(issue: Issue): IssueDimension[] {
  if (issue.deletedAt) return [];
  return [
    ...new Set<IssueDimension>([
      ...issue.labelIds.map((id) => `label:${id}` as const),
      ...(issue.milestoneId !== null ? [`milestone:${issue.milestoneId}` as const] : []),
      ...issue.assigneeIds.map((id) => `assignee:${id}` as const),
      `author:${issue.authorId}`,
    ]),
  ];
}

/**
 * Internal: the entry items of an issue as written (`version` says which write put them), by
 * sort key: its list entries and, unless `lists` only, its search entries.
 */
function entriesOf(issue: Issue | undefined, which: 'all' | 'lists' = 'all'): Map<string, Item> {
  const entries = new Map<string, Item>();
  if (!issue || issue.deletedAt) return entries;
  const common = { type: 'IssueEntry', iid: issue.iid, version: issue.version };
  for (const dimension of dimensionsOf(issue)) {
    const key = issueKeys.listEntry(issue.projectId, dimension, issue.state, issue.iid);
    entries.set(key.SK, { ...key, ...issueIndexKeys.listEntry(issue.projectId, dimension, issue.state, issue.createdAt, issue.id), ...common });
  }
  if (which === 'lists') return entries;
  for (const term of searchTerms(issue.title, issue.description)) {
    const key = issueKeys.searchEntry(issue.projectId, term, issue.iid);
    entries.set(key.SK, { ...key, ...issueIndexKeys.searchEntry(issue.projectId, term, issue.createdAt, issue.id), ...common });
  }
  return entries;
}

/** What a write from `previous` to `next` adds before its transaction and removes after it. */
export interface EntryChanges {
  added: Item[];
  removed: Array<{ PK: string; SK: string }>;
  /** The version of the issue the write read: entries written by it or an older write may go. */
  readVersion: number;
}

export function entryChanges(previous: Issue | undefined, next: Issue): EntryChanges {
  const before = entriesOf(previous);
  const after = entriesOf(next);
  return {
    added: [...after].filter(([sk]) => !before.has(sk)).map(([, item]) => item),
    removed: [...before].filter(([sk]) => !after.has(sk)).map(([, { PK, SK }]) => ({ PK, SK })),
    readVersion: previous?.version ?? 0,
  };
}

/** Writes the entries a write adds (before its transaction). */
export async function addEntries(changes: EntryChanges[]): Promise<void> {
  const items = changes.flatMap((change) => change.added);
  if (items.length > 0) await putMany(items);
}

/** Removes the entries a successful write no longer needs, unless a newer write has put them again. */
export async function removeEntries(changes: EntryChanges[]): Promise<void> {
  await Promise.all(changes.map(({ removed, readVersion }) => removeEntriesUpTo(removed, readVersion)));
}

/**
 * Whether an entry read from a list still stands for `issue` (read after it, consistently): the
 * issue exists, is live and is in that state (a list entry's key names its state). A search
 * entry's term is checked by the caller's search match.
 */
export function isCurrentEntry(entry: Item, issue: Issue | undefined): issue is Issue {
  if (!issue || issue.deletedAt) return false;
  const sortKey = entry.SK as string;
  // A list entry is checked against the issue's lists alone, a search entry against its term alone.
  return isListEntryKey(sortKey) ? entriesOf(issue, 'lists').has(sortKey) : hasSearchTerm(searchTermOfKey(sortKey), issue.title, issue.description);
}

/**
 * Removes entries found stale by a reader: written by a write no newer than the issue read (a
 * racing write's newer entry stays); an entry whose issue is gone entirely goes too.
 */
export async function dropStaleEntries(stale: Array<{ entry: Item; issue: Issue | undefined }>): Promise<void> {
  await Promise.all(stale.map(({ entry, issue }) => removeEntriesUpTo([{ PK: entry.PK, SK: entry.SK }], issue?.version)));
}

/** The exact counts of one list: open and closed, and how many of them are confidential. */
export interface IssueCounts {
  opened: number;
  closed: number;
  confidentialOpened: number;
  confidentialClosed: number;
}

const ZERO: IssueCounts = { opened: 0, closed: 0, confidentialOpened: 0, confidentialClosed: 0 };

/** Adds `delta` to the counts of `dimension` in `totals` (a sum of many writes' count changes). */
export function addCounts(totals: Map<string, IssueCounts>, dimension: string, delta: IssueCounts): void {
  const sum = totals.get(dimension) ?? ZERO;
  totals.set(dimension, {
    opened: sum.opened + delta.opened,
    closed: sum.closed + delta.closed,
    confidentialOpened: sum.confidentialOpened + delta.confidentialOpened,
    confidentialClosed: sum.confidentialClosed + delta.confidentialClosed,
  });
}

/** Internal: what an issue adds to the counts of each list it is in (`all` included). */
function contributions(issue: Issue | undefined): Map<string, IssueCounts> {
  const counts = new Map<string, IssueCounts>();
  if (!issue || issue.deletedAt) return counts;
  const one: IssueCounts = {
    opened: Number(issue.state === 'opened'),
    closed: Number(issue.state === 'closed'),
    confidentialOpened: Number(issue.confidential && issue.state === 'opened'),
    confidentialClosed: Number(issue.confidential && issue.state === 'closed'),
  };
  for (const dimension of ['all', ...dimensionsOf(issue)]) counts.set(dimension, one);
  return counts;
}

/**
 * The count changes of a write, by list (only those that move): `label:<id>` ones are applied
 * to the label's item by the caller (conditioned on the label existing), the others to
 * `ISSUE_COUNT#<dimension>` by {@link countUpdate}.
 */
export function countChanges(previous: Issue | undefined, next: Issue): Map<string, IssueCounts> {
  const before = contributions(previous);
  const after = contributions(next);
  const changes = new Map<string, IssueCounts>();
  for (const dimension of new Set([...before.keys(), ...after.keys()])) {
    const b = before.get(dimension) ?? ZERO;
    const a = after.get(dimension) ?? ZERO;
    const delta: IssueCounts = {
      opened: a.opened - b.opened,
      closed: a.closed - b.closed,
      confidentialOpened: a.confidentialOpened - b.confidentialOpened,
      confidentialClosed: a.confidentialClosed - b.confidentialClosed,
    };
    if (Object.values(delta).some((n) => n !== 0)) changes.set(dimension, delta);
  }
  return changes;
}

/** The transaction operation moving a list's counts (`ADD`: the item appears with the first issue). */
export const countUpdate = (projectId: number, dimension: string, delta: IssueCounts): TransactItem => ({
  Update: {
    TableName: tableName(),
    Key: issueKeys.counts(projectId, dimension),
    UpdateExpression: 'ADD opened :o, closed :c, confidentialOpened :co, confidentialClosed :cc',
    ExpressionAttributeValues: { ':o': delta.opened, ':c': delta.closed, ':co': delta.confidentialOpened, ':cc': delta.confidentialClosed },
  },
});

/** Reads the counts of lists of a project (one BatchGetItem); a list never counted has zeros. */
export async function getIssueCounts(projectId: number, dimensions: string[]): Promise<Map<string, IssueCounts>> {
  const items = await getMany(dimensions.map((dimension) => issueKeys.counts(projectId, dimension)));
  const found = new Map(items.map((item) => [(item.SK as string).slice('ISSUE_COUNT#'.length), item]));
  return new Map(dimensions.map((dimension) => [dimension, countsOf(found.get(dimension))]));
}

/** Internal: the counts an `ISSUE_COUNT#` item holds (none yet: zero). */
const countsOf = (item: Item | undefined): IssueCounts =>
  item ? { opened: item.opened ?? 0, closed: item.closed ?? 0, confidentialOpened: item.confidentialOpened ?? 0, confidentialClosed: item.confidentialClosed ?? 0 } : ZERO;

/**
 * The counts of a project's whole list read along with something else: its key, and its counts
 * from what that read found (`undefined`: no item yet; `from` reads any list's `ISSUE_COUNT#` item).
 */
export const projectCounts = {
  key: (projectId: number): Key => issueKeys.counts(projectId, 'all'),
  from: (item: Item | undefined): IssueCounts => countsOf(item),
};

/** A list's counts as seen under a state filter: how many issues, and how many confidential. */
export function countIn(counts: IssueCounts, state: IssueState | 'all' | undefined): { total: number; confidential: number } {
  if (state === 'opened') return { total: counts.opened, confidential: counts.confidentialOpened };
  if (state === 'closed') return { total: counts.closed, confidential: counts.confidentialClosed };
  return { total: counts.opened + counts.closed, confidential: counts.confidentialOpened + counts.confidentialClosed };
}
