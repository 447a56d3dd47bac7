/**
 * Writes of boards and their lists (GitLab's `Boards::CreateService`, `UpdateService`,
 * `DestroyService`, `Lists::CreateService`, `Lists::MoveService`, `Lists::DestroyService`). The
 * caller is authorized by the route. A list write reads the board, computes its new lists (label
 * lists renumbered 0…n-1) and writes them if the board is still as read; a concurrent write makes
 * it read again and retry, so positions stay consecutive whatever runs at once.
 */
import type { DeletedLabel, LabelRef } from '../issues';
import { ApiError, ConflictError, NotFoundError, RecordNotFoundError } from '../platform/http/errors';
import { ListError } from './errors';
import { nextId } from '../platform/dynamo/counters';
import {
  boardsWithLabel,
  deleteBoard,
  deleteLabelListEntry,
  deleteLabelLists,
  getBoard,
  insertBoard,
  insertLabelList,
  labelLists,
  parentOf,
  updateBoard,
  updateLists,
  type Board,
  type BoardFields,
  type BoardList,
} from './store/boards';
import type { BoardParent } from './store/keys';

/** How often a write is retried after the board changed under it. */
const MAX_ATTEMPTS = 8;

/** Adds a board; 404 when its parent was deleted meanwhile, 403 when a group has its one board already. */
export async function createBoard(parent: BoardParent, fields: BoardFields): Promise<Board> {
  const board = await insertBoard(parent, fields);
  if (board === 'parent_gone') throw new NotFoundError(parent.kind === 'project' ? 'Project' : 'Group');
  if (board === 'taken') throw new ApiError(403, { message: '403 Forbidden' });
  return board;
}

/** Internal: runs `write` on the board as read, again on a fresh read after a concurrent change; 404 when the board is gone. */
async function retrying<T>(board: Board, write: (current: Board) => Promise<T | 'stale'>): Promise<T> {
  let current = board;
  for (let attempt = 1; ; attempt++) {
    const result = await write(current);
    if (result !== 'stale') return result;
    const fresh = await getBoard(parentOf(board), board.id);
    if (!fresh) throw new RecordNotFoundError();
    if (attempt >= MAX_ATTEMPTS) throw new ConflictError('Board was changed concurrently, try again');
    current = fresh;
  }
}

/** Edits a board's fields (those given); 404 when it was deleted meanwhile. */
export async function editBoard(board: Board, changes: Partial<BoardFields>): Promise<Board> {
  if (Object.keys(changes).length === 0) return board;
  return retrying(board, (current) => updateBoard(current, changes));
}

/** Deletes a board with its lists; 404 when it was deleted meanwhile. */
export async function removeBoard(board: Board): Promise<void> {
  if (!(await deleteBoard(board))) throw new RecordNotFoundError();
}

/** Internal: label lists numbered 0…n-1 in the given order, the other lists as they are. */
const renumbered = (board: Board, ordered: BoardList[]): BoardList[] => [
  ...board.lists.filter((list) => list.listType !== 'label'),
  ...ordered.map((list, position) => ({ ...list, position })),
];

/**
 * Adds a label list at the end (GitLab's `Lists::CreateService`): `{"message":{"error":"Label has
 * already been taken"}}` when the board has one of that label, `Label not found` when the label
 * was deleted meanwhile.
 */
export async function addLabelList(board: Board, label: LabelRef): Promise<BoardList> {
  const id = await nextId('board_lists');
  return retrying(board, async (current) => {
    const lists = labelLists(current);
    if (lists.some((list) => list.label!.labelId === label.labelId)) throw new ListError('Label has already been taken');
    const list: BoardList = { id, listType: 'label', position: lists.length, label };
    const result = await insertLabelList(current, [...renumbered(current, lists), list], list);
    if (result === 'label_gone') throw new ListError('Label not found');
    return result === 'stale' ? 'stale' : list;
  });
}

/**
 * Moves a label list to `position` (GitLab's `Lists::MoveService`): the lists between its old and
 * new places shift by one. A position outside 0…n-1 or equal to the list's own is
 * `{"message":{"error":"List could not be moved!"}}`, as GitLab answers; 404 when the list is gone.
 */
export async function moveList(board: Board, listId: number, position: number): Promise<BoardList> {
  return retrying(board, async (current) => {
    const lists = labelLists(current);
    const list = lists.find((candidate) => candidate.id === listId);
    if (!list) throw new RecordNotFoundError();
    if (position < 0 || position >= lists.length || position === list.position) throw new ListError('List could not be moved!');
    const ordered = lists.filter((candidate) => candidate !== list);
    ordered.splice(position, 0, list);
    const result = await updateLists(current, renumbered(current, ordered));
    return result === 'stale' ? 'stale' : { ...list, position };
  });
}

/** Deletes a label list; the lists after it move up one (GitLab's `Lists::DestroyService`). 404 when it is gone. */
export async function removeList(board: Board, listId: number): Promise<void> {
  await retrying(board, async (current) => {
    const lists = labelLists(current);
    const list = lists.find((candidate) => candidate.id === listId);
    if (!list) throw new RecordNotFoundError();
    const result = await deleteLabelLists(current, renumbered(current, lists.filter((candidate) => candidate !== list)), [list]);
    return result === 'stale' ? 'stale' : true;
  });
}

/**
 * A deleted label's lists go with it, on every board (GitLab's `dependent: :destroy`), the lists
 * after each renumbered (GitLab leaves a gap there). Registered by the composition root as a
 * listener of the issues feature's label deletions.
 */
export async function removeListsOfLabel(event: DeletedLabel): Promise<void> {
  const label: LabelRef = { owner: event.owner, labelId: event.labelId };
  for (const { parent, boardId } of await boardsWithLabel(label)) {
    const board = await getBoard(parent, boardId);
    const holds = (list: BoardList) => list.label!.labelId === label.labelId && list.label!.owner.kind === label.owner.kind;
    if (!board || !labelLists(board).some(holds)) {
      await deleteLabelListEntry(label, boardId);
      continue;
    }
    await retrying(board, async (current) => {
      const lists = labelLists(current);
      const removed = lists.filter(holds);
      const result = await deleteLabelLists(current, renumbered(current, lists.filter((list) => !removed.includes(list))), removed);
      return result === 'stale' ? 'stale' : true;
    }).catch((error: unknown) => {
      // A board deleted meanwhile took its lists with it.
      if (!(error instanceof RecordNotFoundError)) throw error;
    });
  }
}
