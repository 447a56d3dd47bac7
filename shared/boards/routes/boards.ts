/**
 * Project and group issue boards and their lists (GitLab's `lib/api/boards.rb`,
 * `lib/api/group_boards.rb`, `lib/api/boards_responses.rb`). Every route needs a token. Reading
 * needs the project's issues (`read_issue_board`; a project the caller cannot see is 404, one
 * whose issues it cannot read 403) or the group; writing boards and lists needs reporter or above
 * (`admin_issue_board`, `admin_issue_board_list`; 403 otherwise). Lists are label lists (the
 * backlog and closed lists every board has are never shown nor found), numbered from 0 by
 * `position`.
 *
 * A project may have any number of boards (GitLab CE's `multiple_issue_boards_available?` is true
 * for projects). A group has at most one (false for groups in CE): `POST /groups/:id/boards`
 * creates it (GitLab CE has no such route; its UI creates the board) and answers 403 when the
 * group has one.
 */
import { authorize, type GroupSubject, type ProjectSubject } from '../../auth';
import { findGroupOrNotFound, type Namespace } from '../../namespaces';
import { findProjectOrNotFound, presentProjects } from '../../projects';
import type { User } from '../../users';
import { config } from '../../platform/config';
import { paginate, paginateArray } from '../../platform/http/pagination';
import { created, noContent, ok } from '../../platform/http/response';
import { route, type RoutesOf } from '../../platform/http/route';
import type { catalog } from '../catalog';
import { addLabelList, createBoard, editBoard, moveList, removeBoard, removeList } from '../commands';
import { presentBoard, presentList, type BoardOwnerView } from '../presenters/boards';
import { boardsOf, findAvailableLabel, findBoardOrNotFound, findListOrNotFound, labelsOfLists } from '../queries';
import { labelLists, type Board } from '../store/boards';
import type { BoardParent } from '../store/keys';
import { boardChanges, boardParams, boardsParams, createListParams, createParams, listParams, listsParams, moveParams, updateParams } from './boards.params';

/** The fields of GitLab's `BasicProjectDetails` entity, taken from the Project entity. */
const BASIC_PROJECT_FIELDS = [
  'id', 'description', 'name', 'name_with_namespace', 'path', 'path_with_namespace', 'created_at', 'default_branch', 'tag_list', 'topics',
  'ssh_url_to_repo', 'http_url_to_repo', 'web_url', 'readme_url', 'forks_count', 'avatar_url', 'star_count', 'last_activity_at', 'namespace',
] as const;

/** Where a route's boards are: their parent, the caller's view of it, and the namespace whose labels it may use. */
interface BoardScope {
  parent: BoardParent;
  subject: ProjectSubject | GroupSubject;
  namespace: Namespace;
}

type Ability = 'read_issue_board' | 'admin_issue_board' | 'admin_issue_board_list';

/** Internal: 403 (401 when anonymous) unless the caller may do `ability` on the project or group. */
function allow(user: User, ability: Ability, subject: ProjectSubject | GroupSubject): void {
  if (subject.kind === 'project') authorize(user, ability, subject);
  else authorize(user, ability, subject);
}

/** Internal: the project or group of `:id` the caller may read (404 otherwise), then 403 unless it may do `ability` (when given). */
async function findScope(kind: BoardParent['kind'], idOrPath: string, user: User, ability?: Ability): Promise<BoardScope> {
  const subject = kind === 'project' ? await findProjectOrNotFound(idOrPath, user) : await findGroupOrNotFound(idOrPath, user);
  if (ability) allow(user, ability, subject);
  return subject.kind === 'project'
    ? { parent: { kind: 'project', id: subject.project.id }, subject, namespace: subject.namespace }
    : { parent: { kind: 'group', id: subject.group.id }, subject, namespace: subject.group };
}

/** Internal: the board's owner as its entity shows it, presented once for a page. */
async function ownerView(scope: BoardScope, user: User): Promise<BoardOwnerView> {
  if (scope.subject.kind === 'group') {
    const group = scope.subject.group;
    return { project: null, group: { id: group.id, name: group.name, web_url: `${config().externalUrl}/groups/${group.fullPath}` } };
  }
  const [entity] = (await presentProjects([scope.subject], user)) as Array<Record<string, unknown>>;
  return { project: Object.fromEntries(BASIC_PROJECT_FIELDS.filter((field) => field in entity).map((field) => [field, entity[field]])), group: null };
}

/** Internal: boards as GitLab's `Board` entity, their owner and their lists' labels read once. */
async function present(scope: BoardScope, user: User, boards: Board[]) {
  const [owner, labels] = await Promise.all([ownerView(scope, user), labelsOfLists(boards)]);
  return boards.map((board) => presentBoard(board, owner, labels));
}

/** Internal: one list as GitLab's `List` entity. */
async function presentOneList(board: Board, list: ReturnType<typeof labelLists>[number]) {
  return presentList(list, await labelsOfLists([{ ...board, lists: [list] }]));
}

/** The routes of one kind of parent: `/projects/:id/boards…` or `/groups/:id/boards…`. */
function boardRoutes(kind: BoardParent['kind']) {
  return {
    list: route({
      params: boardsParams,
      handler: async ({ params, user, link }) => {
        const scope = await findScope(kind, params.id, user, 'read_issue_board');
        const page = await paginate(params, link, boardsOf(scope.parent));
        return ok(await present(scope, user, page.items), page.headers);
      },
    }),

    show: route({
      params: boardParams,
      handler: async ({ params, user }) => {
        const scope = await findScope(kind, params.id, user, 'read_issue_board');
        const [board] = await present(scope, user, [await findBoardOrNotFound(scope.parent, params.board_id)]);
        return ok(board);
      },
    }),

    create: route({
      params: createParams,
      handler: async ({ params, user }) => {
        const scope = await findScope(kind, params.id, user, 'admin_issue_board');
        const board = await createBoard(scope.parent, { name: params.name, hideBacklogList: false, hideClosedList: false });
        const [presented] = await present(scope, user, [board]);
        return created(presented);
      },
    }),

    update: route({
      params: updateParams,
      handler: async ({ params, user }) => {
        const scope = await findScope(kind, params.id, user, 'admin_issue_board');
        const board = await findBoardOrNotFound(scope.parent, params.board_id);
        const [presented] = await present(scope, user, [await editBoard(board, boardChanges(params))]);
        return ok(presented);
      },
    }),

    remove: route({
      params: boardParams,
      handler: async ({ params, user }) => {
        const scope = await findScope(kind, params.id, user, 'admin_issue_board');
        await removeBoard(await findBoardOrNotFound(scope.parent, params.board_id));
        return noContent();
      },
    }),

    lists: route({
      params: listsParams,
      handler: async ({ params, user, link }) => {
        const scope = await findScope(kind, params.id, user, 'read_issue_board');
        const board = await findBoardOrNotFound(scope.parent, params.board_id);
        const labels = await labelsOfLists([board]);
        const page = paginateArray(params, link, labelLists(board));
        return ok(page.items.map((list) => presentList(list, labels)), page.headers);
      },
    }),

    showList: route({
      params: listParams,
      handler: async ({ params, user }) => {
        const scope = await findScope(kind, params.id, user, 'read_issue_board');
        const board = await findBoardOrNotFound(scope.parent, params.board_id);
        return ok(await presentOneList(board, findListOrNotFound(board, params.list_id)));
      },
    }),

    createList: route({
      params: createListParams,
      handler: async ({ params, user }) => {
        const scope = await findScope(kind, params.id, user, 'admin_issue_board_list');
        const [board, label] = await Promise.all([findBoardOrNotFound(scope.parent, params.board_id), findAvailableLabel(scope.parent, scope.namespace, params.label_id)]);
        const list = await addLabelList(board, label);
        return created(await presentOneList(board, list));
      },
    }),

    moveList: route({
      params: moveParams,
      handler: async ({ params, user }) => {
        // GitLab finds the list before it authorizes the move.
        const scope = await findScope(kind, params.id, user);
        const board = await findBoardOrNotFound(scope.parent, params.board_id);
        findListOrNotFound(board, params.list_id);
        allow(user, 'admin_issue_board_list', scope.subject);
        const moved = await moveList(board, params.list_id, params.position);
        return ok(await presentOneList(board, moved));
      },
    }),

    removeList: route({
      params: listParams,
      handler: async ({ params, user }) => {
        const scope = await findScope(kind, params.id, user, 'admin_issue_board_list');
        const board = await findBoardOrNotFound(scope.parent, params.board_id);
        findListOrNotFound(board, params.list_id);
        await removeList(board, params.list_id);
        return noContent();
      },
    }),
  };
}

const project = boardRoutes('project');
const group = boardRoutes('group');

export const projectBoardRoutes = {
  'GET /projects/:id/boards': project.list,
  'POST /projects/:id/boards': project.create,
  'GET /projects/:id/boards/:board_id': project.show,
  'PUT /projects/:id/boards/:board_id': project.update,
  'DELETE /projects/:id/boards/:board_id': project.remove,
  'GET /projects/:id/boards/:board_id/lists': project.lists,
  'POST /projects/:id/boards/:board_id/lists': project.createList,
  'GET /projects/:id/boards/:board_id/lists/:list_id': project.showList,
  'PUT /projects/:id/boards/:board_id/lists/:list_id': project.moveList,
  'DELETE /projects/:id/boards/:board_id/lists/:list_id': project.removeList,
} satisfies RoutesOf<typeof catalog.projects>;

export const groupBoardRoutes = {
  'GET /groups/:id/boards': group.list,
  'POST /groups/:id/boards': group.create,
  'GET /groups/:id/boards/:board_id': group.show,
  'PUT /groups/:id/boards/:board_id': group.update,
  'DELETE /groups/:id/boards/:board_id': group.remove,
  'GET /groups/:id/boards/:board_id/lists': group.lists,
  'POST /groups/:id/boards/:board_id/lists': group.createList,
  'GET /groups/:id/boards/:board_id/lists/:list_id': group.showList,
  'PUT /groups/:id/boards/:board_id/lists/:list_id': group.moveList,
  'DELETE /groups/:id/boards/:board_id/lists/:list_id': group.removeList,
} satisfies RoutesOf<typeof catalog.groups>;
