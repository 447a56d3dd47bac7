/**
 * Draft notes (GitLab's `DraftNotes::CreateService`, `DestroyService` and `PublishService`): a
 * reviewer's pending comments on a merge request, seen only by their author, counted nowhere and
 * firing nothing until published.
 *
 * Drafting checks what GitLab checks (a reply's discussion exists and is not a system note's;
 * `resolve_discussion` needs a discussion the caller may resolve) and, unlike GitLab, checks a
 * diff position at once as a diff note's (`checkPosition`): GitLab keeps any position and fails
 * only when publishing it (a 500); here the draft is refused with the 400 the discussion route
 * gives, so every stored draft can be published.
 *
 * Publishing makes the note through the issues feature's note commands, as the notes and
 * discussions routes do (an individual note, a reply in its discussion, a diff discussion at its
 * position), with their `commented on` event, Note Hook and mention todos, and the draft's Delete
 * in the note's own transaction (`draftConsumed`, conditioned on the draft being there): a publish
 * repeated or raced makes one note, the other answering GitLab's `404 Not found`. A reply drafted
 * with `resolve_discussion` then resolves its discussion.
 */
import { can, type ProjectSubject } from '../../auth';
import { nextId } from '../../platform/dynamo/counters';
import { ForbiddenError, NotFoundError, RecordNotFoundError, ValidationError } from '../../platform/http/errors';
import type { User } from '../../users';
import { checkPosition, type PositionInput } from '../diff-position';
import {
  createNote,
  findDiscussionOrNotFound,
  replyToDiscussion,
  resolveDiscussion,
  startDiscussion,
  type Note,
  type Noteable,
  type NoteEffects,
} from '../issuables';
import { deleteDraftNote, draftConsumed, getDraftNote, insertDraftNote, listDraftNotes, updateDraftNote, type DraftNote, type DraftOwner } from '../store/draft-notes';
import { mergeRequestSequences } from '../store/keys';
import type { MergeRequest } from '../store/merge-requests';
import { markReviewerReviewed } from './approvals';
import { mergeRequestCommentEffects } from './comments';

/** What a draft is made of (the route's parsed parameters). */
export interface DraftInput {
  note: string;
  inReplyToDiscussionId?: string;
  commitId?: string;
  resolveDiscussion?: boolean;
  position?: PositionInput;
}

/** The caller's drafts of `mr`. */
const ownerOf = (mr: MergeRequest, user: Pick<User, 'id'>): DraftOwner => ({ projectId: mr.projectId, iid: mr.iid, authorId: user.id });

/** GitLab's `render_validation_error!` of a draft's `base` errors. */
const baseError = (message: string) => new ValidationError({ base: [message] });

/**
 * Internal: GitLab's `Discussion#can_resolve?`: a resolvable discussion (a thread of user notes),
 * and the merge request's author or a developer (or above) of its project.
 */
const canResolve = (subject: ProjectSubject, user: User, mr: MergeRequest, notes: Note[]) =>
  notes.some((note) => note.noteType === 'DiscussionNote' && !note.system) && (mr.authorId === user.id || can(user, 'admin_merge_request', subject));

/**
 * Drafts a note on `mr` for its author alone.
 * @throws ValidationError `{"base":[…]}`: a reply to a discussion that is not there or is a system
 *   note's, `resolve_discussion` the caller may not do; BadRequestError for a position not in the diff.
 * @example
 * const draft = await createDraftNote(subject, user, mr, noteable, { note: 'Nit: a typo' });
 */
export async function createDraftNote(subject: ProjectSubject, user: User, mr: MergeRequest, noteable: Noteable, input: DraftInput): Promise<DraftNote> {
  let discussionId: string | null = null;
  let notes: Note[] = [];
  if (input.inReplyToDiscussionId) {
    notes = await findDiscussionOrNotFound(noteable, input.inReplyToDiscussionId).then(
      (discussion) => discussion.notes,
      (error: unknown) => {
        if (error instanceof NotFoundError) throw baseError('Thread to reply to cannot be found');
        throw error;
      },
    );
    if (notes[0]?.system) throw baseError('Replies to system notes are not allowed');
    discussionId = input.inReplyToDiscussionId;
  }
  if (input.resolveDiscussion && !(discussionId && canResolve(subject, user, mr, notes))) throw baseError('User is not allowed to resolve thread');
  // A reply takes its discussion's position when published: a position of its own is not a diff note's.
  const diff = input.position && !discussionId ? await checkPosition(mr, input.position) : null;
  const now = new Date().toISOString();
  const draft: DraftNote = {
    id: await nextId(mergeRequestSequences.draftNotes),
    projectId: mr.projectId,
    iid: mr.iid,
    mergeRequestId: mr.id,
    authorId: user.id,
    note: input.note,
    discussionId,
    resolveDiscussion: input.resolveDiscussion ?? false,
    // GitLab's API reads the JavaScript client's `'undefined'` as none.
    commitId: input.commitId && input.commitId !== 'undefined' ? input.commitId : null,
    diff,
    createdAt: now,
    updatedAt: now,
  };
  const failure = await insertDraftNote(draft);
  if (failure === 'project_gone') throw new NotFoundError('Project');
  if (failure === 'merge_request_gone') throw new NotFoundError('Merge Request');
  return draft;
}

/** The caller's draft `id` on `mr`; GitLab's `404 Not found` (its `find`) when none, or someone else's. */
export async function findDraftNoteOrNotFound(mr: MergeRequest, user: Pick<User, 'id'>, id: number): Promise<DraftNote> {
  const draft = await getDraftNote(ownerOf(mr, user), id);
  if (!draft) throw new RecordNotFoundError();
  return draft;
}

/** The caller's drafts of `mr`, oldest first. */
export const listOwnDraftNotes = (mr: MergeRequest, user: Pick<User, 'id'>): Promise<DraftNote[]> => listDraftNotes(ownerOf(mr, user));

/**
 * Changes a draft's text, and its position when given (checked as at creation). GitLab also
 * clears the position when none is given; here it is kept.
 */
export async function updateOwnDraftNote(mr: MergeRequest, draft: DraftNote, note: string, position?: PositionInput): Promise<DraftNote> {
  const diff = position && !draft.discussionId ? await checkPosition(mr, position) : undefined;
  const updated = await updateDraftNote(draft, { note, updatedAt: new Date().toISOString(), ...(diff ? { diff } : {}) });
  if (!updated) throw new RecordNotFoundError();
  return updated;
}

/** Deletes a draft; `404 Not found` when it went meanwhile (published or deleted). */
export async function deleteOwnDraftNote(draft: DraftNote): Promise<void> {
  if (!(await deleteDraftNote(draft))) throw new RecordNotFoundError();
}

/**
 * Publishes one draft as the note it stands for, deleting it in the note's transaction, then
 * resolves a reply's discussion when it was drafted with `resolve_discussion`.
 * @throws RecordNotFoundError when the draft went meanwhile (another publish made its note).
 */
export async function publishDraftNote(subject: ProjectSubject, user: User, mr: MergeRequest, noteable: Noteable, draft: DraftNote): Promise<Note> {
  const comment = mergeRequestCommentEffects(mr, user);
  const effects: NoteEffects = async (note, at) => ({ ...(await comment(note, at)), source: draftConsumed(draft) });
  if (draft.discussionId) {
    const discussion = await findDiscussionOrNotFound(noteable, draft.discussionId);
    const note = await replyToDiscussion(subject, noteable, user, discussion.notes, { body: draft.note }, effects);
    if (draft.resolveDiscussion) {
      // GitLab resolves only if the caller still may (`can_resolve?`); the note stands either way.
      await resolveDiscussion(subject, user, noteable, { id: discussion.id, notes: [...discussion.notes, note] }, true).catch((error: unknown) => {
        if (!(error instanceof ForbiddenError)) throw error;
      });
    }
    return note;
  }
  if (draft.diff) return startDiscussion(subject, noteable, user, { body: draft.note, diff: draft.diff }, effects);
  return createNote(noteable, user, draft.note, effects);
}

/**
 * Publishes every draft of `user` on `mr` (GitLab's bulk publish, a review): drafts gone meanwhile
 * (published by a racing request) are skipped. When any was published and `user` is the merge
 * request's reviewer, their review is marked `reviewed` (GitLab's `set_reviewed`).
 */
export async function publishAllDraftNotes(subject: ProjectSubject, user: User, mr: MergeRequest, noteable: Noteable): Promise<void> {
  const drafts = await listOwnDraftNotes(mr, user);
  for (const draft of drafts) {
    try {
      await publishDraftNote(subject, user, mr, noteable, draft);
    } catch (error) {
      if (!(error instanceof RecordNotFoundError)) throw error;
    }
  }
  if (drafts.length > 0 && mr.reviewer?.userId === user.id) await markReviewerReviewed(subject, user, mr);
}
