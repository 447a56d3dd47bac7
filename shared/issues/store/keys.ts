/**
 * The issues feature's keys: every key, index attribute and collection of its items is built here,
 * and only here. Its access patterns are listed in ACCESS_PATTERNS.md beside this folder.
 */
import { createHash } from 'node:crypto';
import { type KeySpace, pad, tableCollection, indexCollection, type Key } from '../../platform/dynamo/keys';

export const issueKeys = {
  /** A project label, in its project's partition (listed and deleted with the project). */
  label: (projectId: number, labelId: number): Key => ({ PK: `PROJECT#${projectId}`, SK: `LABEL#${pad(labelId)}` }),
  /** A project milestone, by its global id. */
  milestone: (projectId: number, milestoneId: number): Key => ({ PK: `PROJECT#${projectId}`, SK: `MILESTONE#${pad(milestoneId)}` }),
  /** A project issue, by its iid (kept, marked `deletedAt`, when soft-deleted). */
  issue: (projectId: number, iid: number): Key => ({ PK: `PROJECT#${projectId}`, SK: `ISSUE#${pad(iid)}` }),
  /** A user's explicit choice about an issue's notifications (`subscribed` true or false; absent: participants are subscribed). */
  issueSubscription: (projectId: number, iid: number, userId: number): Key => ({
    PK: `PROJECT#${projectId}`,
    SK: `SUBSCRIPTION#${pad(iid)}#${pad(userId)}`,
  }),
  /** A user's pending todo on an issue (at most one, so `POST .../todo` answers 304 the second time). */
  issueTodo: (projectId: number, iid: number, userId: number): Key => ({ PK: `PROJECT#${projectId}`, SK: `TODO#${pad(iid)}#${pad(userId)}` }),
  /**
   * A todo marked done, by its id: moved out of the pending key so the user may mark a new todo
   * on the same issue, and kept in the project partition so deleting the project deletes it.
   */
  doneTodo: (projectId: number, todoId: number): Key => ({ PK: `PROJECT#${projectId}`, SK: `DONE_TODO#${pad(todoId)}` }),
  /** A note (comment) on an issue, after its issue's iid so one issue's notes are one range, by id. */
  note: (projectId: number, issueIid: number, noteId: number): Key => ({ PK: `PROJECT#${projectId}`, SK: `NOTE#${pad(issueIid)}#${pad(noteId)}` }),
  /**
   * A note on a merge request (the merge-requests feature's item `MR#<iid>`), after its iid so one
   * merge request's notes are one range, by id; outside the issues' `NOTE#` range.
   */
  mergeRequestNote: (projectId: number, mergeRequestIid: number, noteId: number): Key => ({
    PK: `PROJECT#${projectId}`,
    SK: `MR_NOTE#${pad(mergeRequestIid)}#${pad(noteId)}`,
  }),
  /** A user's explicit choice about a merge request's notifications (as {@link issueKeys.issueSubscription}). */
  mergeRequestSubscription: (projectId: number, mergeRequestIid: number, userId: number): Key => ({
    PK: `PROJECT#${projectId}`,
    SK: `MR_SUBSCRIPTION#${pad(mergeRequestIid)}#${pad(userId)}`,
  }),
  /** A user's pending todo on a merge request (at most one; marked done it moves to {@link issueKeys.doneTodo} like an issue's). */
  mergeRequestTodo: (projectId: number, mergeRequestIid: number, userId: number): Key => ({
    PK: `PROJECT#${projectId}`,
    SK: `MR_TODO#${pad(mergeRequestIid)}#${pad(userId)}`,
  }),

  /**
   * An issue's entry in one of its project's filtered lists (`dimension`: `label:<id>`,
   * `milestone:<id>`, `assignee:<userId>`, `author:<userId>`) for its state; indexed on GSI1 by
   * {@link issueIndexKeys.listEntry}. One key per state, so a state change adds the new entry
   * before the write and removes the old one after it (the entries are a superset of the truth).
   */
  listEntry: (projectId: number, dimension: string, state: string, iid: number): Key => ({
    PK: `PROJECT#${projectId}`,
    SK: `ISSUE_ENTRY#${dimension}#${state}#${pad(iid)}`,
  }),
  /** An issue's entry under one search term of its title or description (any state); indexed by {@link issueIndexKeys.searchEntry}. */
  searchEntry: (projectId: number, term: string, iid: number): Key => ({ PK: `PROJECT#${projectId}`, SK: `ISSUE_TERM#${term}#${pad(iid)}` }),
  /** A label's entry under one search term of its name or description (`shared/platform/search.ts`). */
  labelSearchEntry: (projectId: number, term: string, labelId: number): Key => ({ PK: `PROJECT#${projectId}`, SK: `LABEL_TERM#${term}#${pad(labelId)}` }),
  /**
   * The exact issue counts of one list of a project (`dimension` `all`, `milestone:<id>`,
   * `assignee:<userId>`, `author:<userId>`; a label's are on its item): `opened`, `closed`,
   * `confidentialOpened`, `confidentialClosed`, moved by `ADD` in the issue write transactions.
   */
  counts: (projectId: number, dimension: string): Key => ({ PK: `PROJECT#${projectId}`, SK: `ISSUE_COUNT#${dimension}` }),

  /** Uniqueness claims: an item whose existence reserves a value. */
  claims: {
    /**
     * A label's name within its project, case-insensitive (`Bug` and `bug` are one label). Kept
     * in the project's partition (`LABEL_NAME#`, outside the `LABEL#` range), so deleting the
     * project deletes it with the labels, under the SHA-256 of the lower-cased name: a
     * 255-character name can exceed the 1024-byte sort-key limit in UTF-8.
     */
    labelName: (projectId: number, name: string): Key => ({
      PK: `PROJECT#${projectId}`,
      SK: `LABEL_NAME#${createHash('sha256').update(name.toLowerCase(), 'utf8').digest('hex')}`,
    }),
    /**
     * A milestone's title within its project, case-sensitive as in GitLab. Kept in the project's
     * partition (so deleting the project removes it) under the title's SHA-256: a 255-character
     * title can exceed the 1024-byte sort-key limit in UTF-8.
     */
    milestoneTitle: (projectId: number, title: string): Key => ({
      PK: `PROJECT#${projectId}`,
      SK: `MILESTONE_TITLE#${createHash('sha256').update(title, 'utf8').digest('hex')}`,
    }),
  },
} as const;

/** Secondary-index attributes, written on the item they index. */
export const issueIndexKeys = {
  /**
   * The list indexes of a live issue, each twice: ordered by creation (GSI1 its project's issues
   * of its state, GSI2 its author's, GSI3 its assignee's) and by last update (GSI4, GSI5, GSI6,
   * same partitions). An issue has at most one assignee (GitLab CE), so one attribute serves.
   */
  issueLists: (issue: IssueListed) => ({
    GSI1PK: issuePartitions.project(issue.projectId, issue.state),
    GSI1SK: issueOrderKey(issue.createdAt, issue.id),
    GSI2PK: issuePartitions.author(issue.authorId),
    GSI2SK: issueOrderKey(issue.createdAt, issue.id),
    GSI4PK: issuePartitions.project(issue.projectId, issue.state),
    GSI5PK: issuePartitions.author(issue.authorId),
    ...(issue.assigneeIds.length > 0
      ? { GSI3PK: issuePartitions.assignee(issue.assigneeIds[0]), GSI3SK: issueOrderKey(issue.createdAt, issue.id), GSI6PK: issuePartitions.assignee(issue.assigneeIds[0]) }
      : {}),
    ...issueIndexKeys.issueUpdated(issue.updatedAt, issue.id),
  }),
  /**
   * The update-ordered sort keys of an issue (GSI4-6), set again whenever `updatedAt` changes.
   * `GSI6SK` is written even when unassigned: without `GSI6PK` it indexes nothing.
   */
  issueUpdated: (updatedAt: string, id: number) => {
    const key = issueOrderKey(updatedAt, id);
    return { GSI4SK: key, GSI5SK: key, GSI6SK: key };
  },
  /** GSI1: a filtered list's entry, by creation like the state lists (`ISSUE_LIST#<projectId>#<dimension>#<state>`). */
  listEntry: (projectId: number, dimension: string, state: string, createdAt: string, id: number) => ({
    GSI1PK: issuePartitions.dimension(projectId, dimension, state),
    GSI1SK: issueOrderKey(createdAt, id),
  }),
  /** GSI1: a search term's entry, by creation (`ISSUE_SEARCH#<projectId>#<term>`). */
  searchEntry: (projectId: number, term: string, createdAt: string, id: number) => ({
    GSI1PK: issuePartitions.term(projectId, term),
    GSI1SK: issueOrderKey(createdAt, id),
  }),
  /** GSI1: a user's todos of one state (`pending`, `done`) by id (GitLab lists them newest first). */
  userTodos: (userId: number, state: TodoState, todoId: number) => ({ GSI1PK: userTodoPartition(userId, state), GSI1SK: pad(todoId) }),
} as const;

/** The ranges of items one Query reads. */
export const issueCollections = {
  /** A project's labels by id (not their name claims: `LABEL_NAME#` does not start with `LABEL#`). */
  projectLabels: (projectId: number) => tableCollection(`PROJECT#${projectId}`, 'LABEL#'),
  /** A project's milestones by id (not their title claims: `MILESTONE_TITLE#` does not start with `MILESTONE#`). */
  projectMilestones: (projectId: number) => tableCollection(`PROJECT#${projectId}`, 'MILESTONE#'),
  /** A project's issues of one state, by creation or update time (soft-deleted issues carry no index keys). */
  projectIssues: (projectId: number, state: string, orderBy: IssueOrderBy = 'created_at') =>
    indexCollection(byCreation(orderBy) ? 'GSI1' : 'GSI4', issuePartitions.project(projectId, state)),
  /** The entries of a project's labels under one search term (a term holding `#` may read another's entries too: the labels are checked after). */
  labelSearch: (projectId: number, term: string) => tableCollection(`PROJECT#${projectId}`, `LABEL_TERM#${term}#`),
  /** Every issue item of a project, deleted ones included, by iid (data migrations only: lists read the indexes). */
  projectIssueItems: (projectId: number) => tableCollection(`PROJECT#${projectId}`, 'ISSUE#'),
  /** A project's issues of one state in one filtered list (a label's, a milestone's, an assignee's, an author's), by creation. */
  dimensionIssues: (projectId: number, dimension: string, state: string) => indexCollection('GSI1', issuePartitions.dimension(projectId, dimension, state)),
  /** The entries of a project's issues under one search term, by creation (any state). */
  searchIssues: (projectId: number, term: string) => indexCollection('GSI1', issuePartitions.term(projectId, term)),
  /** The notes of one issue, by id (id order is creation order). */
  issueNotes: (projectId: number, issueIid: number) => tableCollection(`PROJECT#${projectId}`, `NOTE#${pad(issueIid)}#`),
  /** The notes of one merge request, by id (id order is creation order). */
  mergeRequestNotes: (projectId: number, mergeRequestIid: number) => tableCollection(`PROJECT#${projectId}`, `MR_NOTE#${pad(mergeRequestIid)}#`),
  /** The issues a user authored, by creation or update time. */
  userIssues: (userId: number, orderBy: IssueOrderBy = 'created_at') =>
    indexCollection(byCreation(orderBy) ? 'GSI2' : 'GSI5', issuePartitions.author(userId)),
  /** The issues assigned to a user, by creation or update time. */
  assignedIssues: (userId: number, orderBy: IssueOrderBy = 'created_at') =>
    indexCollection(byCreation(orderBy) ? 'GSI3' : 'GSI6', issuePartitions.assignee(userId)),
  /** A user's todos of one state, by id. */
  userTodos: (userId: number, state: TodoState) => indexCollection('GSI1', userTodoPartition(userId, state)),
} as const;

/** What notes, subscriptions and todos hang on (GitLab's noteable types). */
export type NoteableType = 'Issue' | 'MergeRequest';

/** A noteable's place: its project and iid, and its type (which picks the key prefixes). */
export interface NoteableKeyed {
  type: NoteableType;
  projectId: number;
  iid: number;
}

/**
 * The keys of what hangs on a noteable, by its type: an issue's under `NOTE#`, `SUBSCRIPTION#`,
 * `TODO#` (as they always were), a merge request's under `MR_NOTE#`, `MR_SUBSCRIPTION#`,
 * `MR_TODO#`, so neither reads the other's ranges.
 */
export const noteableKeys = {
  note: ({ type, projectId, iid }: NoteableKeyed, noteId: number): Key =>
    type === 'Issue' ? issueKeys.note(projectId, iid, noteId) : issueKeys.mergeRequestNote(projectId, iid, noteId),
  subscription: ({ type, projectId, iid }: NoteableKeyed, userId: number): Key =>
    type === 'Issue' ? issueKeys.issueSubscription(projectId, iid, userId) : issueKeys.mergeRequestSubscription(projectId, iid, userId),
  pendingTodo: ({ type, projectId, iid }: NoteableKeyed, userId: number): Key =>
    type === 'Issue' ? issueKeys.issueTodo(projectId, iid, userId) : issueKeys.mergeRequestTodo(projectId, iid, userId),
  /** The notes of one noteable, by id. */
  notes: ({ type, projectId, iid }: NoteableKeyed) =>
    type === 'Issue' ? issueCollections.issueNotes(projectId, iid) : issueCollections.mergeRequestNotes(projectId, iid),
} as const;

/** The states a todo's list is partitioned by. */
export type TodoState = 'pending' | 'done';

/** Internal: the GSI1 partition of a user's todos of one state. */
const userTodoPartition = (userId: number, state: TodoState) => `USER_TODOS#${userId}#${state}`;

/** Sort key of issue lists: an ISO time (creation or last update), then the padded global id. */
export const issueOrderKey = (time: string, id: number): string => `${time}#${pad(id)}`;

/** Whether a sort key is a list entry's ({@link issueKeys.listEntry}), not a search entry's. */
export const isListEntryKey = (sortKey: string): boolean => sortKey.startsWith('ISSUE_ENTRY#');

/** Whether a value (a client's cursor) has the form of an {@link issueOrderKey}. */
export const isIssueOrderKey = (value: string): boolean => /^\d{4}-\d{2}-\d{2}T[\d:.]+Z#\d{12}$/.test(value);

/** What the issue list indexes are built from. */
export interface IssueListed {
  id: number;
  projectId: number;
  state: string;
  authorId: number;
  assigneeIds: number[];
  createdAt: string;
  updatedAt: string;
}

/** The order an issue list is read in: its index (`created_at`: GSI1-3, `updated_at`: GSI4-6). */
export type IssueOrderBy = 'created_at' | 'updated_at';

/** Internal: the partitions of the issue list indexes (the same in both orders). */
const issuePartitions = {
  project: (projectId: number, state: string) => `PROJECT_ISSUES#${projectId}#${state}`,
  author: (userId: number) => `USER_ISSUES#${userId}`,
  assignee: (userId: number) => `USER_ASSIGNED_ISSUES#${userId}`,
  dimension: (projectId: number, dimension: string, state: string) => `ISSUE_LIST#${projectId}#${dimension}#${state}`,
  term: (projectId: number, term: string) => `ISSUE_SEARCH#${projectId}#${term}`,
};

const byCreation = (orderBy: IssueOrderBy) => orderBy === 'created_at';

/** The prefixes this feature's items occupy (checked against every other feature's by a test). */
export const keySpace: KeySpace = {
  partitions: [],
  sortKeys: {
    'PROJECT#': [
      'LABEL#',
      'LABEL_NAME#',
      'MILESTONE#',
      'MILESTONE_TITLE#',
      'ISSUE#',
      'SUBSCRIPTION#',
      'TODO#',
      'DONE_TODO#',
      'NOTE#',
      'MR_NOTE#',
      'MR_SUBSCRIPTION#',
      'MR_TODO#',
      'ISSUE_ENTRY#',
      'ISSUE_TERM#',
      'ISSUE_COUNT#',
      'LABEL_TERM#',
    ],
  },
  indexPartitions: {
    GSI1: ['PROJECT_ISSUES#', 'USER_TODOS#', 'ISSUE_LIST#', 'ISSUE_SEARCH#'],
    GSI2: ['USER_ISSUES#'],
    GSI3: ['USER_ASSIGNED_ISSUES#'],
    GSI4: ['PROJECT_ISSUES#'],
    GSI5: ['USER_ISSUES#'],
    GSI6: ['USER_ASSIGNED_ISSUES#'],
  },
  sequences: ['issues', 'issues#', 'milestones#', 'labels', 'milestones', 'notes', 'todos'],
};
