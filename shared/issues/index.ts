/**
 * The issues feature's public API. Besides issues, labels and milestones, what hangs on any
 * noteable — notes, subscriptions, todos, time tracking — for the merge-requests feature, which
 * describes its merge request as a {@link Noteable} (its item's key and update-ordered index sort
 * keys) and passes what differs (its webhook events, its todo targets) in.
 */
// Issues
export { closeIssueFromMergeRequest, type ClosingMergeRequest } from './commands/issues';
export { canReadIssue } from './policy';
export { issueWebUrl, presentIssue, presentIssues } from './presenters/issues';
export { findIssue, groupIssueStream, memberIssueStream, projectIssueStream, projectSubjects as issueProjectSubjects, type IssueFilters, type IssueOrder } from './queries/issues';
export { issueNoteable, type Issue, type IssueState } from './store/issues';
export { importIssues, listIssuesInEveryState, reindexProjectIssues, type ImportedIssue } from './store/import';
export { ISSUE_INDEXES_MIGRATION, ISSUE_UPDATE_LIST_MIGRATION } from './store/issue-index';
export { deleteAuthoredNotes, removeAuthoredIssues, type MergeRequestNoteableOf } from './commands/author-reassignment';
export { deleteUserAwards, reassignUserAwards, removeUserAwards } from './commands/award-reassignment';
export { indexProjectAwardUsers, noteableAwardable, noteAwardable } from './store/award-emoji';
// Award emoji, for the merge-requests feature's routes of its own and its notes' awards.
export { awardEmoji, deleteAward } from './commands/award-emoji';
export { awardableAwards, findAwardOrNotFound } from './queries/award-emoji';
export { presentAward, presentAwards } from './presenters/award-emoji';
export { issuableReferences, taskCompletionStatus, type ReferenceFrom } from './presenters/issuables';
export { listLabels, type Label } from './store/labels';
// Labels as board lists use them (the boards feature): found by id among those a project or group may use, read by reference, and their deletion.
export { availableLabelById, groupChain, labelKeyOf, labelsByRef, type LabelRef } from './queries/group-labels';
export { presentLabelBasic } from './presenters/labels';
export type { GroupLabel } from './store/group-labels';
export type { LabelOwner } from './store/keys';
export { onLabelDeleted, type DeletedLabel } from './label-listeners';
export { ensureLabels } from './commands/labels';
export { summarizeChanges } from './commands/issues';
export { findMilestoneByTitle, getMilestone, listMilestones, type Milestone } from './store/milestones';
export { resolveProjectMilestoneId } from './commands/group-milestones';
export { issueHookPayloads } from './webhooks/builders';
export { labelAttrs as labelHookAttrs } from './webhooks/payloads';

// Noteables
export type { Noteable, NoteableItem, NoteableType, WriteEffects } from './store/noteables';

// Notes
export { indexProjectNoteAuthors, indexProjectNoteThreads } from './store/notes';
export { commentEvent, systemNotePuts } from './commands/note-effects';
export { createNote, createSystemNote, deleteNote, MAX_NOTE_LENGTH, NOTE_BODY_LIMIT, updateNote, type NoteEffects } from './commands/notes';
export { presentNote, presentNotes } from './presenters/notes';
export { findNoteOrNotFound, noteableNotes, type NoteOrder } from './queries/notes';
export { noteableParticipants } from './queries/participants';
export { listNotes } from './store/notes';
// Resource events, recorded by merge request writes too and read by the merge-requests feature's routes.
export { resourceEventPuts, type ResourceEventKind, type ResourceTarget } from './store/resource-events';
export { findResourceEventOrNotFound, noteableResourceEvents } from './queries/resource-events';
export { presentResourceEvents } from './presenters/resource-events';
export { noteTarget, type IssueNote, type MergeRequestNote, type Note, type WithUserNotesCount } from './store/notes';

// Discussions (threads of notes; resolvable on merge requests)
export { replyToDiscussion, resolveDiscussion, resolveDiscussionNote, startDiscussion } from './commands/discussions';
export { discussionOf, presentDiscussion, presentDiscussions } from './presenters/discussions';
export { findDiscussionNoteOrNotFound, findDiscussionOrNotFound, noteableDiscussions } from './queries/discussions';
export { discussionIdOf } from './store/discussions';
export {
  addedCommitsNote,
  assigneesNote,
  labelsNote,
  mergeRequestReference,
  statusNote,
  systemNotesFor,
  targetBranchNote,
  type IssueChangeSummary,
  type NotedCommit,
} from './system-notes';

// Subscriptions, todos, time tracking
export { markTodo, subscribe, trackTime, unsubscribe, type TimeAction, type TimeTrackingOptions } from './commands/noteable-actions';
export { isSubscribedTo, type Subscribable } from './subscriptions';
export { presentTodos } from './presenters/todos';
export type { Todo } from './store/todos';
export { getIssueUserCounts, type IssueUserCounts } from './store/user-counts';
export { pendingTodoRemovals } from './store/todos';
export { registerTodoTargets, type PresentedTodoTarget, type TodoTarget, type TodoTargetResolver } from './todo-targets';
// Todos for the users a commit note mentions, wired into the repository's notes by the composition root.
export { commitMentionTodos } from './commands/mention-todos';
// The todos of a merge request's new assignee and reviewer, in the merge request's write.
export { requestTodoItems, type TodoRequest } from './commands/request-todos';
// An approver's pending todo on the merge request, done after the approval.
export { resolveTodoOn } from './commands/todos';
export { presentTimeStats } from './presenters/time-stats';
export { presentGroupMilestone, presentMilestone, presentMilestoneAlias } from './presenters/milestones';
export { listProjectMilestones, type MilestoneFilters } from './queries/milestones';
export { listMilestonesOfGroup } from './queries/group-milestones';
export type { GroupMilestone } from './store/group-milestones';
export type { TimeTracked, TimeTrackedRecord } from './store/issue-time';
export { formatEstimate, formatTotal, parseDuration } from './time-tracking';
