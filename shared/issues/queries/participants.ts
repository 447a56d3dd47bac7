/**
 * The participants of an issue or a merge request (GitLab's `Participable`): its author, its
 * assignees, a merge request's reviewers and the authors of its comments, each once, in that order; users deleted since are
 * left out. Mentions in text are not counted (GitLab also adds the users an issue or comment
 * mentions).
 */
import { getMany } from '../../platform/dynamo/batch';
import { userFromItem, userKeys, type User } from '../../users';
import type { Noteable } from '../store/noteables';
import { listNotes } from '../store/notes';

/**
 * A noteable's participants: its author, its assignees, its reviewers, then the authors of its comments.
 * @example
 * const users = await noteableParticipants(mergeRequestNoteable(mr));
 */
export async function noteableParticipants(noteable: Noteable): Promise<User[]> {
  const notes = await listNotes(noteable);
  const ids = [...new Set([noteable.authorId, ...noteable.assigneeIds, ...(noteable.reviewerIds ?? []), ...notes.filter((note) => !note.system).map((note) => note.authorId)])];
  const users = new Map((await getMany(ids.map((id) => userKeys.user(id)))).map(userFromItem).map((user) => [user.id, user]));
  return ids.flatMap((id) => (users.has(id) ? [users.get(id)!] : []));
}
