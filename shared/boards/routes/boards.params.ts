/** Parameters of the board and board list routes (GitLab's `lib/api/boards.rb`, `group_boards.rb`, `boards_responses.rb`). */
import * as z from 'zod';
import { idParam, p, required } from '../../platform/http/params';
import { paginationParams } from '../../platform/http/pagination';
import type { BoardFields } from '../store/boards';

/** GitLab's `boards.name` column. */
const NAME_LIMIT = { max: 255 };

const boardIdParam = { board_id: required(p.int()) };
const listIdParam = { list_id: required(p.int()) };

export const boardsParams = z.object({ ...idParam, ...paginationParams });
export const boardParams = z.object({ ...idParam, ...boardIdParam });
/** `requires :name`; a blank name is `name is missing` here (GitLab's model refuses it too: `validates :name, presence: true`). */
export const createParams = z.object({ ...idParam, name: required(p.string(NAME_LIMIT)) });
export const updateParams = z.object({ ...idParam, ...boardIdParam, name: p.string(NAME_LIMIT), hide_backlog_list: p.bool(), hide_closed_list: p.bool() });
export const listsParams = z.object({ ...idParam, ...boardIdParam, ...paginationParams });
export const listParams = z.object({ ...idParam, ...boardIdParam, ...listIdParam });
export const createListParams = z.object({ ...idParam, ...boardIdParam, label_id: required(p.int()) });
export const moveParams = z.object({ ...idParam, ...boardIdParam, ...listIdParam, position: required(p.int()) });

/** The board fields a `PUT` sets (those given). */
export function boardChanges(params: z.output<typeof updateParams>): Partial<BoardFields> {
  const changes: Partial<BoardFields> = {};
  if (params.name !== undefined) changes.name = params.name;
  if (params.hide_backlog_list !== undefined) changes.hideBacklogList = params.hide_backlog_list;
  if (params.hide_closed_list !== undefined) changes.hideClosedList = params.hide_closed_list;
  return changes;
}
