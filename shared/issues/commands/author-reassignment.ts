/**
 * What becomes of the issues and notes of a deleted user (GitLab's `Users::DestroyService` and
 * `Users::MigrateRecordsToGhostUserService`): without `hard_delete` the issues it authored move to
 * the ghost user; with it they are deleted, and so are its notes, comments and system notes alike
 * (GitLab's `user.notes`). Run by the user deletion job (a removal step declared in `functions/api.ts`) while
 * the user is marked as deleting, so it writes nothing new meanwhile.
 *
 * Both walk the user's author index (`USER_ISSUES#<userId>`, GSI2) a Query page at a time, so
 * their cost grows with the user's issues, never with the table. Each issue is rewritten by the
 * issue write every edit uses (`replaceIssue`): one transaction conditioned on the `version` read
 * (and only while the issue, read consistently, is still the user's), which moves its author
 * index attributes, its `author:<id>` list entries and the per-list counts (`ISSUE_COUNT#author:…`)
 * as an edit moves an assignee's; a lost race reads it again. No hook, feed event, system note or
 * resource event is written: GitLab's `update_all` fires none. A re-run (the job is retried after
 * a crash) finds only what is left, and a pass that changes nothing ends the walk, so an index
 * entry that still shows a moved issue (GSIs lag) costs one read.
 *
 * Notes are not moved (GitLab moves them): a reassignment would rewrite every note item of the
 * user for an author id nothing filters notes by; they keep the deleted user's id and are shown
 * under the ghost when read (`withGhost`, users feature). Soft-deleted issues keep their author id
 * too. With `hard_delete`, the user's notes are deleted through their author index
 * (`USER_NOTES#<userId>`, GSI2: every note, system notes included, written since it took them;
 * older ones through the data migration `note-authors-v2`) by
 * {@link deleteAuthoredNotes}: the cost grows with what the user wrote, never with the projects.
 * Award emoji have their own step (`award-reassignment.ts`), feed events the projects feature's.
 */
import { changeEveryItem } from '../../platform/dynamo/walks';
import type { UserRemoval } from '../../users';
import { getDiscussionState, isResolvable, resolutionChange } from '../store/discussions';
import { issueCollections } from '../store/keys';
import { getIssue, issueFromItem, issueNoteable, replaceIssue, type Issue } from '../store/issues';
import type { Noteable } from '../store/noteables';
import { discussionRootOf, getNote, noteFromItem, noteTarget, removeNote, removeNotes, type Note, type ResolutionChange } from '../store/notes';

/** Attempts at one issue whose writes keep losing races before the job fails (and is retried). */
const MAX_ATTEMPTS = 8;

/**
 * Internal: writes `change` of the issue as it is now, while it is live and authored by `userId`;
 * a lost race re-reads it. Whether it wrote.
 */
async function rewrite(projectId: number, iid: number, userId: number, change: (issue: Issue) => Issue): Promise<boolean> {
  for (let attempt = 1; attempt <= MAX_ATTEMPTS; attempt++) {
    const current = await getIssue(projectId, iid);
    if (!current || current.deletedAt || current.authorId !== userId) return false;
    const result = await replaceIssue(current, change(current));
    // A project being deleted takes its issues with it.
    if (result === 'project_gone') return false;
    if (result !== 'issue_changed') return true;
  }
  throw new Error(`issue ${projectId}#${iid} kept changing while its author was deleted`);
}

/** Internal: applies `change` to every issue `userId` authored (the index walked until a pass changes nothing). */
const walkAuthoredIssues = (userId: number, what: string, change: (issue: Issue) => Issue): Promise<number> =>
  changeEveryItem(
    issueCollections.userIssues(userId),
    (item) => {
      const { projectId, iid } = issueFromItem(item);
      return rewrite(projectId, iid, userId, change);
    },
    `deleted user's issues ${what}`,
    { userId },
  );

/**
 * Moves the issues `userId` authored to the ghost user (`ghostId`): their author, their place in
 * the author index and in the `author_id` lists and counts. `updated_at` is kept.
 * @returns how many issues it moved.
 * @example
 * await reassignAuthoredIssues(user.id, ghost.id);
 */
export function reassignAuthoredIssues(userId: number, ghostId: number): Promise<number> {
  return walkAuthoredIssues(userId, 'moved to the ghost user', (issue) => ({ ...issue, authorId: ghostId }));
}

/**
 * Deletes the issues `userId` authored, as `DELETE /projects/:id/issues/:issue_iid` does (soft
 * deletion: they leave every list, count and read; their notes, todos and links go with them).
 * @returns how many issues it deleted.
 */
export function deleteAuthoredIssues(userId: number): Promise<number> {
  return walkAuthoredIssues(userId, 'deleted', (issue) => {
    const now = new Date().toISOString();
    return { ...issue, deletedAt: now, updatedAt: now };
  });
}

/**
 * The issues' part of deleting a user (a removal step, `removeWithUser`): its issues move to the
 * ghost user, or with `hard_delete` are deleted. Its comments go with the merge requests' step,
 * which knows both kinds of noteable ({@link deleteAuthoredNotes}).
 */
export const removeAuthoredIssues: UserRemoval = (user, { hardDelete }, { ghost }) =>
  hardDelete ? deleteAuthoredIssues(user.id) : reassignAuthoredIssues(user.id, ghost.id);

/**
 * Finds a merge request as a noteable (live: `undefined` when it is gone or deleted); the
 * merge-requests feature, above this one, passes it to {@link deleteAuthoredNotes}.
 */
export type MergeRequestNoteableOf = (projectId: number, iid: number) => Promise<Noteable | undefined>;

/** Internal: the live noteable a note is on, or undefined when it is deleted or gone. */
async function liveNoteableOf(note: Note, mergeRequestNoteable: MergeRequestNoteableOf): Promise<Noteable | undefined> {
  const target = noteTarget(note);
  if (target.type === 'MergeRequest') return mergeRequestNoteable(target.projectId, target.iid);
  const issue = await getIssue(target.projectId, target.iid);
  return issue && !issue.deletedAt ? issueNoteable(issue) : undefined;
}

/**
 * Internal: deletes a note of `userId` as `DELETE .../notes/:note_id` does (a user note's
 * noteable's `user_notes_count` and, for an unresolved resolvable note, its discussion's
 * unresolved count move in the same transaction; a system note counts in neither and goes with a
 * liveness check of its noteable); a note whose noteable is deleted is removed alone (nothing
 * counts it any more). A lost race reads the note again. Whether it deleted.
 */
async function removeAuthoredNote(listed: Note, userId: number, mergeRequestNoteable: MergeRequestNoteableOf): Promise<boolean> {
  const target = noteTarget(listed);
  for (let attempt = 1; attempt <= MAX_ATTEMPTS; attempt++) {
    const note = await getNote(target, listed.id);
    if (!note || note.authorId !== userId) return false;
    const noteable = await liveNoteableOf(note, mergeRequestNoteable);
    if (!noteable) {
      await removeNotes([note]);
      return true;
    }
    let resolution: ResolutionChange | undefined;
    if (isResolvable(note) && note.resolvedAt === undefined) {
      const rootId = discussionRootOf(note);
      const before = await getDiscussionState(noteable, rootId);
      if (before !== undefined) resolution = resolutionChange(noteable, rootId, before, Math.max(before - 1, 0));
    }
    const failure = await removeNote(noteable, note, resolution);
    if (!failure) return true;
    if (failure === 'project_gone') return false;
    // `noteable_gone` (deleted meanwhile), `note_gone`, `resolution_changed`: read again.
  }
  throw new Error(`note ${listed.id} kept changing while its author was deleted`);
}

/**
 * Deletes the notes (comments and system notes) `userId` wrote on issues and merge requests, found
 * through their author index (see the module's comment).
 * @returns how many notes it deleted.
 * @example
 * await deleteAuthoredNotes(user.id, async (projectId, iid) => liveMergeRequestNoteable(projectId, iid));
 */
export const deleteAuthoredNotes = (userId: number, mergeRequestNoteable: MergeRequestNoteableOf): Promise<number> =>
  changeEveryItem(issueCollections.userNotes(userId), (item) => removeAuthoredNote(noteFromItem(item), userId, mergeRequestNoteable), "deleted user's notes deleted", { userId });
