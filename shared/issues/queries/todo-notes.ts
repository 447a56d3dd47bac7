/**
 * The notes behind mention todos on issues and merge requests (GitLab's `Todo#body`: the note's
 * text when the todo has a note, else the target's title; the Todo entity's `target_url` is then
 * anchored at the note, `#note_<id>`). A commit todo's note is its resolver's
 * (`shared/repository/todo-targets.ts`).
 */
import type { Key } from '../../platform/dynamo/keys';
import type { Item } from '../../platform/dynamo/query';
import { noteableKeys } from '../store/keys';
import { noteFromItem } from '../store/notes';
import type { Todo } from '../store/todos';

/** What a todo shows of the note that caused it. */
export interface TodoNote {
  /** `body`: the note's current text. */
  body: string;
  /** The `target_url` anchor. */
  anchor: string;
}

/** Internal: the todos whose note is read here (issue and merge request todos with a note). */
const noted = (todos: Todo[]) => todos.filter((todo) => todo.noteId !== undefined && todo.targetType !== 'Commit');

/** Internal: the key of a todo's note. */
const noteKeyOf = (todo: Todo): Key =>
  noteableKeys.note({ type: todo.targetType as 'Issue' | 'MergeRequest', projectId: todo.projectId, iid: todo.targetIid }, todo.noteId!);

/** The keys of the notes of `todos` that have one, to read with the rest of their page. */
export const todoNoteKeys = (todos: Todo[]): Key[] => noted(todos).map(noteKeyOf);

/**
 * The notes of the issue and merge request todos that have one, by todo id, from the items read
 * with {@link todoNoteKeys}; a deleted note is absent (the todo then shows its target's title, as
 * GitLab's without a note).
 * @example
 * const notes = todoNotesFrom(todos, byKey(await getMany(todoNoteKeys(todos))));
 * const body = notes.get(todo.id)?.body ?? target.body;
 */
export function todoNotesFrom(todos: Todo[], read: (key: Key) => Item | undefined): Map<number, TodoNote> {
  const notes = new Map<number, TodoNote>();
  for (const todo of noted(todos)) {
    const item = read(noteKeyOf(todo));
    if (!item) continue;
    const note = noteFromItem(item);
    notes.set(todo.id, { body: note.body, anchor: `#note_${note.id}` });
  }
  return notes;
}
