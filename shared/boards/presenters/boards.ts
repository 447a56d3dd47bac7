/**
 * GitLab's `Board` and `List` entities. A board shows its label lists only (`destroyable_lists`:
 * not the backlog and closed lists), each with its label (`LabelBasic`); a list whose label is
 * gone meanwhile is left out. `project` is GitLab's `BasicProjectDetails` (null on a group's
 * board); `group` (`{id, name, web_url}`, null on a project's board) is EE's, shown here for both
 * kinds so a client can tell them apart. Cost: the labels of a page's lists are read once for the
 * page (`labelsOfLists`); the project is presented once for the page.
 */
import { presentLabelBasic, type GroupLabel, type Label } from '../../issues';
import { labelLists, type Board, type BoardList } from '../store/boards';
import { refKey } from '../queries';

/** Who a page's boards belong to, presented once. */
export interface BoardOwnerView {
  project: Record<string, unknown> | null;
  group: { id: number; name: string; web_url: string } | null;
}

export function presentList(list: BoardList, labels: Map<string, Label | GroupLabel>) {
  const label = labels.get(refKey(list.label!));
  return { id: list.id, label: label ? presentLabelBasic(label) : null, position: list.position };
}

export function presentBoard(board: Board, owner: BoardOwnerView, labels: Map<string, Label | GroupLabel>) {
  return {
    id: board.id,
    name: board.name,
    hide_backlog_list: board.hideBacklogList,
    hide_closed_list: board.hideClosedList,
    project: owner.project,
    group: owner.group,
    lists: labelLists(board)
      .filter((list) => labels.has(refKey(list.label!)))
      .map((list) => presentList(list, labels)),
  };
}
