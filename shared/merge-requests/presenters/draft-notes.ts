/**
 * GitLab's `DraftNote` entity (`GET …/draft_notes`, `POST`, `PUT`): the draft as stored, its
 * position as `Position#to_h` shows it. A draft without one shows GitLab's empty text position
 * (every field `null`, `position_type` `text`), as its documentation answers. No reads: everything
 * is on the item.
 */
import type { DraftNote } from '../store/draft-notes';

/** GitLab's position of a draft that has none. */
const NO_POSITION = {
  base_sha: null,
  start_sha: null,
  head_sha: null,
  old_path: null,
  new_path: null,
  position_type: 'text',
  old_line: null,
  new_line: null,
  line_range: null,
} as const;

/** @example ok(presentDraftNote(draft)) */
export function presentDraftNote(draft: DraftNote) {
  return {
    id: draft.id,
    author_id: draft.authorId,
    merge_request_id: draft.mergeRequestId,
    resolve_discussion: draft.resolveDiscussion,
    discussion_id: draft.discussionId,
    note: draft.note,
    commit_id: draft.commitId,
    line_code: draft.diff?.lineCode ?? null,
    position: draft.diff?.position ?? NO_POSITION,
  };
}
