/**
 * GitLab's `Todo` entity. Its `project` is the basic project (id, names, paths); the human
 * namespace name costs one read (the owner of a personal namespace, or the ancestor groups in one
 * BatchGetItem). Its `target` is the full entity of the target: an issue's Issue entity,
 * `subscribed` included for the viewer on single responses only (one read per issue; GitLab's
 * list passes `include_subscribed: false`); other types' as their registered resolver presents
 * them (`todo-targets.ts`).
 */
import type { ProjectSubject } from '../../auth';
import { namespaceFromItem, namespaceKeys, type Namespace } from '../../namespaces';
import { byKey, getMany } from '../../platform/dynamo/batch';
import { projectFullPath } from '../../projects';
import { getUser, presentUserPublic, userFromItem, userKeys, withGhost, type User } from '../../users';
import type { TrackedIssue } from '../store/issue-time';
import { todoNoteKeys, todoNotesFrom } from '../queries/todo-notes';
import type { Todo } from '../store/todos';
import { todoTargetResolver, type PresentedTodoTarget, type TodoTarget } from '../todo-targets';
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
function todoBody(todo: Todo, subject: ProjectSubject, author: User | undefined, target: PresentedTodoTarget, namespaceName: string) {
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
    target: target.entity,
    target_url: target.url,
    body: target.body,
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
  const [entity, namespaceName] = await Promise.all([presentIssue(issue, subject, author), humanName(subject.namespace)]);
  const url = issueWebUrl(issue, projectFullPath(subject.namespace, subject.project));
  return todoBody(todo, subject, author, { entity, url, body: issue.title }, namespaceName);
}

/**
 * Internal: the presented targets of `entries`, in their order: issues as one page
 * ({@link presentIssues}), each other type by its registered resolver (entries of a type without
 * one are never listed: {@link TodoTarget}s come from `readableTargets`, which leaves them out).
 */
async function presentTargets(entries: TodoTarget[], viewer: User, paths: Map<number, string>, options: { single?: boolean }): Promise<PresentedTodoTarget[]> {
  const byType = new Map<string, number[]>();
  entries.forEach(({ todo }, index) => byType.set(todo.targetType, [...(byType.get(todo.targetType) ?? []), index]));
  const presented: PresentedTodoTarget[] = new Array(entries.length);
  await Promise.all(
    [...byType].map(async ([type, indexes]) => {
      const group = indexes.map((index) => entries[index]);
      let targets: PresentedTodoTarget[];
      if (type === 'Issue') {
        const issues = group.map(({ target }) => target as TrackedIssue);
        const bodies = await presentIssues(issues, (projectId) => paths.get(projectId)!, { single: options.single, viewer });
        targets = issues.map((issue, i) => ({ entity: bodies[i], url: issueWebUrl(issue, paths.get(issue.projectId)!), body: issue.title }));
      } else {
        const resolver = todoTargetResolver(type);
        if (!resolver) throw new Error(`no todo target resolver registered for ${type}`);
        targets = await resolver.present(group, viewer, { single: options.single });
      }
      indexes.forEach((index, i) => (presented[index] = targets[i]));
    }),
  );
  return presented;
}

/**
 * Todos of one viewer presented together, each exactly as {@link presentTodo} would, for a cost
 * per page rather than per todo: the todos' authors and the owners of personal namespaces are
 * one BatchGetItem, the ancestor groups of group namespaces another, the issues are presented
 * as one page ({@link presentIssues}) and the targets of each other type by one call of its
 * registered resolver.
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
  const todos = entries.map(({ todo }) => todo);
  // The notes of mention todos (their text is the todo's body) with the authors.
  const [userAndNoteItems, ancestorItems, targets] = await Promise.all([
    getMany([...[...userIds].map((id) => userKeys.user(id)), ...todoNoteKeys(todos)], { consistent: false }),
    getMany([...ancestorIds].map((id) => namespaceKeys.namespace(id)), { consistent: false }),
    presentTargets(entries, viewer, paths, options),
  ]);
  const read = byKey(userAndNoteItems);
  const notes = todoNotesFrom(todos, read);
  const users = new Map<number, User>([[viewer.id, viewer]]);
  for (const id of userIds) {
    const item = read(userKeys.user(id));
    if (item && !item.deleting) users.set(id, userFromItem(item));
  }
  const ancestorNames = new Map(ancestorItems.map((item) => namespaceFromItem(item)).map((group) => [group.id, group.name] as const));
  const nameOf = (namespace: Namespace) =>
    namespace.kind === 'user'
      ? (namespace.ownerId !== null && users.get(namespace.ownerId)?.name) || namespace.name
      : groupHumanName(namespace, ancestorNames);
  // A deleted author shows as the ghost user (GitLab moves authored todos to it).
  const authorOf = await withGhost((id) => users.get(id), entries.map(({ todo }) => todo.authorId));
  return entries.map(({ todo, subject }, index) => {
    // A todo caused by a note shows the note (GitLab's `Todo#body`), its URL anchored at it.
    const note = notes.get(todo.id);
    const target = note ? { ...targets[index], body: note.body, url: `${targets[index].url}${note.anchor}` } : targets[index];
    return todoBody(todo, subject, authorOf(todo.authorId), target, nameOf(subject.namespace));
  });
}
