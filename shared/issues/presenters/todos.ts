/**
 * GitLab's `Todo` entity. Its `project` is the basic project (id, names, paths); the human
 * namespace name costs one read (the owner of a personal namespace, or the ancestor groups in one
 * BatchGetItem). Its `target` is the full Issue entity, `subscribed` included for the viewer on
 * single responses only (one read per issue; GitLab's list passes `include_subscribed: false`).
 */
import type { ProjectSubject } from '../../auth';
import { namespaceFromItem, namespaceKeys, type Namespace } from '../../namespaces';
import { getMany } from '../../platform/dynamo/batch';
import { projectFullPath } from '../../projects';
import { getUser, presentUserPublic, userFromItem, userKeys, type User } from '../../users';
import type { TodoTarget } from '../queries/todos';
import type { TrackedIssue } from '../store/issue-time';
import type { Todo } from '../store/todos';
import { issueWebUrl, presentIssue, presentIssues } from './issues';

/** Internal: `Group / Subgroup`, or the owner's name for a personal namespace. */
async function humanName(namespace: Namespace): Promise<string> {
  if (namespace.kind === 'user') return (namespace.ownerId !== null && (await getUser(namespace.ownerId))?.name) || namespace.name;
  const ancestors = new Map(
    (await getMany(namespace.ancestorIds.map((id) => namespaceKeys.namespace(id)), { consistent: false })).map((item) => {
      const group = namespaceFromItem(item);
      return [group.id, group.name] as const;
    }),
  );
  return groupHumanName(namespace, ancestors);
}

/** Internal: a group's human name from its ancestors' names (an ancestor not read shows its id). */
const groupHumanName = (namespace: Namespace, ancestorNames: Map<number, string>) =>
  [...[...namespace.ancestorIds].reverse().map((id) => ancestorNames.get(id) ?? String(id)), namespace.name].join(' / ');

/** Internal: the entity from what both presenters gathered. */
function todoBody(todo: Todo, issue: TrackedIssue, subject: ProjectSubject, author: User | undefined, target: unknown, namespaceName: string) {
  const { project, namespace } = subject;
  const path = projectFullPath(namespace, project);
  return {
    id: todo.id,
    project: {
      id: project.id,
      name: project.name,
      name_with_namespace: `${namespaceName} / ${project.name}`,
      path: project.path,
      path_with_namespace: path,
    },
    author: author ? presentUserPublic(author) : null,
    action_name: todo.actionName,
    target_type: todo.targetType,
    target,
    target_url: issueWebUrl(issue, path),
    body: issue.title,
    state: todo.state,
    created_at: todo.createdAt,
  };
}

/**
 * @param author who caused the todo (for `marked`, the viewer).
 * @example
 * const body = await presentTodo(todo, issue, subject, user);
 */
export async function presentTodo(todo: Todo, issue: TrackedIssue, subject: ProjectSubject, author: User) {
  const [target, namespaceName] = await Promise.all([presentIssue(issue, subject, author), humanName(subject.namespace)]);
  return todoBody(todo, issue, subject, author, target, namespaceName);
}

/**
 * Todos of one viewer presented together, each exactly as {@link presentTodo} would, for a cost
 * per page rather than per todo: the todos' authors and the owners of personal namespaces are
 * one BatchGetItem, the ancestor groups of group namespaces another, and the issues are presented
 * as one page ({@link presentIssues}).
 *
 * @param options.single adds the target's `subscribed` (the single `mark_as_done` response).
 * @example
 * const body = await presentTodos(page.items, user);
 */
export async function presentTodos(entries: TodoTarget[], viewer: User, options: { single?: boolean } = {}) {
  const namespaces = entries.map(({ subject }) => subject.namespace);
  const paths = new Map(entries.map(({ subject }) => [subject.project.id, projectFullPath(subject.namespace, subject.project)] as const));
  const userIds = new Set([
    ...entries.map(({ todo }) => todo.authorId),
    ...namespaces.flatMap((namespace) => (namespace.kind === 'user' && namespace.ownerId !== null ? [namespace.ownerId] : [])),
  ]);
  userIds.delete(viewer.id);
  const ancestorIds = new Set(namespaces.flatMap((namespace) => (namespace.kind === 'group' ? namespace.ancestorIds : [])));
  const [userItems, ancestorItems, targets] = await Promise.all([
    getMany([...userIds].map((id) => userKeys.user(id)), { consistent: false }),
    getMany([...ancestorIds].map((id) => namespaceKeys.namespace(id)), { consistent: false }),
    presentIssues(
      entries.map(({ issue }) => issue),
      (projectId) => paths.get(projectId)!,
      { single: options.single, viewer },
    ),
  ]);
  const users = new Map<number, User>([
    [viewer.id, viewer],
    ...userItems.filter((item) => !item.deleting).map((item) => [Number(item.id), userFromItem(item)] as const),
  ]);
  const ancestorNames = new Map(ancestorItems.map((item) => namespaceFromItem(item)).map((group) => [group.id, group.name] as const));
  const nameOf = (namespace: Namespace) =>
    namespace.kind === 'user'
      ? (namespace.ownerId !== null && users.get(namespace.ownerId)?.name) || namespace.name
      : groupHumanName(namespace, ancestorNames);
  return entries.map(({ todo, issue, subject }, index) =>
    todoBody(todo, issue, subject, users.get(todo.authorId), targets[index], nameOf(subject.namespace)),
  );
}
