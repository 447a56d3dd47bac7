/**
 * What merge requests share with issues, from the issues feature: notes, award emoji,
 * subscriptions, todos and time tracking on a noteable, labels and milestones, system
 * notes in a merge request's own transactions, and closing issues on merge. The one module of this
 * feature that reaches into `../issues`; the rest of the feature imports from here.
 */
import {
  closeIssueFromMergeRequest as closeIssue,
  createNote,
  deleteNote,
  findIssue,
  findNoteOrNotFound,
  addedCommitsNote,
  canReadIssue,
  commentEvent,
  labelsNote,
  assigneesNote,
  statusNote,
  ensureLabels,
  listLabels,
  listMilestones,
  resolveProjectMilestoneId,
  summarizeChanges,
  systemNotesFor,
  targetBranchNote,
  markTodo,
  registerTodoTargets,
  presentTodos,
  noteableNotes,
  noteableParticipants,
  presentIssues,
  presentNote,
  presentNotes,
  subscribe,
  isSubscribedTo,
  systemNotePuts,
  trackTime,
  unsubscribe,
  updateNote,
  discussionIdOf,
  discussionOf,
  findDiscussionNoteOrNotFound,
  findDiscussionOrNotFound,
  noteableDiscussions,
  presentDiscussion,
  presentDiscussions,
  replyToDiscussion,
  resolveDiscussion,
  resolveDiscussionNote,
  startDiscussion,
  type Issue,
  type Noteable,
  type NoteEffects,
  type TimeAction,
  type Note,
  type TodoTargetResolver,
} from '../issues';
import type { TransactItem } from '../platform/dynamo/transactions';
import type { User } from '../users';
import { mergeRequestKeys } from './store/keys';
import { toItem, touchedAttributes, type MergeRequest } from './store/merge-requests';

export { ensureLabels, listLabels, listMilestones, resolveProjectMilestoneId, summarizeChanges, systemNotesFor, addedCommitsNote, assigneesNote, canReadIssue, commentEvent, labelsNote, registerTodoTargets, presentTodos, statusNote, targetBranchNote, createNote, deleteNote, findIssue, findNoteOrNotFound, markTodo, noteableNotes, noteableParticipants, presentIssues, presentNote, presentNotes, subscribe, trackTime, unsubscribe, updateNote };
export type { Issue, Note, Noteable, NoteEffects, TimeAction, TodoTargetResolver };
export { awardableAwards, awardEmoji, deleteAward, findAwardOrNotFound, listNotes, noteableAwardable, noteAwardable, presentAward, presentAwards } from '../issues';
export { pendingTodoRemovals, requestTodoItems, resolveTodoOn, type TodoRequest } from '../issues';
export { findResourceEventOrNotFound, noteableResourceEvents, presentResourceEvents, resourceEventPuts, type ResourceEventKind, type ResourceTarget } from '../issues';
export {
  discussionIdOf,
  discussionOf,
  findDiscussionNoteOrNotFound,
  findDiscussionOrNotFound,
  noteableDiscussions,
  presentDiscussion,
  presentDiscussions,
  replyToDiscussion,
  resolveDiscussion,
  resolveDiscussionNote,
  startDiscussion,
};

/** A merge request as a noteable: its item's key and update-ordered index sort keys are this feature's. */
export function mergeRequestNoteable(mr: MergeRequest): Noteable {
  return {
    type: 'MergeRequest',
    projectId: mr.projectId,
    iid: mr.iid,
    id: mr.id,
    authorId: mr.authorId,
    assigneeIds: mr.assigneeId ? [mr.assigneeId] : [],
    reviewerIds: mr.reviewer ? [mr.reviewer.userId] : [],
    item: { key: mergeRequestKeys.mergeRequest(mr.projectId, mr.iid), touched: touchedAttributes(mr.id), held: () => toItem(mr) },
  };
}

/** Whether `userId` is subscribed to the merge request. */
export const isSubscribed = (mr: MergeRequest, userId: number): Promise<boolean> => isSubscribedTo(mergeRequestNoteable(mr), userId);

/** The Puts of system notes on the merge request, for the transaction of the change they tell. */
export const mergeRequestSystemNotes = (mr: MergeRequest, author: Pick<User, 'id'>, bodies: string[]): Promise<TransactItem[]> =>
  systemNotePuts(mergeRequestNoteable(mr), author, bodies);

/** Closes `issue` as merging `mr` (full reference `group/project!N`) does, by `user`. */
export async function closeIssueFromMergeRequest(issue: Issue, user: User, mr: MergeRequest, fullReference: string): Promise<void> {
  await closeIssue(issue, user, { projectId: mr.projectId, iid: mr.iid, reference: fullReference, id: mr.id });
}
