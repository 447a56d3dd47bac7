/**
 * Issue reads: one issue as the caller may see it, and the list sources of GitLab's
 * `IssuesFinder` (a project's issues, a group's, the caller's own). Lists leave out what the caller
 * may not read (confidential issues) as they read; the routes page them.
 */
import { can, projectAccessForMany, type ProjectSubject } from '../../auth';
import type { Namespace } from '../../namespaces';
import { config } from '../../platform/config';
import { hasRun } from '../../platform/dynamo/migrations';
import type { Collection, Key } from '../../platform/dynamo/keys';
import { quietJournals, type JournalReads } from '../../platform/dynamo/recent';
import { NotFoundError, ParamError } from '../../platform/http/errors';
import type { Item } from '../../platform/dynamo/query';
import { countOnePageMore, filteredCollection, mappedStream, mergedCollections, type ListSource, type StreamSource } from '../../platform/http/pagination';
import { matchesSearch, parseSearch } from '../../platform/search';
import { groupProjectIds, memberProjects } from '../../projects';
import type { User } from '../../users';
import { canReadIssue } from '../policy';
import { getProjectsWithNamespaces } from '../store/issue-lists';
import {
  countIn,
  dropStaleEntries,
  getIssueCounts,
  isCurrentEntry,
  ISSUE_INDEXES_MIGRATION,
  ISSUE_UPDATE_LIST_MIGRATION,
  projectCounts,
  type IssueCounts,
  type IssueDimension,
} from '../store/issue-index';
import { getIssue, getIssues, issueFromItem, type Issue, type IssueState } from '../store/issues';
import { isIssueOrderKey, issueCollections, issueKeys, projectIdOfPartition, type IssueOrderBy } from '../store/keys';
import { findLabelsByNames, listLabels, type Label } from '../store/labels';
import { getMilestoneIdByTitle, listMilestones, milestoneIdOfClaim } from '../store/milestones';

/** The issue as the caller may see it; 404 `Issue Not Found` when absent, deleted or confidential to them. */
export async function findIssueOrNotFound(subject: ProjectSubject, user: User, iid: number): Promise<Issue> {
  const issue = await getIssue(subject.project.id, iid);
  if (!issue || issue.deletedAt || !canReadIssue(user, subject, issue)) throw new NotFoundError('Issue');
  return issue;
}

/**
 * The issue of a project by iid, or `undefined` when there is none or it is deleted; no HTTP
 * error and no visibility check (the caller decides what the user may see, e.g. with `canReadIssue`).
 * @example
 * const issue = await findIssue(project.id, 7);
 */
export async function findIssue(projectId: number, iid: number): Promise<Issue | undefined> {
  const issue = await getIssue(projectId, iid);
  return issue && !issue.deletedAt ? issue : undefined;
}

export interface IssueFilters {
  state?: IssueState | 'all';
  /** All must be on the issue; `No Label`/`None`: issues without labels; `Any`: with some. */
  labels?: string[];
  /** A milestone title; `No Milestone`/`None`: without one; `Any`: with one. */
  milestone?: string;
  iids?: number[];
  /** GitLab's `fuzzy_search` over the title and the description (`shared/platform/search.ts`). */
  search?: string;
  authorId?: number;
  /** An assignee's user id; `none`: unassigned; `any`: assigned to someone. */
  assigneeId?: number | 'none' | 'any';
  /** Confidential issues only (`true`) or public ones only (`false`). */
  confidential?: boolean;
  /** ISO timestamps in UTC: created or updated on or after / on or before. */
  createdAfter?: string;
  createdBefore?: string;
  updatedAfter?: string;
  updatedBefore?: string;
  /** GitLab's `not[…]`: issues with none of these labels, not in this milestone, not by this author, not assigned to this user, none of these iids. */
  not?: { labels?: string[]; milestone?: string; authorId?: number; assigneeId?: number; iids?: number[] };
}

const NONE = new Set(['no label', 'no milestone', 'none']);

/** The filters of a list resolved against a project: the check made on each issue read, and what an index can serve. */
interface ResolvedFilters {
  matches: (issue: Issue) => boolean;
  /** A label name or milestone title that does not exist: nothing matches. */
  nothing: boolean;
  /** The labels named (all must be on the issue), with their counts. */
  labels: Label[];
  milestoneId?: number;
  /** Whether a filter is checked that no list index or count serves (`None`/`Any`, `iids[]`, `search`). */
  unindexed: boolean;
}

/** Internal: the milestone title a list's `milestone` filter looks up (none for "none" or "any"). */
const namedMilestone = (filters: IssueFilters): string[] =>
  filters.milestone === undefined || NONE.has(filters.milestone.toLowerCase()) || filters.milestone.toLowerCase() === 'any' ? [] : [filters.milestone];

/**
 * Internal: the filtered list whose counts are known before anything is read (no label and no
 * milestone named: the assignee's, else the author's; see {@link listDimension}).
 */
function countedUpFront(filters: IssueFilters): IssueDimension | undefined {
  if (namedLabels(filters).length > 0 || namedMilestone(filters).length > 0) return undefined;
  if (typeof filters.assigneeId === 'number') return `assignee:${filters.assigneeId}`;
  return filters.authorId !== undefined ? `author:${filters.authorId}` : undefined;
}

/** Internal: the label names a list's `labels` filter looks up (none for "no label" or "any label"). */
function namedLabels(filters: IssueFilters): string[] {
  const labels = filters.labels ?? [];
  const none = labels.some((name) => NONE.has(name.toLowerCase()));
  return none || (labels.length === 1 && labels[0].toLowerCase() === 'any') ? [] : labels;
}

/**
 * Internal: the ids that label names and milestone titles of this process's recent lists
 * resolved to, by project (at most {@link MAX_ID_GUESSES}, the oldest forgotten first). With one,
 * a list reads the label (its counts) or its milestone list's counts with its project and the
 * name claims rather than after them. A guess only chooses what is read: the claims read in the
 * same batch decide which label or milestone it is, and a wrong guess costs the read it would
 * have saved.
 */
const idGuesses = new Map<string, number>();
const MAX_ID_GUESSES = 1000;
const labelGuess = (projectId: number, name: string) => `${projectId}#label#${name.toLowerCase()}`;
const milestoneGuess = (projectId: number, title: string) => `${projectId}#milestone#${title}`;

/** Internal: remembers what a name resolved to, as the newest guess. */
function rememberId(guess: string, id: number): void {
  idGuesses.delete(guess);
  idGuesses.set(guess, id);
  if (idGuesses.size > MAX_ID_GUESSES) idGuesses.delete(idGuesses.keys().next().value!);
}

/**
 * Internal: resolves the filters of a project's list: label names and the milestone title read
 * once (an unknown name matches nothing). "No label" and "any label" (and the same for
 * milestones) count only labels and milestones that still exist: deleting one does not rewrite
 * its issues, so an issue may still hold its id.
 */
async function resolveFilters(projectId: number, filters: IssueFilters, claimsRead?: (key: Key) => Item | undefined): Promise<ResolvedFilters> {
  const checks: Array<(issue: Issue) => boolean> = [];
  const resolved: ResolvedFilters = { matches: () => true, nothing: false, labels: [], unindexed: false };
  if (filters.state && filters.state !== 'all') checks.push((issue) => issue.state === filters.state);
  const labels = filters.labels ?? [];
  const named = namedLabels(filters);
  if (labels.length > 0 && named.length === 0) {
    const none = labels.some((name) => NONE.has(name.toLowerCase()));
    resolved.unindexed = true;
    const live = new Set((await listLabels(projectId)).map((label) => label.id));
    const labelled = (issue: Issue) => issue.labelIds.some((id) => live.has(id));
    checks.push(none ? (issue) => !labelled(issue) : labelled);
  } else if (named.length > 0) {
    const byName = await findLabelsByNames(projectId, named, claimsRead);
    const found = named.map((name) => byName.get(name.toLowerCase()));
    if (found.some((label) => !label)) return { ...resolved, nothing: true, matches: () => false };
    resolved.labels = found as Label[];
    named.forEach((name, i) => rememberId(labelGuess(projectId, name), resolved.labels[i].id));
    checks.push((issue) => resolved.labels.every((label) => issue.labelIds.includes(label.id)));
  }
  if (filters.milestone !== undefined) {
    const title = filters.milestone;
    if (NONE.has(title.toLowerCase()) || title.toLowerCase() === 'any') {
      resolved.unindexed = true;
      const live = new Set((await listMilestones(projectId)).map((milestone) => milestone.id));
      const wanted = title.toLowerCase() === 'any';
      checks.push((issue) => (issue.milestoneId !== null && live.has(issue.milestoneId)) === wanted);
    } else {
      const milestoneId = await milestoneIdByTitle(projectId, title, claimsRead);
      if (milestoneId === undefined) return { ...resolved, nothing: true, matches: () => false };
      rememberId(milestoneGuess(projectId, title), milestoneId);
      resolved.milestoneId = milestoneId;
      checks.push((issue) => issue.milestoneId === milestoneId);
    }
  }
  if (filters.authorId !== undefined) checks.push((issue) => issue.authorId === filters.authorId);
  const assignee = filters.assigneeId;
  if (assignee === 'none' || assignee === 'any') {
    resolved.unindexed = true;
    checks.push((issue) => (issue.assigneeIds.length > 0) === (assignee === 'any'));
  } else if (assignee !== undefined) {
    checks.push((issue) => issue.assigneeIds.includes(assignee));
  }
  if (filters.iids && filters.iids.length > 0) {
    resolved.unindexed = true;
    const iids = new Set(filters.iids);
    checks.push((issue) => iids.has(issue.iid));
  }
  if (filters.confidential !== undefined) checks.push((issue) => issue.confidential === filters.confidential);
  const within = (after: string | undefined, before: string | undefined, at: (issue: Issue) => string) => {
    if (after === undefined && before === undefined) return;
    resolved.unindexed = true;
    checks.push((issue) => (after === undefined || at(issue) >= after) && (before === undefined || at(issue) <= before));
  };
  within(filters.createdAfter, filters.createdBefore, (issue) => issue.createdAt);
  within(filters.updatedAfter, filters.updatedBefore, (issue) => issue.updatedAt);
  const not = filters.not ?? {};
  if (not.labels?.length || not.milestone !== undefined || not.authorId !== undefined || not.assigneeId !== undefined || not.iids?.length) {
    resolved.unindexed = true;
    const [byName, milestoneId] = await Promise.all([
      not.labels?.length ? findLabelsByNames(projectId, not.labels) : new Map<string, Label>(),
      not.milestone === undefined ? undefined : milestoneIdByTitle(projectId, not.milestone),
    ]);
    const labelIds = new Set([...byName.values()].map((label) => label.id));
    const iids = new Set(not.iids ?? []);
    checks.push(
      (issue) =>
        !issue.labelIds.some((id) => labelIds.has(id)) &&
        (milestoneId === undefined || issue.milestoneId !== milestoneId) &&
        issue.authorId !== not.authorId &&
        (not.assigneeId === undefined || !issue.assigneeIds.includes(not.assigneeId)) &&
        !iids.has(issue.iid),
    );
  }
  const query = filters.search ? parseSearch(filters.search) : undefined;
  if (query) {
    resolved.unindexed = true;
    checks.push((issue) => matchesSearch(query, issue.title, issue.description));
  }
  resolved.matches = (issue) => checks.every((check) => check(issue));
  return resolved;
}

/**
 * Internal: the id of the project's milestone of that title: its own (its title claim, read with
 * the project when the caller did), else a group milestone it holds an alias of (a group milestone
 * the project holds none of has none of its issues).
 */
async function milestoneIdByTitle(projectId: number, title: string, claimsRead?: (key: Key) => Item | undefined): Promise<number | undefined> {
  const own = claimsRead ? milestoneIdOfClaim(claimsRead(issueKeys.claims.milestoneTitle(projectId, title)), title) : await getMilestoneIdByTitle(projectId, title);
  return own ?? (await listMilestones(projectId)).find((m) => m.aliasOf !== undefined && m.title === title)?.id;
}

/** The order of an issue list: the index read (`created_at` or `updated_at`) and its direction. */
export type IssueOrder = { orderBy: IssueOrderBy; ascending: boolean };

/** The state partitions that a `state` filter reads. */
const statesOf = (state: IssueFilters['state']): IssueState[] => (state === 'opened' || state === 'closed' ? [state] : ['opened', 'closed']);

/** The filtered list partition that a `state` filter reads (no filter: every state's). */
const stateOrAll = (state: IssueFilters['state']): IssueState | 'all' => (state === 'opened' || state === 'closed' ? state : 'all');

/**
 * Internal: the lists a `state` filter reads: that state's (`ofState`), or, without a filter, the
 * list of every state (`ofEveryState`) once the table has it (the data migration `since` has
 * run), else both states' merged.
 */
async function listsOfState(
  state: IssueFilters['state'],
  ofState: (one: IssueState) => Collection,
  ofEveryState: { list: () => Collection; since: string },
): Promise<Collection[]> {
  const wanted = stateOrAll(state);
  if (wanted !== 'all') return [ofState(wanted)];
  if (await hasRun(ofEveryState.since)) return [ofEveryState.list()];
  return statesOf(state).map(ofState);
}

/** Internal: the entries of a filtered list a `state` filter reads ({@link listsOfState}). */
const filteredLists = (projectId: number, dimension: string, state: IssueFilters['state']): Promise<Collection[]> =>
  listsOfState(
    state,
    (one) => issueCollections.dimensionIssues(projectId, dimension, one),
    { list: () => issueCollections.dimensionIssues(projectId, dimension, 'all'), since: ISSUE_INDEXES_MIGRATION },
  );

/** Internal: the state lists a `state` filter reads in `orderBy` ({@link listsOfState}). */
const stateLists = (projectId: number, state: IssueFilters['state'], orderBy: IssueOrderBy): Promise<Collection[]> =>
  listsOfState(state, (one) => issueCollections.projectIssues(projectId, one, orderBy), {
    list: () => issueCollections.everyStateIssues(projectId, orderBy),
    since: orderBy === 'created_at' ? ISSUE_INDEXES_MIGRATION : ISSUE_UPDATE_LIST_MIGRATION,
  });

/** Internal: the issues of several list collections in sort-key order ({@link mergedCollections}). */
const mergedStream = <T>(colls: Collection[], ascending: boolean, select: (issue: Issue) => T | undefined, journals?: JournalReads): StreamSource<T> =>
  mergedCollections(colls, { ascending, isSortKey: isIssueOrderKey, select: (item) => select(issueFromItem(item)), journals });

/**
 * Internal: the issues named by entries of a project's filtered lists or search terms, in the
 * entries' order: each chunk of entries loads its issues in one BatchGetItem (consistent), keeps
 * those the entry still stands for and `keep` accepts, and removes the entries found stale.
 */
function entryStream(
  colls: Collection[],
  ascending: boolean,
  keep: (issue: Issue) => boolean,
  journals?: JournalReads,
  countWithin?: (need: number) => number,
): StreamSource<Issue> {
  const entries = mergedCollections(colls, { ascending, isSortKey: isIssueOrderKey, select: (item) => item, journals });
  const projectOf = (entry: Item) => projectIdOfPartition(String(entry.PK));
  return mappedStream(entries, async (items) => {
    const issueOf = await getIssues(items.map((entry) => ({ projectId: projectOf(entry), iid: entry.iid as number })));
    const stale: Array<{ entry: Item; issue: Issue | undefined }> = [];
    const issues = items.map((entry) => {
      const issue = issueOf(projectOf(entry), entry.iid as number);
      if (!isCurrentEntry(entry, issue)) {
        stale.push({ entry, issue });
        return undefined;
      }
      return keep(issue) ? issue : undefined;
    });
    if (stale.length > 0) await dropStaleEntries(stale);
    return issues;
  }, { countWithin });
}

/**
 * Internal: the filtered list an index serves for these filters (created order only): the
 * rarest named label (by its counts), else the milestone, the assignee, the author; `all` when
 * no such filter is set (the state lists).
 */
function listDimension(filters: IssueFilters, resolved: ResolvedFilters): { dimension: IssueDimension | 'all'; filtersServed: number } {
  const candidates: Array<IssueDimension> = [];
  const byCount = [...resolved.labels].sort((a, b) => countIn(labelCounts(a), filters.state).total - countIn(labelCounts(b), filters.state).total);
  candidates.push(...byCount.map((label) => `label:${label.id}` as const));
  if (resolved.milestoneId !== undefined) candidates.push(`milestone:${resolved.milestoneId}`);
  if (typeof filters.assigneeId === 'number') candidates.push(`assignee:${filters.assigneeId}`);
  if (filters.authorId !== undefined) candidates.push(`author:${filters.authorId}`);
  return { dimension: candidates[0] ?? 'all', filtersServed: candidates.length };
}

/** Internal: a label's counts as a list's. */
const labelCounts = (label: Label): IssueCounts => ({
  opened: label.openIssuesCount ?? 0,
  closed: label.closedIssuesCount ?? 0,
  confidentialOpened: label.confidentialOpenIssuesCount ?? 0,
  confidentialClosed: label.confidentialClosedIssuesCount ?? 0,
});

/**
 * What a project's issue list with `filters` reads with its project (`findProjectAndRead`): the
 * whole list's counts, its lists' journal mark, the name claims of the labels and the title claim
 * of the milestone it filters by (with the labels and the milestone list's counts their names
 * last resolved to: {@link idGuesses}), and the counts of an assignee's or author's list it is
 * served by.
 */
export const projectIssueListKeys =
  (filters: IssueFilters) =>
  (projectId: number): Key[] => {
    const counted = countedUpFront(filters);
    const guessed = (guess: string, key: (id: number) => Key) => {
      const id = idGuesses.get(guess);
      return id === undefined ? [] : [key(id)];
    };
    return [
      projectCounts.key(projectId),
      issueKeys.journalMark(projectId),
      ...namedLabels(filters).flatMap((name) => [
        issueKeys.claims.labelName(projectId, name),
        ...guessed(labelGuess(projectId, name), (id) => issueKeys.label(projectId, id)),
      ]),
      ...namedMilestone(filters).flatMap((title) => [
        issueKeys.claims.milestoneTitle(projectId, title),
        ...guessed(milestoneGuess(projectId, title), (id) => issueKeys.counts(projectId, `milestone:${id}`)),
      ]),
      ...(counted ? [issueKeys.counts(projectId, counted)] : []),
    ];
  };

/**
 * A project's issues visible to `user` matching `filters`, in `order`, read from the list that
 * serves the filters so a page costs what it reads, not the project's size (ACCESS_PATTERNS.md
 * #42, #59, #60):
 * - `search` with an index term: the term's entries (then checked with GitLab's rule);
 * - by creation, with `labels`, `milestone`, `assignee_id` or `author_id`: the filtered list of
 *   one of them (the rarest label first) of the state asked for, or of every state, the others
 *   checked on each issue;
 * - otherwise the state lists (GSI1 by creation, GSI4 by update), or without a state filter the
 *   project's list of every state (GSI7 by creation, GSI8 by update; the two states merged while
 *   the table's data migration for it has not run).
 * The total comes from the maintained counts when one list serves every filter and the caller
 * sees every issue counted (or none of them is confidential); otherwise the page counts on, up
 * to `LIST_COUNT_LIMIT`. Cursors are the sort key of the last entry.
 */
export async function projectIssueStream(
  subject: ProjectSubject,
  user: User,
  filters: IssueFilters,
  order: IssueOrder,
  /** What the caller read with the project ({@link projectIssueListKeys} of these filters), if it did. */
  read?: (key: Key) => Item | undefined,
): Promise<ListSource<Issue> | Issue[]> {
  const resolved = await resolveFilters(subject.project.id, filters, read);
  if (resolved.nothing) return [];
  const stream = await resolvedIssueStream(subject, user, filters, resolved, order, read);
  const counts = servedCounts(subject, user, filters, resolved, read);
  if (!counts) return stream;
  counts.catch(() => undefined); // awaited by `total`, if the page needs it
  return {
    ...stream,
    total: async () => {
      const visible = await counts;
      if (!visible) return undefined;
      return filters.state === 'opened' ? visible.opened : filters.state === 'closed' ? visible.closed : visible.opened + visible.closed;
    },
  };
}

/** Internal: the stream of {@link projectIssueStream}, of filters already resolved. */
async function resolvedIssueStream(
  subject: ProjectSubject,
  user: User,
  filters: IssueFilters,
  resolved: ResolvedFilters,
  order: IssueOrder,
  read?: (key: Key) => Item | undefined,
): Promise<StreamSource<Issue>> {
  const projectId = subject.project.id;
  const keep = (issue: Issue) => resolved.matches(issue) && canReadIssue(user, subject, issue);
  // A quiet project's lists skip their journal (its mark was read with the project).
  const journals = (colls: Collection[]) => (read ? quietJournals(colls.map((c) => c.partitionValue), read) : undefined);
  const term = filters.search ? parseSearch(filters.search)?.term : undefined;
  if (term && order.orderBy === 'created_at') {
    const colls = [issueCollections.searchIssues(projectId, term)];
    return entryStream(colls, order.ascending, keep, journals(colls), countOnePageMore);
  }
  const { dimension } = listDimension(filters, resolved);
  const byState = dimension === 'all' || order.orderBy !== 'created_at';
  // A list of every state has its own partition (the state lists are merged until the deploy's
  // migration has put every issue and entry there).
  const colls = byState ? await stateLists(projectId, filters.state, order.orderBy) : await filteredLists(projectId, dimension, filters.state);
  return byState
    ? mergedStream(colls, order.ascending, (issue) => (keep(issue) ? issue : undefined), journals(colls))
    : entryStream(colls, order.ascending, keep, journals(colls));
}

/** Issue counts by state, as `issues_statistics` answers them (`all` is their sum). */
export interface StateCounts {
  opened: number;
  closed: number;
}

/**
 * Internal: the maintained counts (#44, #61: the project's, a label's, a milestone's, an
 * assignee's or an author's) of the one list that serves every filter, so they cost no read of
 * the issues; `undefined` when no list serves them all (or a filter no list serves is set).
 */
function maintainedCounts(subject: ProjectSubject, filters: IssueFilters, resolved: ResolvedFilters, read?: (key: Key) => Item | undefined): Promise<IssueCounts> | undefined {
  const projectId = subject.project.id;
  const { dimension, filtersServed } = listDimension(filters, resolved);
  if (resolved.unindexed || filtersServed > 1) return undefined;
  const label = resolved.labels[0];
  if (label) return Promise.resolve(labelCounts(label));
  // The whole list's counts, or those of the list known up front, were read with the project
  // (none there: no issue yet); a guessed milestone's were if they are there.
  const countsRead = read && (dimension === 'all' || dimension === countedUpFront(filters));
  const countsItem = read?.(issueKeys.counts(projectId, dimension));
  return countsRead || countsItem ? Promise.resolve(projectCounts.from(countsItem)) : getIssueCounts(projectId, [dimension]).then((all) => all.get(dimension)!);
}

/**
 * Internal: what of a list's maintained counts `user` may see under the `confidential` filter:
 * `undefined` when they include confidential issues (of the state filtered) that the caller may
 * not see all of (only the issues can tell which of them they may).
 */
function visibleCounts(all: IssueCounts, filters: IssueFilters, seesAll: boolean): StateCounts | undefined {
  if (filters.confidential === false) return publicCounts(all);
  if (!seesAll && countIn(all, filters.state).confidential > 0) return undefined;
  return filters.confidential ? { opened: all.confidentialOpened, closed: all.confidentialClosed } : { opened: all.opened, closed: all.closed };
}

/** Internal: the counts of a list's issues that are not confidential. */
const publicCounts = (all: IssueCounts): StateCounts => ({ opened: all.opened - all.confidentialOpened, closed: all.closed - all.confidentialClosed });

/** Internal: the counts by state of the issues `user` may see matching `filters`, when the maintained counts tell ({@link maintainedCounts}, {@link visibleCounts}). */
function servedCounts(
  subject: ProjectSubject,
  user: User,
  filters: IssueFilters,
  resolved: ResolvedFilters,
  read?: (key: Key) => Item | undefined,
): Promise<StateCounts | undefined> | undefined {
  const seesAll = can(user, 'read_confidential_issues', subject);
  return maintainedCounts(subject, filters, resolved, read)?.then((all) => visibleCounts(all, filters, seesAll));
}

const NO_ISSUES: StateCounts = { opened: 0, closed: 0 };

/** Internal: how many more issues a request's counting may read (`ISSUES_STATISTICS_COUNT_LIMIT`, shared by its projects). */
interface CountBudget {
  left: number;
}

const countBudget = (): CountBudget => ({ left: config().issuesStatisticsCountLimit });

/**
 * Internal: counts by state the issues of a list, reading at most what the budget has left
 * (every entry read counts, matching or not); past it a 400, rather than a count that is not
 * the answer.
 */
async function countRead(list: StreamSource<Issue>, budget: CountBudget): Promise<StateCounts> {
  const counts = { ...NO_ISSUES };
  const limit = config().issuesStatisticsCountLimit;
  for await (const entry of list.read(undefined, budget.left + 1, budget.left + 1)) {
    if (--budget.left < 0) {
      throw new ParamError(`counting these issues reads more than ${limit} of them; narrow the filters (labels, milestone, assignee_id or author_id alone are counted without reading the issues)`);
    }
    if (entry.value) counts[entry.value.state]++;
  }
  return counts;
}

/**
 * `GET /projects/:id/issues_statistics`: the issues of a project `user` may see matching
 * `filters` (any state: the counts are by state), counted by state. When one maintained count
 * serves the filters ({@link maintainedCounts}) it is the answer, whatever the project's size (for
 * a caller who may not see every confidential issue: its public issues, plus the confidential
 * ones of theirs or assigned to them, read from their own lists); otherwise the issues are counted on the list the issue list reads for these filters (the
 * filtered list, the search term's, or the project's list of every state), reading at most
 * `ISSUES_STATISTICS_COUNT_LIMIT` issues for the request (400 past it).
 */
export async function projectIssueStatistics(
  subject: ProjectSubject,
  user: User,
  filters: IssueFilters,
  read?: (key: Key) => Item | undefined,
  budget: CountBudget = countBudget(),
): Promise<StateCounts> {
  // GitLab's IssuesFinder: no issues for a caller who cannot read them (issues disabled).
  if (!can(user, 'read_issue', subject)) return NO_ISSUES;
  const everyState = { ...filters, state: undefined };
  const resolved = await resolveFilters(subject.project.id, everyState, read);
  if (resolved.nothing) return NO_ISSUES;
  const maintained = await maintainedCounts(subject, everyState, resolved, read);
  if (maintained) {
    const served = visibleCounts(maintained, everyState, can(user, 'read_confidential_issues', subject));
    if (served) return served;
    // The public issues from the counts; the confidential ones the caller may see (theirs, or
    // assigned to them) from their lists in the project, a walk as long as the caller's issues there.
    const mine = await countRead(await ownIssueStream(subject, user, (issue) => issue.confidential && resolved.matches(issue)), budget);
    const open = everyState.confidential ? NO_ISSUES : publicCounts(maintained);
    return { opened: open.opened + mine.opened, closed: open.closed + mine.closed };
  }
  return countRead(await resolvedIssueStream(subject, user, everyState, resolved, { orderBy: 'created_at', ascending: false }, read), budget);
}

/**
 * Internal: the issues of a project that `user` opened or is assigned, each once, that `keep`
 * accepts (newest first; the author's and the assignee's lists of every state, #59, merged).
 */
async function ownIssueStream(subject: ProjectSubject, user: User, keep: (issue: Issue) => boolean): Promise<StreamSource<Issue>> {
  const projectId = subject.project.id;
  const colls = (await Promise.all([`author:${user.id}`, `assignee:${user.id}`].map((dimension) => filteredLists(projectId, dimension, 'all')))).flat();
  const seen = new Set<number>();
  const once = (issue: Issue) => !seen.has(issue.iid) && seen.add(issue.iid).has(issue.iid);
  return entryStream(colls, false, (issue) => keep(issue) && canReadIssue(user, subject, issue) && once(issue));
}

/**
 * `GET /groups/:id/issues_statistics`: {@link projectIssueStatistics} summed over the projects of
 * the group and its subgroups whose issues `user` may read (as `GET /groups/:id/issues`: more
 * than `GROUP_ISSUES_PROJECT_LIMIT` projects is a 400), each answered from its counts when they
 * serve the filters (one read per project), the others counted within one budget for the request.
 */
export async function groupIssueStatistics(group: Namespace, user: User, filters: IssueFilters): Promise<StateCounts> {
  const subjects = await groupIssueSubjects(group, user);
  const budget = countBudget();
  const all = await Promise.all([...subjects.values()].map((subject) => projectIssueStatistics(subject, user, filters, undefined, budget)));
  return all.reduce((sum, one) => ({ opened: sum.opened + one.opened, closed: sum.closed + one.closed }), NO_ISSUES);
}

/**
 * `GET /issues_statistics`: the caller's issues of `scope` (as `GET /issues`) matching `filters`,
 * counted by state on the list `GET /issues` reads (no count is maintained per user), reading at
 * most `ISSUES_STATISTICS_COUNT_LIMIT` issues (400 past it).
 */
export function userIssueStatistics(user: User, scope: UserIssueScope, filters: IssueFilters): Promise<StateCounts> {
  const stream = userIssueStream(user, scope, { ...filters, state: undefined }, { orderBy: 'created_at', ascending: false });
  return countRead(stream, countBudget());
}

/**
 * `GET /groups/:id/issues`: the issues of the projects of `group` and of its subgroups whose
 * issues `user` may read, in `order`. The group tree is walked on the subgroup
 * index (one Query per group), its projects read from the namespace index (one Query per group)
 * and loaded in batches; then {@link issuesOfProjects} merges their lists. More than
 * `GROUP_ISSUES_PROJECT_LIMIT` (default 100) projects is refused with 400 rather than merged.
 *
 * @returns the stream and the projects' subjects (for `path_with_namespace` in the response).
 */
export async function groupIssueStream(
  group: Namespace,
  user: User,
  filters: IssueFilters,
  order: IssueOrder,
): Promise<{ stream: StreamSource<Issue>; subjects: Map<number, ProjectSubject> }> {
  const subjects = await groupIssueSubjects(group, user);
  return { stream: await issuesOfProjects(subjects, user, filters, order), subjects };
}

/**
 * The issues of the projects the caller is a member of (GitLab's global issue search reads every
 * project the caller may see; a list over every public project has no index here), as
 * `memberMergeRequestStream` lists merge requests: at most `GROUP_ISSUES_PROJECT_LIMIT` projects
 * (400 beyond), merged by {@link issuesOfProjects}.
 */
export async function memberIssueStream(
  user: User,
  filters: IssueFilters,
  order: IssueOrder,
): Promise<{ stream: StreamSource<Issue>; subjects: Map<number, ProjectSubject> }> {
  const members = await memberProjects(user, 'search the issues of a project or group');
  const subjects = new Map(members.filter((subject) => !subject.namespace.deleting && can(user, 'read_issue', subject)).map((subject) => [subject.project.id, subject]));
  return { stream: await issuesOfProjects(subjects, user, filters, order), subjects };
}

/**
 * Internal: the issues of several projects the caller may read issues of, in `order`, merged by
 * sort key: a `search` with an index term, by creation, reads each project's entries of the term
 * (#60, one Query per project; the page costs what matches, not the projects' size); otherwise
 * each project's list of every state by creation, else its state partitions (one Query per
 * project, and state by update). Each issue is checked against the filters and the caller's
 * access to it.
 */
async function issuesOfProjects(subjects: Map<number, ProjectSubject>, user: User, filters: IssueFilters, order: IssueOrder): Promise<StreamSource<Issue>> {
  const matchers = new Map(await Promise.all([...subjects.keys()].map(async (id) => [id, (await resolveFilters(id, filters)).matches] as const)));
  const keep = (issue: Issue) => matchers.get(issue.projectId)!(issue) && canReadIssue(user, subjects.get(issue.projectId)!, issue);
  const term = filters.search ? parseSearch(filters.search)?.term : undefined;
  if (term && order.orderBy === 'created_at') {
    return entryStream([...subjects.keys()].map((id) => issueCollections.searchIssues(id, term)), order.ascending, keep, undefined, countOnePageMore);
  }
  const colls = (await Promise.all([...subjects.keys()].map((id) => stateLists(id, filters.state, order.orderBy)))).flat();
  return mergedStream(colls, order.ascending, (issue) => (keep(issue) ? issue : undefined));
}

/**
 * `GET /groups/:id/milestones/:milestone_id/issues`: the issues `user` may read that carry the
 * group milestone, newest first. Only the projects holding an alias of it (its `aliases`: the
 * projects whose issues used it) are read, each by its milestone list of every state (#59, one
 * Query per project, merged by creation), and only those still in the group's tree; more than
 * `GROUP_ISSUES_PROJECT_LIMIT` such projects is refused with 400, as group issues are.
 */
export async function groupMilestoneIssueStream(
  group: Namespace,
  aliases: Array<{ projectId: number; milestoneId: number }>,
  user: User,
): Promise<{ stream: StreamSource<Issue>; subjects: Map<number, ProjectSubject> }> {
  const limit = config().groupIssuesProjectLimit;
  if (aliases.length > limit) {
    throw new ParamError(`the milestone is used by more than ${limit} projects; list the issues of its projects instead`);
  }
  const aliasIn = new Map(aliases.map((alias) => [alias.projectId, alias.milestoneId]));
  const inTree = (namespace: Namespace) => namespace.id === group.id || namespace.ancestorIds.includes(group.id);
  const all = await projectSubjects(user, [...aliasIn.keys()]);
  const subjects = new Map(
    [...all].filter(([, subject]) => !subject.namespace.deleting && inTree(subject.namespace) && can(user, 'read_issue', subject)),
  );
  const colls = (await Promise.all([...subjects.keys()].map((id) => filteredLists(id, `milestone:${aliasIn.get(id)}`, 'all')))).flat();
  const keep = (issue: Issue) => issue.milestoneId === aliasIn.get(issue.projectId) && canReadIssue(user, subjects.get(issue.projectId)!, issue);
  return { stream: entryStream(colls, false, keep), subjects };
}

/**
 * Internal: the projects of `group` and its subgroups whose issues `user` may read, by id; more
 * than `GROUP_ISSUES_PROJECT_LIMIT` projects in the tree is a 400.
 */
async function groupIssueSubjects(group: Namespace, user: User): Promise<Map<number, ProjectSubject>> {
  const limit = config().groupIssuesProjectLimit;
  const projectIds = await groupProjectIds(group, limit);
  if (projectIds === 'too_many') {
    throw new ParamError(`the group has more than ${limit} projects; list the issues of its projects or subgroups instead`);
  }
  const all = await projectSubjects(user, projectIds);
  return new Map([...all].filter(([, subject]) => !subject.namespace.deleting && can(user, 'read_issue', subject)));
}

export type UserIssueScope = 'created_by_me' | 'assigned_to_me';

/**
 * `GET /issues`: the issues `user` opened (GSI2, or GSI5 by update) or is assigned (GSI3, or GSI6),
 * in `order`. Each chunk is checked with one batch read of the projects involved
 * (the caller must still be able to read the project and the issue); the state and the other
 * filters are checked after the read.
 */
export function userIssueStream(user: User, scope: UserIssueScope, filters: IssueFilters, order: IssueOrder): StreamSource<Issue> {
  const matchers = new Map<number, Promise<(issue: Issue) => boolean>>();
  const matcher = (projectId: number) => {
    if (!matchers.has(projectId)) matchers.set(projectId, resolveFilters(projectId, filters).then((resolved) => resolved.matches));
    return matchers.get(projectId)!;
  };
  return filteredCollection<Issue>({
    collection: scope === 'created_by_me' ? issueCollections.userIssues(user.id, order.orderBy) : issueCollections.assignedIssues(user.id, order.orderBy),
    ascending: order.ascending,
    select: issueFromItem,
    keep: async (issues) => {
      const subjects = await projectSubjects(user, [...new Set(issues.map((issue) => issue.projectId))]);
      return Promise.all(
        issues.map(async (issue) => {
          const subject = subjects.get(issue.projectId);
          return subject !== undefined && canReadIssue(user, subject, issue) && (await matcher(issue.projectId))(issue);
        }),
      );
    },
  });
}

/** The subjects of the given projects for `user` (two batch reads and one for the memberships). */
export async function projectSubjects(user: User, projectIds: number[]): Promise<Map<number, ProjectSubject>> {
  const entries = await getProjectsWithNamespaces(projectIds);
  const access = await projectAccessForMany(user, entries);
  return new Map(entries.map((entry, i) => [entry.project.id, { kind: 'project' as const, ...entry, access: access[i] }]));
}
