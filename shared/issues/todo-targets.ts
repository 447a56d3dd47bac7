/**
 * The targets of todos other than issues, registered by the features that own them: a todo
 * stores only its target's type, project, iid and id (a commit's: its sha, `commitId`);
 * `GET /todos` and `POST /todos/:id/mark_as_done` need the target loaded (is it still readable?)
 * and presented (the Todo entity's `target`, `target_url`, `body`). The issues feature cannot
 * import the features above it (merge requests) nor the repository (commits), so the composition
 * root registers their resolvers (`registerTodoTargets`) as it starts; a todo whose type has no
 * resolver in the process is left out (as an unreadable one is), never an error.
 *
 * Issues are this feature's own and need no registration.
 */
import type { ProjectSubject } from '../auth';
import type { User } from '../users';
import type { Todo } from './store/todos';

/** A todo with its target and project as the caller sees them (what the presenters need). */
export interface TodoTarget<T = unknown> {
  todo: Todo;
  subject: ProjectSubject;
  /** The target as its feature loaded it (an issue: `TrackedIssue`). */
  target: T;
}

/** What a Todo entity shows of its target. */
export interface PresentedTodoTarget {
  /** GitLab's entity of the target (`target`). */
  entity: unknown;
  /** `target_url`: the target's web URL. */
  url: string;
  /** `body`: for a `marked` todo, the target's title. */
  body: string;
}

/** How a feature loads and presents the targets of its todos. */
export interface TodoTargetResolver<T = unknown> {
  /**
   * The targets of `todos` (all of this resolver's type) that `user` may still read, by todo id,
   * read in batches (a page of todos costs a bounded number of reads). `subjects` holds the
   * todos' projects as `user` sees them (a project gone or unreadable is absent: leave its todos
   * out); the resolver checks its own rules (e.g. `read_merge_request`) on them.
   */
  load(user: User, todos: Todo[], subjects: Map<number, ProjectSubject>): Promise<Map<number, T>>;
  /**
   * The presented targets of `entries`, in their order. `options.single`: the single-todo
   * response (`POST /todos/:id/mark_as_done`, `POST …/todo`), where GitLab's target entity
   * carries `subscribed` for `viewer`.
   */
  present(entries: Array<TodoTarget<T>>, viewer: User, options: { single?: boolean }): Promise<PresentedTodoTarget[]>;
}

/** The todo target types other than `Issue` a feature may register. */
export type RegisteredTodoTargetType = 'MergeRequest' | 'Commit';

const resolvers = new Map<string, TodoTargetResolver>();

/**
 * Registers how the todos of `type` are loaded and presented; called once by the composition root
 * of every process that serves `/todos` or marks such todos (a later call replaces the resolver).
 * @example
 * registerTodoTargets('MergeRequest', { load: readableMergeRequests, present: presentMergeRequestTargets });
 */
export function registerTodoTargets<T>(type: RegisteredTodoTargetType, resolver: TodoTargetResolver<T>): void {
  resolvers.set(type, resolver);
}

/** The resolver registered for `type`, if any. */
export const todoTargetResolver = (type: string): TodoTargetResolver | undefined => resolvers.get(type);

/** The target types whose todos can be listed in this process: `Issue` and the registered ones. */
export const listableTodoTypes = (): string[] => ['Issue', ...resolvers.keys()];
