/**
 * Boards: items in their parent's partition (`PROJECT#<id>` or `NAMESPACE#<groupId>` /
 * `BOARD#<id>`), deleted with the rest of that partition when the project or group is deleted.
 * A board holds its lists (GitLab's `lists` rows of the board) as one attribute, so a list write
 * is one conditional write of the board: positions are renumbered on the board as read, and the
 * write holds only if the board is still at the version read (`version`); a concurrent write
 * makes the caller read again and retry. Label lists stay numbered 0…n-1, whatever the order of
 * concurrent moves, adds and removes.
 *
 * Each label list has an entry beside its label (`BOARD_LIST#<labelId>#<boardId>` in the label
 * owner's partition), written in the same transaction as the list: a label's deletion reads them
 * to remove its lists (GitLab's `has_many :lists, dependent: :destroy` of a label).
 */
import { DeleteCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { labelKeyOf, type LabelRef } from '../../issues';
import { groupIsLive } from '../../namespaces';
import { projectIsLive } from '../../projects';
import { deleteMany } from '../../platform/dynamo/batch';
import { db, tableName } from '../../platform/dynamo/client';
import { ifConditionHolds } from '../../platform/dynamo/conditional';
import { nextId } from '../../platform/dynamo/counters';
import { entityFields, putClaim } from '../../platform/dynamo/items';
import { getEntity, isId, queryAll, type Item } from '../../platform/dynamo/query';
import { transactOr, type TransactItem } from '../../platform/dynamo/transactions';
import { boardCollections, boardKeys, type BoardParent } from './keys';

/** GitLab's `List#list_type`: the open (backlog) and closed lists every board has, and label lists. */
export type ListType = 'backlog' | 'closed' | 'label';

export interface BoardList {
  id: number;
  listType: ListType;
  /** A label list's place among the board's label lists (0, 1, …); `null` for the others. */
  position: number | null;
  /** A label list's label. */
  label?: LabelRef;
}

export interface BoardFields {
  name: string;
  hideBacklogList: boolean;
  hideClosedList: boolean;
}

export interface Board extends BoardFields {
  id: number;
  parentKind: BoardParent['kind'];
  parentId: number;
  lists: BoardList[];
  createdAt: string;
  updatedAt: string;
  version: number;
}

export const parentOf = (board: Board): BoardParent => ({ kind: board.parentKind, id: board.parentId });

export const boardFromItem = (item: Item): Board => entityFields(item) as Board;

/** A board's label lists, by position. */
export const labelLists = (board: Board): BoardList[] => board.lists.filter((list) => list.listType === 'label').sort((a, b) => a.position! - b.position!);

/** Internal: a label list's entry beside its label. */
const entryKey = (board: Board, list: BoardList) => boardKeys.labelList(list.label!.owner, list.label!.labelId, board.id);

/** A board of the parent, or `undefined` (another parent's board is not this one's). */
export async function getBoard(parent: BoardParent, boardId: number): Promise<Board | undefined> {
  if (!isId(boardId)) return undefined;
  return getEntity(boardKeys.board(parent, boardId), boardFromItem);
}

/**
 * Adds a board with its backlog and closed lists (GitLab's `Boards::CreateService`), atomically
 * with a check that its parent is live; a group's board also takes the group's one-board claim
 * (`'taken'`: the group has a board already).
 */
export async function insertBoard(parent: BoardParent, fields: BoardFields): Promise<Board | 'parent_gone' | 'taken'> {
  const [id, backlog, closed] = await Promise.all([nextId('boards'), nextId('board_lists'), nextId('board_lists')]);
  const now = new Date().toISOString();
  const board: Board = {
    id,
    parentKind: parent.kind,
    parentId: parent.id,
    ...fields,
    lists: [
      { id: backlog, listType: 'backlog', position: null },
      { id: closed, listType: 'closed', position: null },
    ],
    createdAt: now,
    updatedAt: now,
    version: 1,
  };
  const failure = await transactOr(
    {
      parent: parent.kind === 'project' ? projectIsLive(parent.id) : groupIsLive(parent.id),
      claim: parent.kind === 'group' && putClaim(boardKeys.groupBoardClaim(parent.id), { boardId: id }),
      board: { Put: { TableName: tableName(), Item: { ...boardKeys.board(parent, id), type: 'Board', ...board }, ConditionExpression: 'attribute_not_exists(PK)' } },
    },
    [
      ['parent', 'parent_gone' as const],
      ['claim', 'taken' as const],
    ],
  );
  return failure ?? board;
}

/** Internal: the board's update to `changes`, held to the version read. */
function boardUpdate(board: Board, changes: Partial<BoardFields> & { lists?: BoardList[] }): TransactItem {
  const values = { ...changes, updatedAt: new Date().toISOString(), version: board.version + 1 };
  const names = Object.keys(values);
  return {
    Update: {
      TableName: tableName(),
      Key: boardKeys.board(parentOf(board), board.id),
      UpdateExpression: `SET ${names.map((name) => `#${name} = :${name}`).join(', ')}`,
      ConditionExpression: '#version = :read',
      ExpressionAttributeNames: Object.fromEntries(names.map((name) => [`#${name}`, name])),
      ExpressionAttributeValues: { ...Object.fromEntries(Object.entries(values).map(([name, value]) => [`:${name}`, value])), ':read': board.version },
    },
  };
}

/** Internal: the board as {@link boardUpdate} leaves it. */
const updated = (board: Board, changes: Partial<BoardFields> & { lists?: BoardList[] }): Board => ({ ...board, ...changes, version: board.version + 1 });

/** Why a list or board write did not happen: the board changed since it was read (or is gone), or the list's label is gone. */
export type BoardWriteFailure = 'stale' | 'label_gone';

/** Sets board fields; `'stale'` when the board changed or is gone since read. */
export async function updateBoard(board: Board, changes: Partial<BoardFields>): Promise<Board | 'stale'> {
  const failed = await transactOr({ board: boardUpdate(board, changes) }, [], 'stale' as const);
  return failed ?? updated(board, changes);
}

/** Sets a board's lists (a move): one conditional write. */
export async function updateLists(board: Board, lists: BoardList[]): Promise<Board | 'stale'> {
  const result = await ifConditionHolds(db().send(new UpdateCommand(boardUpdate(board, { lists }).Update!)));
  return result ? updated(board, { lists }) : 'stale';
}

/** Adds a label list: the board's new lists, its entry beside the label, and a check that the label still exists. */
export async function insertLabelList(board: Board, lists: BoardList[], list: BoardList): Promise<Board | BoardWriteFailure> {
  const failed = await transactOr(
    {
      label: { ConditionCheck: { TableName: tableName(), Key: labelKeyOf(list.label!), ConditionExpression: 'attribute_exists(PK)' } },
      board: boardUpdate(board, { lists }),
      entry: { Put: { TableName: tableName(), Item: { ...entryKey(board, list), type: 'BoardLabelList', boardParentKind: board.parentKind, boardParentId: board.parentId, boardId: board.id, listId: list.id } } },
    },
    [
      ['board', 'stale' as const],
      ['label', 'label_gone' as const],
    ],
  );
  return failed ?? updated(board, { lists });
}

/** Removes label lists (`removed`): the board's remaining lists and their entries, in one transaction. */
export async function deleteLabelLists(board: Board, lists: BoardList[], removed: BoardList[]): Promise<Board | 'stale'> {
  const failed = await transactOr(
    {
      board: boardUpdate(board, { lists }),
      entries: removed.map((list) => ({ Delete: { TableName: tableName(), Key: entryKey(board, list) } })),
    },
    [],
    'stale' as const,
  );
  return failed ?? updated(board, { lists });
}

/**
 * Deletes a board (and a group's one-board claim), then its lists' entries beside their labels
 * (an entry left by a failure names a board that is gone: the label's deletion skips it).
 */
export async function deleteBoard(board: Board): Promise<boolean> {
  const parent = parentOf(board);
  const failed = await transactOr(
    {
      board: { Delete: { TableName: tableName(), Key: boardKeys.board(parent, board.id), ConditionExpression: 'attribute_exists(PK)' } },
      claim: parent.kind === 'group' && { Delete: { TableName: tableName(), Key: boardKeys.groupBoardClaim(parent.id) } },
    },
    [],
    'gone' as const,
  );
  if (failed) return false;
  await deleteMany(labelLists(board).map((list) => entryKey(board, list)));
  return true;
}

/** The boards a label's lists are on: their parents and ids, from the entries beside the label (one bounded Query). */
export async function boardsWithLabel(label: LabelRef): Promise<Array<{ parent: BoardParent; boardId: number }>> {
  const entries = await queryAll(boardCollections.labelLists(label.owner, label.labelId));
  return entries.map((entry) => ({ parent: { kind: entry.boardParentKind, id: Number(entry.boardParentId) }, boardId: Number(entry.boardId) }));
}

/** Drops the entry of a label's list on a board that is gone. */
export async function deleteLabelListEntry(label: LabelRef, boardId: number): Promise<void> {
  await db().send(new DeleteCommand({ TableName: tableName(), Key: boardKeys.labelList(label.owner, label.labelId, boardId) }));
}
