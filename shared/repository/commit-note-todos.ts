/**
 * Todos for the users a commit note mentions. They are the issues feature's (todos, mentions),
 * which sits beside the repository and cannot be imported by it: the composition root wires the
 * provider (`mentionTodosWith(commitMentionTodos)`), and every new commit note (a comment, a
 * discussion's first note, a reply; not an edit) puts the items it returns in its own transaction,
 * so a note and its todos are written together or not at all. Without a provider (a process that
 * does not load the root) notes create no todos.
 */
import type { ProjectSubject } from '../auth';
import type { TransactItem } from '../platform/dynamo/transactions';
import type { CommitNote } from './store/commit-notes';

/** What the provider gets: the new note and its project (as its author sees it). */
export interface CommitNoteMention {
  subject: ProjectSubject;
  note: Pick<CommitNote, 'id' | 'body' | 'authorId' | 'commitSha' | 'createdAt'>;
}

/** Builds the transaction items of the todos a new note creates (none: an empty list). */
export type MentionTodoProvider = (mention: CommitNoteMention) => Promise<TransactItem[]>;

let provider: MentionTodoProvider | undefined;

/**
 * Registers how the todos of a commit note's mentions are built; called once by the composition root.
 * @example
 * mentionTodosWith(commitMentionTodos);
 */
export function mentionTodosWith(todos: MentionTodoProvider): void {
  provider = todos;
}

/** Internal: the named transaction items of the todos of a new note (`mention_todo_<n>`), for its extras. */
export async function mentionTodoExtras(mention: CommitNoteMention): Promise<Record<string, TransactItem>> {
  const items = provider ? await provider(mention) : [];
  return Object.fromEntries(items.map((item, i) => [`mention_todo_${i}`, item] as const));
}
