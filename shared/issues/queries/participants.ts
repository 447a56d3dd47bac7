/**
 * An issue's participants (GitLab's `Participable`): its author, its assignees and the authors of
 * its comments, each once, in that order; users deleted since are left out. Mentions in text are
 * not counted (GitLab also adds the users an issue or comment mentions).
 */
import { getMany } from '../../platform/dynamo/batch';
import { userFromItem, userKeys, type User } from '../../users';
import { issueNoteable, type Issue } from '../store/issues';
import { listNotes } from '../store/notes';

export async function issueParticipants(issue: Issue): Promise<User[]> {
  const notes = await listNotes(issueNoteable(issue));
  const ids = [...new Set([issue.authorId, ...issue.assigneeIds, ...notes.filter((note) => !note.system).map((note) => note.authorId)])];
  const users = new Map((await getMany(ids.map((id) => userKeys.user(id)))).map(userFromItem).map((user) => [user.id, user]));
  return ids.flatMap((id) => (users.has(id) ? [users.get(id)!] : []));
}
