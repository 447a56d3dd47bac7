/**
 * Reads of boards: a parent's boards, one board, one list, the labels a page's lists show, and
 * the label a new list may take. The caller is authorized by the route.
 */
import { availableLabelById, groupChain, labelsByRef, type GroupLabel, type Label, type LabelRef } from '../issues';
import type { Namespace } from '../namespaces';
import { RecordNotFoundError } from '../platform/http/errors';
import type { CollectionSource } from '../platform/http/pagination';
import { ListError } from './errors';
import { boardFromItem, getBoard, labelLists, type Board, type BoardList } from './store/boards';
import { boardCollections, type BoardParent } from './store/keys';

/** A parent's boards, oldest first (GitLab's `board_parent.boards`): one Query page per page. */
export const boardsOf = (parent: BoardParent): CollectionSource<Board> => ({ collection: boardCollections.boards(parent), ascending: true, select: boardFromItem });

/** A board of the project or group; GitLab's `404 Not found` otherwise (`boards.find`). */
export async function findBoardOrNotFound(parent: BoardParent, boardId: number): Promise<Board> {
  const board = await getBoard(parent, boardId);
  if (!board) throw new RecordNotFoundError();
  return board;
}

/** A label list of the board (`destroyable_lists.find`: the backlog and closed lists are not found); `404 Not found` otherwise. */
export function findListOrNotFound(board: Board, listId: number): BoardList {
  const list = labelLists(board).find((candidate) => candidate.id === listId);
  if (!list) throw new RecordNotFoundError();
  return list;
}

/** Internal: a label reference as a map key. */
export const refKey = (ref: LabelRef): string => `${ref.owner.kind}#${ref.owner.id}#${ref.labelId}`;

/** The labels of the boards' label lists, by {@link refKey}: one BatchGetItem (a deleted label is absent). */
export async function labelsOfLists(boards: readonly Board[]): Promise<Map<string, Label | GroupLabel>> {
  const refs = [...new Map(boards.flatMap(labelLists).map((list) => [refKey(list.label!), list.label!])).values()];
  const labels = await labelsByRef(refs);
  return new Map(refs.flatMap((ref, i) => (labels[i] ? [[refKey(ref), labels[i]] as const] : [])));
}

/**
 * The label of `labelId` when the board's parent may use it (a project: its own labels and its
 * groups'; a group: its own and its ancestors'), GitLab's `Label not found` (400) otherwise.
 */
export async function findAvailableLabel(parent: BoardParent, namespace: Namespace, labelId: number): Promise<LabelRef> {
  const found = await availableLabelById(parent.kind === 'project' ? parent.id : undefined, groupChain(namespace), labelId);
  if (!found) throw new ListError('Label not found');
  return found.ref;
}
