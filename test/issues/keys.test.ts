/**
 * The issues feature's keys stay inside the key space it declares (`keySpace` in
 * `shared/issues/store/keys.ts`, checked against every other feature's by
 * test/platform/key-spaces.test.ts): every key builder, index attribute and collection is called
 * with sample arguments. Its items live in their project's partition (`PROJECT#`, which the
 * projects feature owns), under the sort-key prefixes the issues feature declares there.
 */
import { expect, it } from 'vitest';
import { isIssueOrderKey, isListEntryKey, searchTermOfKey, issueCollections, issueIndexKeys, issueKeys, issueOrderKey, keySpace, noteableKeys, type IssueListed } from '../../shared/issues/store/keys';
import type { Collection, Key } from '../../shared/platform/dynamo/keys';
import { describeKeySpace, sampleRows } from '../support/key-space';

const AT = '2026-03-04T05:06:07.089Z';
const LATER = '2026-04-05T06:07:08.090Z';

/** An open issue 70 (iid 3) of project 5 by user 1, assigned to user 2; `overrides` replace fields. */
const listed = (overrides: Partial<IssueListed> = {}): IssueListed => ({
  id: 70,
  projectId: 5,
  state: 'opened',
  authorId: 1,
  assigneeIds: [2],
  createdAt: AT,
  updatedAt: LATER,
  ...overrides,
});

/** Every table key builder with sample arguments (a builder without a sample is a compile error). */
const tableKeys = {
  label: [() => issueKeys.label(5, 11)],
  milestone: [() => issueKeys.milestone(5, 21)],
  groupLabel: [() => issueKeys.groupLabel(8, 11)],
  groupMilestone: [() => issueKeys.groupMilestone(8, 21)],
  labelSubscription: [() => issueKeys.labelSubscription({ kind: 'project', id: 5 }, 11, 2), () => issueKeys.labelSubscription({ kind: 'group', id: 8 }, 11, 2)],
  issue: [() => issueKeys.issue(5, 3)],
  issueSubscription: [() => issueKeys.issueSubscription(5, 3, 2)],
  issueTodo: [() => issueKeys.issueTodo(5, 3, 2)],
  doneTodo: [() => issueKeys.doneTodo(5, 31)],
  note: [() => issueKeys.note(5, 3, 41)],
  mergeRequestNote: [() => issueKeys.mergeRequestNote(5, 3, 41)],
  mergeRequestDiscussion: [() => issueKeys.mergeRequestDiscussion(5, 3, 41)],
  mergeRequestSubscription: [() => issueKeys.mergeRequestSubscription(5, 3, 2)],
  mergeRequestTodo: [() => issueKeys.mergeRequestTodo(5, 3, 2)],
  listEntry: [() => issueKeys.listEntry(5, 'label:11', 'opened', 3), () => issueKeys.listEntry(5, 'author:1', 'closed', 3)],
  searchEntry: [() => issueKeys.searchEntry(5, 'login', 3), () => issueKeys.searchEntry(5, '=a b', 3)],
  counts: [() => issueKeys.counts(5, 'all'), () => issueKeys.counts(5, 'milestone:21')],
  journalMark: [() => issueKeys.journalMark(5)],
  labelSearchEntry: [() => issueKeys.labelSearchEntry(5, 'bug', 11)],
  award: [() => issueKeys.award({ type: 'Issue', projectId: 5, localId: 3 }, 7), () => issueKeys.award({ type: 'Note', projectId: 5, localId: 41 }, 7)],
  awardName: [() => issueKeys.awardName({ type: 'Issue', projectId: 5, localId: 3 }, 2, 'thumbsup'), () => issueKeys.awardName({ type: 'Note', projectId: 5, localId: 41 }, 2, 'tada')],
  issueLink: [() => issueKeys.issueLink(5, 3, 6, 4)],
  resourceEvents: [() => issueKeys.resourceEvents({ type: 'Issue', projectId: 5, iid: 3 }, 'label', 9), () => issueKeys.resourceEvents({ type: 'MergeRequest', projectId: 5, iid: 3 }, 'label', 9)],
  assignedIssuesCount: [() => issueKeys.assignedIssuesCount(2)],
  pendingTodosCount: [() => issueKeys.pendingTodosCount(2)],
} satisfies Record<Exclude<keyof typeof issueKeys, 'claims'>, Array<() => Key>>;

const claimKeys = {
  // 255-character names of characters that take three bytes each in UTF-8 (the claims hash them).
  labelName: [() => issueKeys.claims.labelName(5, 'Bug'), () => issueKeys.claims.labelName(5, 'ラ'.repeat(255))],
  milestoneTitle: [() => issueKeys.claims.milestoneTitle(5, 'v1.0'), () => issueKeys.claims.milestoneTitle(5, 'マ'.repeat(255))],
  groupLabelName: [() => issueKeys.claims.groupLabelName(8, 'Bug'), () => issueKeys.claims.groupLabelName(8, 'ラ'.repeat(255))],
  groupMilestoneTitle: [() => issueKeys.claims.groupMilestoneTitle(8, 'v1'), () => issueKeys.claims.groupMilestoneTitle(8, 'マ'.repeat(255))],
} satisfies Record<keyof typeof issueKeys.claims, Array<() => Key>>;

const indexKeys = {
  issueLists: [
    () => issueIndexKeys.issueLists(listed()),
    () => issueIndexKeys.issueLists(listed({ state: 'closed', assigneeIds: [] })),
  ],
  everyStateList: [() => issueIndexKeys.everyStateList(listed())],
  issueUpdated: [() => issueIndexKeys.issueUpdated(LATER, 70)],
  userTodos: [() => issueIndexKeys.userTodos(2, 'pending', 31), () => issueIndexKeys.userTodos(2, 'done', 31)],
  userNote: [() => issueIndexKeys.userNote(1, 57)],
  userAward: [() => issueIndexKeys.userAward(1, 61)],
  listEntry: [() => issueIndexKeys.listEntry(5, 'label:11', 'opened', AT, 70)],
  searchEntry: [() => issueIndexKeys.searchEntry(5, 'login', AT, 70)],
  noteThread: [() => issueIndexKeys.noteThread({ type: 'Issue', projectId: 5, iid: 3 }, 41, 57), () => issueIndexKeys.noteThread({ type: 'MergeRequest', projectId: 5, iid: 3 }, 41, 41)],
} satisfies Record<keyof typeof issueIndexKeys, Array<() => Record<string, string>>>;

const collections = {
  projectPendingTodos: [() => issueCollections.projectPendingTodos(5, 'TODO#'), () => issueCollections.projectPendingTodos(5, 'MR_TODO#'), () => issueCollections.projectPendingTodos(5, 'COMMIT_TODO#')],
  projectAssigneeCounts: [() => issueCollections.projectAssigneeCounts(5)],
  noteablePendingTodos: [() => issueCollections.noteablePendingTodos({ type: 'Issue', projectId: 5, iid: 3 }), () => issueCollections.noteablePendingTodos({ type: 'MergeRequest', projectId: 5, iid: 3 })],
  userAwards: [() => issueCollections.userAwards(1)],
  projectAwardItems: [() => issueCollections.projectAwardItems(5)],
  projectLabels: [() => issueCollections.projectLabels(5)],
  projectMilestones: [() => issueCollections.projectMilestones(5)],
  projectIssues: [
    () => issueCollections.projectIssues(5, 'opened'),
    () => issueCollections.projectIssues(5, 'closed', 'created_at'),
    () => issueCollections.projectIssues(5, 'opened', 'updated_at'),
  ],
  everyStateIssues: [() => issueCollections.everyStateIssues(5)],
  issueNotes: [() => issueCollections.issueNotes(5, 3)],
  mergeRequestNotes: [() => issueCollections.mergeRequestNotes(5, 3)],
  userIssues: [() => issueCollections.userIssues(1), () => issueCollections.userIssues(1, 'updated_at')],
  assignedIssues: [() => issueCollections.assignedIssues(2), () => issueCollections.assignedIssues(2, 'updated_at')],
  userTodos: [() => issueCollections.userTodos(2, 'pending'), () => issueCollections.userTodos(2, 'done')],
  userNotes: [() => issueCollections.userNotes(1)],
  dimensionIssues: [() => issueCollections.dimensionIssues(5, 'label:11', 'opened'), () => issueCollections.dimensionIssues(5, 'label:11', 'all')],
  projectIssueItems: [() => issueCollections.projectIssueItems(5)],
  projectIssueNotes: [() => issueCollections.projectIssueNotes(5)],
  labelSearch: [() => issueCollections.labelSearch(5, 'bug')],
  searchIssues: [() => issueCollections.searchIssues(5, 'login')],
  groupLabels: [() => issueCollections.groupLabels(8)],
  groupMilestones: [() => issueCollections.groupMilestones(8)],
  noteableDiscussions: [() => issueCollections.noteableDiscussions({ type: 'Issue', projectId: 5, iid: 3 }), () => issueCollections.noteableDiscussions({ type: 'Issue', projectId: 5, iid: 3 }, 41)],
  discussionNotes: [() => issueCollections.discussionNotes({ type: 'Issue', projectId: 5, iid: 3 }, 41)],
  awards: [() => issueCollections.awards({ type: 'Issue', projectId: 5, localId: 3 }), () => issueCollections.awards({ type: 'Note', projectId: 5, localId: 41 })],
  projectNoteItems: [() => issueCollections.projectNoteItems(5, 'Issue'), () => issueCollections.projectNoteItems(5, 'MergeRequest')],
  issueLinks: [() => issueCollections.issueLinks(5, 3)],
  resourceEvents: [() => issueCollections.resourceEvents({ type: 'Issue', projectId: 5, iid: 3 }, 'state'), () => issueCollections.resourceEvents({ type: 'MergeRequest', projectId: 5, iid: 3 }, 'state')],
  resourceEventsUpTo: [() => issueCollections.resourceEventsUpTo({ type: 'Issue', projectId: 5, iid: 3 }, 'milestone', 9), () => issueCollections.resourceEventsUpTo({ type: 'MergeRequest', projectId: 5, iid: 3 }, 'milestone', 9)],
} satisfies Record<keyof typeof issueCollections, Array<() => Collection>>;

describeKeySpace(
  {
    feature: 'issues',
    keySpace,
    keys: { name: 'issueKeys', builders: issueKeys, samples: tableKeys, claims: claimKeys },
    indexKeys: { name: 'issueIndexKeys', builders: issueIndexKeys, samples: indexKeys, sortKeysOnly: ['issueUpdated'] },
    collections: { name: 'issueCollections', builders: issueCollections, samples: collections },
    partitions: ['PROJECT#', 'NAMESPACE#', 'USER#'],
    outside: { PK: 'PROJECT#5', SK: 'STAR#000000000007' },
  },
  () => {
    it('tells a list entry from a search entry by its sort key', () => {
      expect(isListEntryKey(issueKeys.listEntry(5, 'label:11', 'opened', 3).SK)).toBe(true);
      expect(isListEntryKey(issueKeys.searchEntry(5, 'login', 3).SK)).toBe(false);
    });

    it('reads the term back from a search entry, one holding `#` too', () => {
      expect(searchTermOfKey(issueKeys.searchEntry(5, 'login', 3).SK)).toBe('login');
      expect(searchTermOfKey(issueKeys.searchEntry(5, '=a#1 b', 3).SK)).toBe('=a#1 b');
    });

    it.each(sampleRows(claimKeys))('issueKeys.claims.%s: keeps the sort key within 1024 bytes, whatever the name', (_name, build) => {
      expect(Buffer.byteLength(build().SK, 'utf8')).toBeLessThanOrEqual(1024);
    });

    it.each([
      ['created_at', AT],
      ['updated_at', LATER],
    ] as const)('indexes an issue where the %s-ordered collections of its project, author and assignee read it', (orderBy, time) => {
      // Prepare
      const issue = listed();
      const item = { ...issueKeys.issue(issue.projectId, 3), ...issueIndexKeys.issueLists(issue) } as Record<string, string>;
      const reads = (collection: Collection) =>
        item[collection.partitionAttribute] === collection.partitionValue && item[collection.sortAttribute] === issueOrderKey(time, issue.id);
      // Assess
      expect(reads(issueCollections.projectIssues(5, 'opened', orderBy))).toBe(true);
      expect(reads(issueCollections.projectIssues(5, 'closed', orderBy))).toBe(false);
      expect(reads(issueCollections.userIssues(1, orderBy))).toBe(true);
      expect(reads(issueCollections.assignedIssues(2, orderBy))).toBe(true);
      expect(reads(issueCollections.assignedIssues(1, orderBy))).toBe(false);
    });

    it.each(['opened', 'closed'] as const)('indexes an issue %s where its project\'s list of every state reads it, by creation', (state) => {
      // Prepare
      const issue = listed({ state });
      const item = { ...issueKeys.issue(issue.projectId, 3), ...issueIndexKeys.issueLists(issue) } as Record<string, string>;
      const reads = (collection: Collection, at: Record<string, string> = item) =>
        at[collection.partitionAttribute] === collection.partitionValue && at[collection.sortAttribute] === issueOrderKey(AT, issue.id);
      // Assess
      expect(reads(issueCollections.everyStateIssues(5))).toBe(true);
      expect(reads(issueCollections.everyStateIssues(6))).toBe(false);
      // Its every-state list is none of the state lists (a state's Query never reads it).
      expect(reads(issueCollections.projectIssues(5, state === 'opened' ? 'closed' : 'opened'))).toBe(false);
      expect(issueCollections.everyStateIssues(5).index).not.toBe(issueCollections.projectIssues(5, 'opened').index);
    });

    it('indexes a filtered list entry where the list of its state and the list of every state read it, and no other list', () => {
      // Prepare
      const item = { ...issueKeys.listEntry(5, 'label:11', 'closed', 3), ...issueIndexKeys.listEntry(5, 'label:11', 'closed', AT, 70) } as Record<string, string>;
      const reads = (collection: Collection) =>
        item[collection.partitionAttribute] === collection.partitionValue && item[collection.sortAttribute] === issueOrderKey(AT, 70);
      // Assess
      expect(reads(issueCollections.dimensionIssues(5, 'label:11', 'closed'))).toBe(true);
      expect(reads(issueCollections.dimensionIssues(5, 'label:11', 'all'))).toBe(true);
      expect(reads(issueCollections.dimensionIssues(5, 'label:11', 'opened'))).toBe(false);
      expect(reads(issueCollections.dimensionIssues(5, 'label:1', 'all'))).toBe(false);
      expect(reads(issueCollections.dimensionIssues(6, 'label:11', 'all'))).toBe(false);
    });

    it('keeps the notes of one issue out of the range of another whose iid starts alike', () => {
      const notesOf3 = issueCollections.issueNotes(5, 3);
      expect(issueKeys.note(5, 3, 41).SK.startsWith(notesOf3.prefix!)).toBe(true);
      expect(issueKeys.note(5, 30, 41).SK.startsWith(notesOf3.prefix!)).toBe(false);
    });

    it('keeps the notes, subscriptions and todos of merge requests out of the ranges of issues of the same iid', () => {
      const issue = { type: 'Issue', projectId: 5, iid: 3 } as const;
      const mergeRequest = { type: 'MergeRequest', projectId: 5, iid: 3 } as const;
      // An issue's keep the keys they always had.
      expect(noteableKeys.note(issue, 41)).toEqual(issueKeys.note(5, 3, 41));
      expect(noteableKeys.subscription(issue, 2)).toEqual(issueKeys.issueSubscription(5, 3, 2));
      expect(noteableKeys.pendingTodo(issue, 2)).toEqual(issueKeys.issueTodo(5, 3, 2));
      expect(noteableKeys.notes(issue)).toEqual(issueCollections.issueNotes(5, 3));
      // A merge request's are its own.
      expect(noteableKeys.note(mergeRequest, 41)).toEqual(issueKeys.mergeRequestNote(5, 3, 41));
      expect(noteableKeys.subscription(mergeRequest, 2)).toEqual(issueKeys.mergeRequestSubscription(5, 3, 2));
      expect(noteableKeys.pendingTodo(mergeRequest, 2)).toEqual(issueKeys.mergeRequestTodo(5, 3, 2));
      expect(noteableKeys.notes(mergeRequest)).toEqual(issueCollections.mergeRequestNotes(5, 3));
      const ranges = [issueCollections.issueNotes(5, 3), issueCollections.mergeRequestNotes(5, 3)];
      const keys = [noteableKeys.note(issue, 41), noteableKeys.note(mergeRequest, 41), noteableKeys.subscription(issue, 2),
        noteableKeys.subscription(mergeRequest, 2), noteableKeys.pendingTodo(issue, 2), noteableKeys.pendingTodo(mergeRequest, 2)];
      expect(new Set(keys.map((key) => key.SK)).size).toBe(keys.length);
      expect(keys.map((key) => ranges.filter((range) => key.SK.startsWith(range.prefix!)).length)).toEqual([1, 1, 0, 0, 0, 0]);
      expect(noteableKeys.note(mergeRequest, 41).SK.startsWith(issueCollections.issueNotes(5, 3).prefix!)).toBe(false);
    });

    it('keeps labels and milestones apart from their name and title claims', () => {
      expect(issueKeys.claims.labelName(5, 'bug').SK.startsWith(issueCollections.projectLabels(5).prefix!)).toBe(false);
      expect(issueKeys.claims.milestoneTitle(5, 'v1').SK.startsWith(issueCollections.projectMilestones(5).prefix!)).toBe(false);
    });

    it('accepts its own list sort keys as cursors, and nothing else', () => {
      expect(isIssueOrderKey(issueOrderKey(AT, 70))).toBe(true);
      expect(isIssueOrderKey('2026-03-04#000000000070')).toBe(false);
      expect(isIssueOrderKey(`${AT}#70`)).toBe(false);
    });
  },
);
