/**
 * What a comment on a merge request writes in its own transaction besides the note (the issues
 * feature writes the note): its `commented on` feed event and its Note Hook event, for the notes
 * and the discussions routes alike.
 */
import { prepareHookEvent } from '../../hooks';
import type { User } from '../../users';
import { commentEvent, mergeRequestNoteable, type NoteEffects } from '../issuables';
import type { MergeRequest } from '../store/merge-requests';
import '../webhooks/events';

/**
 * @example
 * const note = await createNote(noteable, user, body, mergeRequestCommentEffects(mr, user));
 */
export const mergeRequestCommentEffects = (mr: MergeRequest, user: User): NoteEffects => async (written, at) => {
  // Asked for at once: their ids come from one counter write.
  const [event, hook] = await Promise.all([
    commentEvent(mergeRequestNoteable(mr), written, user, { title: mr.title, restrictedTo: null }),
    prepareHookEvent({ projectId: mr.projectId, actorId: user.id, kind: 'merge_request_note', action: 'create', note: written, mergeRequest: { ...mr, updatedAt: at }, lastCommit: null }),
  ]);
  return { event, hook: hook.put };
};
