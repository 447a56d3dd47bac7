/**
 * The todos a new commit note creates for the users it mentions (GitLab's `TodoService#new_note`
 * → `create_mention_todos`): `directly_addressed` for the users whose mention opens a paragraph,
 * `mentioned` for the others (a user directly addressed is not also mentioned), never for the
 * note's author, and only for users who can read the commit (`read_commit`: the project's code,
 * `download_code`) and are active. A user who already has a pending todo on the commit gets no
 * second one (GitLab without `multiple_todos`).
 *
 * The repository feature (which cannot import this one) asks for them through the hook the
 * composition root wires (`mentionTodosWith(commitMentionTodos)`), and puts the returned items in
 * the note's transaction: the todos exist exactly when the note does.
 *
 * Not done: group mentions and `@all` (GitLab adds their members); resolving the author's own
 * pending todos on the commit (`resolve_todos_for_target`).
 */
import { can, projectAccessFor, type ProjectSubject } from '../../auth';
import { namespaceKeys } from '../../namespaces';
import { getMany } from '../../platform/dynamo/batch';
import { nextIds } from '../../platform/dynamo/counters';
import type { TransactItem } from '../../platform/dynamo/transactions';
import { userFromItem, userKeys, type User } from '../../users';
import { textMentions } from '../mentions';
import { mentionTodoPuts, usersWithPendingTodo, type Todo } from '../store/todos';

/**
 * How many mentioned users one note gives todos to (the first ones in the note): their Puts ride in
 * the note's transaction, which DynamoDB caps at 100 items. GitLab has no such cap.
 */
export const MAX_MENTION_TODOS = 40;

/** A new commit note, as the repository feature hands it over. */
export interface CommitNoteMention {
  /** The note's project (its project and namespace: each mentioned user's access is computed on them). */
  subject: ProjectSubject;
  note: { id: number; body: string; authorId: number; commitSha: string; createdAt: string };
}

/** Internal: the active users of these lowercased usernames (two BatchGetItems: the path claims, then the users). */
async function usersNamed(usernames: string[]): Promise<Map<string, User>> {
  if (usernames.length === 0) return new Map();
  const claims = await getMany(usernames.map((name) => namespaceKeys.claims.namespacePath(name)), { consistent: false });
  const ids = [...new Set(claims.map((claim) => claim.userId).filter((id): id is number => typeof id === 'number'))];
  const items = ids.length > 0 ? await getMany(ids.map((id) => userKeys.user(id)), { consistent: false }) : [];
  const users = items.filter((item) => !item.deleting).map((item) => userFromItem(item));
  return new Map(users.filter((user) => user.state === 'active').map((user) => [user.username.toLowerCase(), user] as const));
}

/** Internal: whether `user` can read the commits of the project (`download_code`, with their own access). */
async function readsCode(user: User, subject: ProjectSubject): Promise<boolean> {
  const access = await projectAccessFor(user, subject.project, subject.namespace);
  return can(user, 'download_code', { ...subject, access });
}

/**
 * The transaction items of the todos `mention.note` creates (none when it mentions no one who
 * gets one). Reads: the mentioned users, their access to the project, and their pending todos on
 * the commit (one consistent BatchGetItem); ids come from the sequence `todos`.
 * @example
 * const items = await commitMentionTodos({ subject, note });
 */
export async function commitMentionTodos(mention: CommitNoteMention): Promise<TransactItem[]> {
  const { note, subject } = mention;
  const { directlyAddressed, mentioned } = textMentions(note.body);
  const names = [...new Set([...directlyAddressed, ...mentioned])].slice(0, MAX_MENTION_TODOS);
  const byName = await usersNamed(names);
  const candidates = names.map((name) => byName.get(name)).filter((user): user is User => user !== undefined && user.id !== note.authorId);
  const readable = await Promise.all(candidates.map((user) => readsCode(user, subject)));
  const recipients = candidates.filter((_user, i) => readable[i]);
  const target = { targetType: 'Commit' as const, projectId: subject.project.id, targetIid: 0, commitId: note.commitSha };
  const pending = await usersWithPendingTodo(target, recipients.map((user) => user.id));
  const fresh = recipients.filter((user) => !pending.has(user.id));
  if (fresh.length === 0) return [];
  const addressed = new Set(directlyAddressed);
  const ids = await nextIds('todos', fresh.length);
  const todos: Todo[] = fresh.map((user, i) => ({
    id: ids[i],
    projectId: subject.project.id,
    userId: user.id,
    authorId: note.authorId,
    actionName: addressed.has(user.username.toLowerCase()) ? 'directly_addressed' : 'mentioned',
    targetType: 'Commit',
    targetIid: 0,
    targetId: 0,
    commitId: note.commitSha,
    noteId: note.id,
    state: 'pending',
    createdAt: note.createdAt,
  }));
  return mentionTodoPuts(todos);
}
