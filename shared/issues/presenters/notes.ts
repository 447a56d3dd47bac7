/**
 * GitLab's `Note` entity, for the notes of issues and merge requests (`noteable_type`
 * `Issue` / `MergeRequest`, `noteable_iid` the noteable's iid; `type` `DiscussionNote` or `null`).
 * A resolvable note (a user note of a merge request discussion) also shows `resolved`,
 * `resolved_by` and `resolved_at`, as GitLab's entity does only for those. A page of notes is
 * presented together: its authors and resolvers are one BatchGetItem, so the cost is per page,
 * not per note.
 */
import { getMany } from '../../platform/dynamo/batch';
import { userKeys, userFromItem, type User, presentUserPublic, withGhost } from '../../users';
import { isResolvable } from '../store/discussions';
import { noteTarget, type Note } from '../store/notes';

/**
 * `known` are users the caller already holds (not read again).
 * @example
 * const body = await presentNotes(page.items);
 */
export async function presentNotes(notes: Note[], known: readonly User[] = []) {
  const users = new Map<number, User>(known.map((user) => [user.id, user]));
  const authorIds = [...new Set(notes.flatMap((note) => (note.resolvedById === undefined ? [note.authorId] : [note.authorId, note.resolvedById])))];
  const missing = authorIds.filter((id) => !users.has(id));
  const items = missing.length > 0 ? await getMany(missing.map((id) => userKeys.user(id)), { consistent: false }) : [];
  for (const item of items) users.set(Number(item.id), userFromItem(item));
  // A deleted author shows as the ghost user (GitLab moves their notes to it).
  const authorOf = await withGhost((id) => users.get(id), notes.map((note) => note.authorId));
  return notes.map((note) => {
    const author = authorOf(note.authorId);
    const noteable = noteTarget(note);
    const resolvable = isResolvable(note);
    const resolver = note.resolvedById === undefined ? undefined : users.get(note.resolvedById);
    return {
      id: note.id,
      // `DiscussionNote` in a threaded discussion, `null` for an individual note (GitLab's STI
      // type); `DiffNote` for a note on a diff, with its `position` (and a merge request's `commit_id`).
      type: note.position ? 'DiffNote' : (note.noteType ?? null),
      body: note.body,
      attachment: null,
      author: author ? presentUserPublic(author) : null,
      created_at: note.createdAt,
      updated_at: note.updatedAt,
      system: note.system,
      noteable_id: noteable.id,
      noteable_type: noteable.type,
      ...(note.position ? { ...(noteable.type === 'MergeRequest' ? { commit_id: null } : {}), position: note.position } : {}),
      project_id: note.projectId,
      noteable_iid: noteable.iid,
      resolvable,
      ...(resolvable
        ? { resolved: note.resolvedAt !== undefined, resolved_by: resolver ? presentUserPublic(resolver) : null, resolved_at: note.resolvedAt ?? null }
        : {}),
      confidential: false,
      internal: false,
      imported: false,
      imported_from: 'none',
      commands_changes: {},
    };
  });
}

/**
 * One note (single, create and edit responses); `known` are users the caller holds (e.g. the
 * commenter, who is the caller), not read again.
 */
export async function presentNote(note: Note, known: readonly User[] = []) {
  const [body] = await presentNotes([note], known);
  return body;
}
