/**
 * The issues feature's keys: every key, index attribute and collection of its items is built here,
 * and only here. Its access patterns are listed in ACCESS_PATTERNS.md beside this folder.
 */
import { createHash } from 'node:crypto';
import { type Collection, type KeySpace, pad, tableCollection, indexCollection, type Key } from '../../platform/dynamo/keys';
import { journalMark, journalTogether, readYourWrites } from '../../platform/dynamo/recent';
import type { IssueState } from './issues';

export const issueKeys = {
  /** A project label, in its project's partition (listed and deleted with the project). */
  label: (projectId: number, labelId: number): Key => ({ PK: `PROJECT#${projectId}`, SK: `LABEL#${pad(labelId)}` }),
  /** A project milestone, by its global id. */
  milestone: (projectId: number, milestoneId: number): Key => ({ PK: `PROJECT#${projectId}`, SK: `MILESTONE#${pad(milestoneId)}` }),
  /** A group label, in its group's partition (deleted with the group: `deleteGroupPartition`). */
  groupLabel: (groupId: number, labelId: number): Key => ({ PK: `NAMESPACE#${groupId}`, SK: `LABEL#${pad(labelId)}` }),
  /** A group milestone, by its global id, in its group's partition. */
  groupMilestone: (groupId: number, milestoneId: number): Key => ({ PK: `NAMESPACE#${groupId}`, SK: `MILESTONE#${pad(milestoneId)}` }),
  /**
   * A user's subscription to a label, beside the label (its project's or group's partition);
   * present: subscribed (GitLab's `Subscription` of a label, without a project of its own).
   */
  labelSubscription: (owner: LabelOwner, labelId: number, userId: number): Key => ({
    PK: ownerPartition(owner),
    SK: `LABEL_SUBSCRIPTION#${pad(labelId)}#${pad(userId)}`,
  }),
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
  /**
   * An award emoji on an issue (`AWARD#ISSUE#<iid>#<award id>`), a merge request
   * (`AWARD#MERGEREQUEST#<iid>#<award id>`) or a note (`AWARD#NOTE#<note id>#<award id>`; note
   * ids are global), so one awardable's awards are one range, by id.
   */
  award: (awardable: AwardableKeyed, awardId: number): Key => ({ PK: `PROJECT#${awardable.projectId}`, SK: `${awardPrefix(awardable)}${pad(awardId)}` }),
  /** The claim of one award name per user and awardable (GitLab's uniqueness of `name` per user and awardable). */
  awardName: (awardable: AwardableKeyed, userId: number, name: string): Key => ({
    PK: `PROJECT#${awardable.projectId}`,
    SK: `AWARD_NAME#${awardable.type.toUpperCase()}#${pad(awardable.localId)}#${pad(userId)}#${name}`,
  }),
  /**
   * The resolution state of one merge request discussion (by its first note's id): how many of
   * its resolvable notes are unresolved, the count the resolve, reply and delete transactions
   * are conditioned on (a discussion's notes are read from GSI1, which is not consistent).
   */
  mergeRequestDiscussion: (projectId: number, mergeRequestIid: number, rootId: number): Key => ({
    PK: `PROJECT#${projectId}`,
    SK: `MR_DISCUSSION#${pad(mergeRequestIid)}#${pad(rootId)}`,
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
   * `milestone:<id>`, `assignee:<userId>`, `author:<userId>`) for its state; indexed by
   * {@link issueIndexKeys.listEntry} in the list of its state and in that of every state. One key
   * per state, so a state change adds the new entry before the write and removes the old one after
   * it (the entries are a superset of the truth: the list of every state may show both a moment).
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
  /**
   * The journal mark of a project's issue lists (states, filtered lists, search terms;
   * `platform/dynamo/recent.ts`): the time of the last journaled write to any of them, put with
   * the journal entries; read with the project, it lets a quiet project's lists skip the journal.
   */
  journalMark: (projectId: number): Key => ({ PK: `PROJECT#${projectId}`, SK: 'ISSUE_JOURNAL_MARK' }),
  /**
   * One side of a link between two issues (GitLab's `issue_links` row), in the partition of the
   * issue it is seen from, after that issue's iid and the other issue's project and iid: the link
   * is written as two such items (one per issue, the same data) in one transaction, each Put
   * `attribute_not_exists`, so a pair is linked once whichever side asks (and however many ask at
   * once), and each issue lists its links in one range.
   */
  issueLink: (projectId: number, iid: number, otherProjectId: number, otherIid: number): Key => ({
    PK: `PROJECT#${projectId}`,
    SK: `ISSUE_LINK#${pad(iid)}#${pad(otherProjectId)}#${pad(otherIid)}`,
  }),
  /**
   * The resource events of one kind (`label`, `state`, `milestone`) that one write of an issue
   * (`ISSUE_EVENT#…`) or a merge request (`MR_EVENT#…`) recorded, as one item under the id of its
   * first event (the events of a write take consecutive ids), so a write adds one item per kind to
   * its transaction whatever the number of labels it changed.
   */
  resourceEvents: (resource: NoteableKeyed, kind: ResourceEventKind, firstId: number): Key => ({
    PK: `PROJECT#${resource.projectId}`,
    SK: `${resourceEventPrefix(resource, kind)}${pad(firstId)}`,
  }),

  /**
   * A user's count of the open issues assigned to them (`assignedOpenIssues`), in the user's
   * partition (the users feature's; gone with the user): moved only by `ADD` in the issue write
   * transactions that change it (#253), read by `GET /user_counts` (#255).
   */
  assignedIssuesCount: (userId: number): Key => ({ PK: `USER#${userId}`, SK: 'ISSUE_ASSIGNED_COUNT' }),
  /**
   * A user's count of their pending todos (`pendingTodos`), in the user's partition: moved only by
   * `ADD` in the transactions that put a pending todo or mark one done (#254), read by
   * `GET /user_counts` (#255).
   */
  pendingTodosCount: (userId: number): Key => ({ PK: `USER#${userId}`, SK: 'TODO_PENDING_COUNT' }),

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
    /** A group label's name within its group, case-insensitively (as a project label's). */
    groupLabelName: (groupId: number, name: string): Key => ({
      PK: `NAMESPACE#${groupId}`,
      SK: `LABEL_NAME#${createHash('sha256').update(name.toLowerCase(), 'utf8').digest('hex')}`,
    }),
    /** A group milestone's title within its group, case-sensitive. */
    groupMilestoneTitle: (groupId: number, title: string): Key => ({
      PK: `NAMESPACE#${groupId}`,
      SK: `MILESTONE_TITLE#${createHash('sha256').update(title, 'utf8').digest('hex')}`,
    }),
  },
} as const;

/** Secondary-index attributes, written on the item they index. */
export const issueIndexKeys = {
  /**
   * The list indexes of a live issue, each twice: ordered by creation (GSI1 its project's issues
   * of its state, GSI2 its author's, GSI3 its assignee's) and by last update (GSI4, GSI5, GSI6,
   * same partitions); and its project's issues of every state, GSI7 by creation (the default list:
   * one Query, not the two states merged) and GSI8 by update. An issue has at most one assignee
   * (GitLab CE), so one attribute serves.
   */
  issueLists: (issue: IssueListed) => ({
    GSI1PK: issuePartitions.project(issue.projectId, issue.state),
    GSI1SK: issueOrderKey(issue.createdAt, issue.id),
    ...issueIndexKeys.everyStateList(issue),
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
   * A live issue's place in its project's lists of every state: GSI7 by creation (never moves),
   * GSI8 by update (`GSI8SK` moves with {@link issueIndexKeys.issueUpdated}); a state change leaves both.
   */
  everyStateList: (issue: Pick<IssueListed, 'projectId' | 'createdAt' | 'updatedAt' | 'id'>) => ({
    GSI7PK: issuePartitions.project(issue.projectId, 'all'),
    GSI7SK: issueOrderKey(issue.createdAt, issue.id),
    GSI8PK: issuePartitions.project(issue.projectId, 'all'),
    GSI8SK: issueOrderKey(issue.updatedAt, issue.id),
  }),
  /**
   * The update-ordered sort keys of an issue (GSI4-6, GSI8), set again whenever `updatedAt`
   * changes. `GSI6SK` is written even when unassigned, `GSI8SK` on an issue not yet in GSI8 (the
   * by-update migration puts it there): without their partition they index nothing.
   */
  issueUpdated: (updatedAt: string, id: number) => {
    const key = issueOrderKey(updatedAt, id);
    return { GSI4SK: key, GSI5SK: key, GSI6SK: key, GSI8SK: key };
  },
  /**
   * A filtered list's entry, by creation like the state lists: GSI1 the list of its state
   * (`ISSUE_LIST#<projectId>#<dimension>#<state>`), GSI2 the list of every state
   * (`ISSUE_LIST#<projectId>#<dimension>`: one Query for a list without a state filter).
   */
  listEntry: (projectId: number, dimension: string, state: string, createdAt: string, id: number) => ({
    GSI1PK: issuePartitions.dimension(projectId, dimension, state),
    GSI1SK: issueOrderKey(createdAt, id),
    GSI2PK: issuePartitions.dimension(projectId, dimension, 'all'),
    GSI2SK: issueOrderKey(createdAt, id),
  }),
  /** GSI1: a search term's entry, by creation (`ISSUE_SEARCH#<projectId>#<term>`). */
  searchEntry: (projectId: number, term: string, createdAt: string, id: number) => ({
    GSI1PK: issuePartitions.term(projectId, term),
    GSI1SK: issueOrderKey(createdAt, id),
  }),
  /**
   * GSI1: a note's place among its noteable's discussions: the partition of the noteable's notes,
   * sorted by the discussion's first note id, then the note's id, so a discussion's notes are
   * contiguous and discussions come oldest first.
   */
  noteThread: (noteable: NoteableKeyed, rootId: number, noteId: number) => ({
    GSI1PK: noteThreadPartition(noteable),
    GSI1SK: `${pad(rootId)}#${pad(noteId)}`,
  }),
  /** GSI1: a user's todos of one state (`pending`, `done`) by id (GitLab lists them newest first). */
  userTodos: (userId: number, state: TodoState, todoId: number) => ({ GSI1PK: userTodoPartition(userId, state), GSI1SK: pad(todoId) }),
  /** GSI2: a note (a comment or a system note) among its author's, by id (`USER_NOTES#<authorId>`: deleting the author with `hard_delete`). */
  userNote: (authorId: number, noteId: number) => ({ GSI2PK: userNotesPartition(authorId), GSI2SK: pad(noteId) }),
  /** GSI2: an award emoji among its user's, by id (`USER_AWARDS#<userId>`: deleting the user moves or deletes them). */
  userAward: (userId: number, awardId: number) => ({ GSI2PK: userAwardsPartition(userId), GSI2SK: pad(awardId) }),
} as const;

/** The ranges of items one Query reads. */
export const issueCollections = {
  /** A project's pending todos of one target type (`TODO#`, `MR_TODO#`, `COMMIT_TODO#`), for a deleted project's counts (#257). */
  projectPendingTodos: (projectId: number, prefix: 'TODO#' | 'MR_TODO#' | 'COMMIT_TODO#') => tableCollection(`PROJECT#${projectId}`, prefix),
  /** The pending todos of one noteable (`TODO#<iid>#`, `MR_TODO#<iid>#`: one per user), taken out when it is deleted (#259). */
  noteablePendingTodos: ({ type, projectId, iid }: NoteableKeyed) => tableCollection(`PROJECT#${projectId}`, `${type === 'Issue' ? 'TODO#' : 'MR_TODO#'}${pad(iid)}#`),
  /** A project's per-assignee issue counts (`ISSUE_COUNT#assignee:<userId>`), for a deleted project's counts (#257). */
  projectAssigneeCounts: (projectId: number) => tableCollection(`PROJECT#${projectId}`, 'ISSUE_COUNT#assignee:'),
  /** A project's labels by id (not their name claims: `LABEL_NAME#` does not start with `LABEL#`). */
  projectLabels: (projectId: number) => tableCollection(`PROJECT#${projectId}`, 'LABEL#'),
  /** A project's milestones by id (not their title claims: `MILESTONE_TITLE#` does not start with `MILESTONE#`). */
  projectMilestones: (projectId: number) => tableCollection(`PROJECT#${projectId}`, 'MILESTONE#'),
  /** A group's labels by id (one bounded range of its partition). */
  groupLabels: (groupId: number) => tableCollection(`NAMESPACE#${groupId}`, 'LABEL#'),
  /** A group's milestones by id. */
  groupMilestones: (groupId: number) => tableCollection(`NAMESPACE#${groupId}`, 'MILESTONE#'),
  /** A project's issues of one state, by creation or update time (soft-deleted issues carry no index keys). */
  projectIssues: (projectId: number, state: IssueState, orderBy: IssueOrderBy = 'created_at') =>
    indexCollection(byCreation(orderBy) ? 'GSI1' : 'GSI4', issuePartitions.project(projectId, state)),
  /** A project's issues of every state, by creation (GSI7) or update (GSI8). */
  everyStateIssues: (projectId: number, orderBy: IssueOrderBy = 'created_at') =>
    indexCollection(byCreation(orderBy) ? 'GSI7' : 'GSI8', issuePartitions.project(projectId, 'all')),
  /** The entries of a project's labels under one search term (a term holding `#` may read another's entries too: the labels are checked after). */
  labelSearch: (projectId: number, term: string) => tableCollection(`PROJECT#${projectId}`, `LABEL_TERM#${term}#`),
  /** Every issue item of a project, deleted ones included, by iid (data migrations only: lists read the indexes). */
  projectIssueItems: (projectId: number) => tableCollection(`PROJECT#${projectId}`, 'ISSUE#'),
  /** The entries of a project's issues of one state (or `all`) in one filtered list (a label's, a milestone's, an assignee's, an author's), by creation. */
  dimensionIssues: (projectId: number, dimension: string, state: IssueState | 'all') =>
    indexCollection(state === 'all' ? 'GSI2' : 'GSI1', issuePartitions.dimension(projectId, dimension, state)),
  /** The entries of a project's issues under one search term, by creation (any state). */
  searchIssues: (projectId: number, term: string) => indexCollection('GSI1', issuePartitions.term(projectId, term)),
  /** Every issue note of a project, by issue iid then id (a hook test's sample: the first one). */
  projectIssueNotes: (projectId: number) => tableCollection(`PROJECT#${projectId}`, 'NOTE#'),
  /** The notes of one issue, by id (id order is creation order). */
  issueNotes: (projectId: number, issueIid: number) => tableCollection(`PROJECT#${projectId}`, `NOTE#${pad(issueIid)}#`),
  /** The notes of one merge request, by id (id order is creation order). */
  mergeRequestNotes: (projectId: number, mergeRequestIid: number) => tableCollection(`PROJECT#${projectId}`, `MR_NOTE#${pad(mergeRequestIid)}#`),
  /** A noteable's notes grouped by discussion (discussions by their first note's id, then notes by id); `afterRootId`: past that discussion. */
  noteableDiscussions: (noteable: NoteableKeyed, afterRootId?: number) =>
    indexCollection('GSI1', noteThreadPartition(noteable), afterRootId === undefined ? {} : { from: `${pad(afterRootId)}$` }),
  /** Every note item of a project on one noteable type (data migrations only: lists read one noteable's range). */
  projectNoteItems: (projectId: number, type: NoteableType) => tableCollection(`PROJECT#${projectId}`, type === 'Issue' ? 'NOTE#' : 'MR_NOTE#'),
  /** The notes of one discussion (by its first note's id), by id. */
  discussionNotes: (noteable: NoteableKeyed, rootId: number) => indexCollection('GSI1', noteThreadPartition(noteable), { prefix: `${pad(rootId)}#` }),
  /** The award emoji of one awardable, by id. */
  awards: (awardable: AwardableKeyed) => tableCollection(`PROJECT#${awardable.projectId}`, awardPrefix(awardable)),
  /** The issues a user authored, by creation or update time. */
  userIssues: (userId: number, orderBy: IssueOrderBy = 'created_at') =>
    indexCollection(byCreation(orderBy) ? 'GSI2' : 'GSI5', issuePartitions.author(userId)),
  /** The issues assigned to a user, by creation or update time. */
  assignedIssues: (userId: number, orderBy: IssueOrderBy = 'created_at') =>
    indexCollection(byCreation(orderBy) ? 'GSI3' : 'GSI6', issuePartitions.assignee(userId)),
  /** A user's todos of one state, by id. */
  userTodos: (userId: number, state: TodoState) => indexCollection('GSI1', userTodoPartition(userId, state)),
  /** The notes (comments and system notes) a user wrote, by id, on any noteable of any project (GSI2). */
  userNotes: (userId: number) => indexCollection('GSI2', userNotesPartition(userId)),
  /** The award emoji a user gave, by id, in any project (GSI2). */
  userAwards: (userId: number) => indexCollection('GSI2', userAwardsPartition(userId)),
  /** Every award emoji item of a project, issues' and notes' (data migrations only: reads name one awardable's range). */
  projectAwardItems: (projectId: number) => tableCollection(`PROJECT#${projectId}`, 'AWARD#'),
  /** The links of one issue (its sides of them), by the other issue's project and iid. */
  issueLinks: (projectId: number, iid: number) => tableCollection(`PROJECT#${projectId}`, `ISSUE_LINK#${pad(iid)}#`),
  /** The resource event items of one kind of one issue or merge request, by the id of their first event (oldest first). */
  resourceEvents: (resource: NoteableKeyed, kind: ResourceEventKind) => tableCollection(`PROJECT#${resource.projectId}`, resourceEventPrefix(resource, kind)),
  /**
   * The sort keys below the item that would start at event `id + 1`: read descending, its first
   * item is the one holding event `id` if any holds it (checked by the reader, with the prefix).
   */
  resourceEventsUpTo: (resource: NoteableKeyed, kind: ResourceEventKind, id: number): Collection => ({
    partitionAttribute: 'PK',
    partitionValue: `PROJECT#${resource.projectId}`,
    sortAttribute: 'SK',
    below: `${resourceEventPrefix(resource, kind)}${pad(id + 1)}`,
  }),
} as const;

/** The kinds of resource events (GitLab's `resource_label_events`, `resource_state_events`, `resource_milestone_events`). */
export type ResourceEventKind = 'label' | 'state' | 'milestone';

/** Internal: the sort-key prefix of a noteable's resource events of one kind (an issue's keep their first name). */
const resourceEventPrefix = (resource: NoteableKeyed, kind: ResourceEventKind) => `${resource.type === 'Issue' ? 'ISSUE_EVENT' : 'MR_EVENT'}#${pad(resource.iid)}#${kind}#`;

/** The id sequences of the resource events, by kind, and of issue links. */
export const issueSequences = {
  issueLinks: 'issue_links',
  resourceEvents: (kind: ResourceEventKind) => `resource_${kind}_events`,
} as const;

/** Who holds a label: a project or a group (GitLab's `ProjectLabel` / `GroupLabel`). */
export interface LabelOwner {
  kind: 'project' | 'group';
  id: number;
}

/** Internal: the partition of a label owner's items. */
const ownerPartition = (owner: LabelOwner) => (owner.kind === 'project' ? `PROJECT#${owner.id}` : `NAMESPACE#${owner.id}`);

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

/** What todos are about: a noteable, or a commit (GitLab's `Todo#target_type`; a commit's todo holds its sha, `commit_id`). */
export type TodoTargetType = NoteableType | 'Commit';

/** A todo's target as its pending key needs it: a noteable's iid, or a commit's sha (`commitId`). */
export interface TodoTargetKeyed {
  targetType: TodoTargetType;
  projectId: number;
  targetIid: number;
  commitId?: string;
}

/**
 * The pending keys of todos, by target type: the guard "at most one pending todo per user and
 * target" (GitLab's `TodoService#excluded_user_ids` without `multiple_todos`).
 */
export const todoKeys = {
  /** A user's pending todo on a commit (mentioned in a commit note), by the commit's sha; marked done it moves to {@link issueKeys.doneTodo}. */
  commitTodo: (projectId: number, sha: string, userId: number): Key => ({ PK: `PROJECT#${projectId}`, SK: `COMMIT_TODO#${sha}#${pad(userId)}` }),
  /** The pending key of a todo of any target type. */
  pending: (target: TodoTargetKeyed, userId: number): Key =>
    target.targetType === 'Commit'
      ? todoKeys.commitTodo(target.projectId, target.commitId ?? '', userId)
      : noteableKeys.pendingTodo({ type: target.targetType, projectId: target.projectId, iid: target.targetIid }, userId),
} as const;

/** What award emoji hang on: an issue or a merge request (by iid) or a note (by its global id), in its project. */
export interface AwardableKeyed {
  type: 'Issue' | 'MergeRequest' | 'Note';
  projectId: number;
  /** The issue's or merge request's iid, or the note's id. */
  localId: number;
}

/** Internal: the sort-key prefix of an awardable's awards. */
const awardPrefix = (awardable: AwardableKeyed) => `AWARD#${awardable.type.toUpperCase()}#${pad(awardable.localId)}#`;

/** Internal: the GSI1 partition of a noteable's notes by discussion. */
const noteThreadPartition = ({ type, projectId, iid }: NoteableKeyed) => `NOTE_THREADS#${projectId}#${type}#${iid}`;

/** The states a todo's list is partitioned by. */
export type TodoState = 'pending' | 'done';

/** Internal: the GSI1 partition of a user's todos of one state. */
const userTodoPartition = (userId: number, state: TodoState) => `USER_TODOS#${userId}#${state}`;
/** Internal: the GSI2 partition of the notes a user wrote. */
const userNotesPartition = (userId: number) => `USER_NOTES#${userId}`;
/** Internal: the GSI2 partition of the award emoji a user gave. */
const userAwardsPartition = (userId: number) => `USER_AWARDS#${userId}`;

/** Sort key of issue lists: an ISO time (creation or last update), then the padded global id. */
export const issueOrderKey = (time: string, id: number): string => `${time}#${pad(id)}`;

/** The project an item of a project partition (`PROJECT#<id>`) belongs to, e.g. a list entry read from an index. */
export const projectIdOfPartition = (partitionKey: string): number => Number(partitionKey.slice('PROJECT#'.length));

/** Whether a sort key is a list entry's ({@link issueKeys.listEntry}), not a search entry's. */
export const isListEntryKey = (sortKey: string): boolean => sortKey.startsWith('ISSUE_ENTRY#');

/** The term of a search entry's sort key ({@link issueKeys.searchEntry}; a term may hold `#`, the padded iid does not). */
export const searchTermOfKey = (sortKey: string): string => sortKey.slice('ISSUE_TERM#'.length, sortKey.lastIndexOf('#'));

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
  /** Every state's list shares its states' journal (`withoutState` below). */
  dimension: (projectId: number, dimension: string, state: string) => `ISSUE_LIST#${projectId}#${dimension}${state === 'all' ? '' : `#${state}`}`,
  term: (projectId: number, term: string) => `ISSUE_SEARCH#${projectId}#${term}`,
};

const byCreation = (orderBy: IssueOrderBy) => orderBy === 'created_at';

/** Index partitions whose lists show a write at once (read-your-writes journal, `platform/dynamo/recent.ts`): issue lists (state, filtered, a user's), discussions and todos. */
readYourWrites('PROJECT_ISSUES#', 'ISSUE_LIST#', 'ISSUE_SEARCH#', 'USER_ISSUES#', 'USER_ASSIGNED_ISSUES#', 'NOTE_THREADS#', 'USER_TODOS#');
// A project's issue lists share three journals: its state lists (a list of every state, its own
// partition or its `opened` and `closed` ones merged, reads them together), its filtered lists,
// its search terms. An issue's write puts one entry in each, naming its items and their lists
// (not one per item and list: a create with labels and words would put fifteen).
const ofProject = (partition: string) => partition.split('#', 2).join('#');
for (const prefix of ['PROJECT_ISSUES#', 'ISSUE_LIST#', 'ISSUE_SEARCH#']) journalTogether(prefix, ofProject);
// One mark for every issue list of a project: the lists read it with their project.
const markOfProject = (partition: string) => issueKeys.journalMark(Number(partition.split('#')[1]));
for (const prefix of ['PROJECT_ISSUES#', 'ISSUE_LIST#', 'ISSUE_SEARCH#']) journalMark(prefix, markOfProject);

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
      'MR_DISCUSSION#',
      'MR_SUBSCRIPTION#',
      'MR_TODO#',
      'COMMIT_TODO#',
      'ISSUE_ENTRY#',
      'ISSUE_TERM#',
      'ISSUE_COUNT#',
      'ISSUE_JOURNAL_MARK',
      'LABEL_TERM#',
      'LABEL_SUBSCRIPTION#',
      'AWARD#',
      'AWARD_NAME#',
      'ISSUE_LINK#',
      'ISSUE_EVENT#',
      'MR_EVENT#',
    ],
    'NAMESPACE#': ['LABEL#', 'LABEL_NAME#', 'LABEL_SUBSCRIPTION#', 'MILESTONE#', 'MILESTONE_TITLE#'],
    'USER#': ['ISSUE_ASSIGNED_COUNT', 'TODO_PENDING_COUNT'],
  },
  indexPartitions: {
    GSI1: ['PROJECT_ISSUES#', 'USER_TODOS#', 'ISSUE_LIST#', 'ISSUE_SEARCH#', 'NOTE_THREADS#'],
    GSI2: ['USER_ISSUES#', 'USER_NOTES#', 'USER_AWARDS#', 'ISSUE_LIST#'],
    GSI3: ['USER_ASSIGNED_ISSUES#'],
    GSI4: ['PROJECT_ISSUES#'],
    GSI5: ['USER_ISSUES#'],
    GSI6: ['USER_ASSIGNED_ISSUES#'],
    GSI7: ['PROJECT_ISSUES#'],
    GSI8: ['PROJECT_ISSUES#'],
  },
  sequences: [
    'issues',
    'issues#',
    'milestones#',
    'labels',
    'milestones',
    // `notes` is shared with the repository feature's commit notes: `platform/dynamo/sequences.ts`.
    'todos',
    'award_emoji',
    'issue_links',
    'resource_label_events',
    'resource_state_events',
    'resource_milestone_events',
  ],
};
