/**
 * GitLab's `Todo` entity. Its `project` is the basic project (id, names, paths); the human
 * namespace name costs one read (the owner of a personal namespace, or the ancestor groups in one
 * BatchGetItem). Its `target` is the full Issue entity, `subscribed` included for the viewer.
 */
import type { ProjectSubject } from '../auth/policy';
import { getMany } from '../data/batch';
import type { TrackedIssue } from '../data/issue-time';
import { keys } from '../data/keys';
import { namespaceFromItem, type Namespace } from '../data/namespaces';
import type { Todo } from '../data/todos';
import { getUser, type User } from '../data/users';
import { issueWebUrl, presentIssues } from './issues';
import { presentUserPublic } from './users';

/** Internal: `Group / Subgroup`, or the owner's name for a personal namespace. */
async function humanName(namespace: Namespace): Promise<string> {
  if (namespace.kind === 'user') return (namespace.ownerId !== null && (await getUser(namespace.ownerId))?.name) || namespace.name;
  const ancestors = new Map(
    (await getMany(namespace.ancestorIds.map((id) => keys.namespace(id)), { consistent: false })).map((item) => {
      const group = namespaceFromItem(item);
      return [group.id, group.name] as const;
    }),
  );
  return [...[...namespace.ancestorIds].reverse().map((id) => ancestors.get(id) ?? String(id)), namespace.name].join(' / ');
}

/**
 * @param author who caused the todo (for `marked`, the viewer).
 * @example
 * const body = await presentTodo(todo, issue, subject, user);
 */
export async function presentTodo(todo: Todo, issue: TrackedIssue, subject: ProjectSubject, author: User) {
  const { project, namespace } = subject;
  const path = `${namespace.fullPath}/${project.path}`;
  const [[target], namespaceName] = await Promise.all([
    presentIssues([issue], () => path, { single: true, viewer: author }),
    humanName(namespace),
  ]);
  return {
    id: todo.id,
    project: {
      id: project.id,
      name: project.name,
      name_with_namespace: `${namespaceName} / ${project.name}`,
      path: project.path,
      path_with_namespace: path,
    },
    author: presentUserPublic(author),
    action_name: todo.actionName,
    target_type: todo.targetType,
    target,
    target_url: issueWebUrl(issue, path),
    body: issue.title,
    state: todo.state,
    created_at: todo.createdAt,
  };
}
