/**
 * The boards feature's keys: every key, index attribute and collection of its items is built here,
 * and only here. Its access patterns are listed in ACCESS_PATTERNS.md beside this folder.
 */
import { pad, tableCollection, type Key, type KeySpace } from '../../platform/dynamo/keys';

/** Whose board: a project's (in its partition) or a group's (in the group's namespace partition). */
export interface BoardParent {
  kind: 'project' | 'group';
  id: number;
}

/** Internal: the partition of a project's or a group's items (owned by the projects and namespaces features). */
const partitionOf = (owner: BoardParent) => (owner.kind === 'project' ? `PROJECT#${owner.id}` : `NAMESPACE#${owner.id}`);

export const BOARD_PREFIX = 'BOARD#';
export const BOARD_LIST_PREFIX = 'BOARD_LIST#';
/** A group's claim on its one board (GitLab CE: a group has at most one). */
const GROUP_BOARD_CLAIM = 'BOARDS_ONE';

export const boardKeys = {
  /** A board, its lists inside it, by its id (zero-padded: a parent's boards are listed in id order). */
  board: (parent: BoardParent, boardId: number): Key => ({ PK: partitionOf(parent), SK: `${BOARD_PREFIX}${pad(boardId)}` }),
  /**
   * A label list's entry beside its label (in the label's owner's partition: a project's or a
   * group's), naming the board: what a label's deletion reads to remove its lists.
   */
  labelList: (labelOwner: BoardParent, labelId: number, boardId: number): Key => ({ PK: partitionOf(labelOwner), SK: `${BOARD_LIST_PREFIX}${pad(labelId)}#${pad(boardId)}` }),
  /** A group's claim on its one board (present: the group has a board). */
  groupBoardClaim: (groupId: number): Key => ({ PK: partitionOf({ kind: 'group', id: groupId }), SK: GROUP_BOARD_CLAIM }),
} as const;

/** The ranges of items one Query reads. */
export const boardCollections = {
  /** A project's or a group's boards, oldest first. */
  boards: (parent: BoardParent) => tableCollection(partitionOf(parent), BOARD_PREFIX),
  /** The entries of one label's lists, on every board (of the label's project, or of its group's projects and subgroups). */
  labelLists: (labelOwner: BoardParent, labelId: number) => tableCollection(partitionOf(labelOwner), `${BOARD_LIST_PREFIX}${pad(labelId)}#`),
} as const;

/** The prefixes this feature's items occupy (checked against every other feature's by a test). */
export const keySpace: KeySpace = {
  partitions: [],
  sortKeys: { 'PROJECT#': [BOARD_PREFIX, BOARD_LIST_PREFIX], 'NAMESPACE#': [BOARD_PREFIX, BOARD_LIST_PREFIX, GROUP_BOARD_CLAIM] },
  indexPartitions: {},
  sequences: ['boards', 'board_lists'],
};
