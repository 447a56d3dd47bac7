/**
 * What features built on projects do when a project is forked or deleted (the repository shares
 * its objects with the fork and releases them with the project). They are declared as steps by
 * the composition root (`functions/api.ts`), so this feature never imports them.
 */
import { listenersOf } from '../../platform/listeners';
import type { Namespace } from '../../namespaces';
import type { Project } from '../store/projects';

/** What another feature does for a new fork of `source`. */
export type ForkStep = (fork: Project, source: Project) => Promise<unknown>;
/** What another feature removes of a project being deleted (before the project's own items go). */
export type ProjectRemoval = (project: Project) => Promise<unknown>;

const forkSteps: ForkStep[] = [];
const removals: ProjectRemoval[] = [];

/** Declares what other features do when a project is forked, run in the order given. */
export function forkWithProject(...steps: ForkStep[]): void {
  for (const step of steps) if (!forkSteps.includes(step)) forkSteps.push(step);
}

/** Declares what other features remove when a project is deleted, run in the order given. */
export function removeWithProject(...steps: ProjectRemoval[]): void {
  for (const step of steps) if (!removals.includes(step)) removals.push(step);
}

/** A project's runner settings (`shared_runners_enabled`, `group_runners_enabled`) as an edit changed them. */
export interface RunnerSettingsChanged {
  previous: Project;
  next: Project;
}

const runnerSettingsChanged = listenersOf<RunnerSettingsChanged>('runner settings changed', (event) => ({ projectId: event.next.id }));
/** Registers what another feature does when an edit changes a project's runner settings (CI re-queues pending jobs). */
export const onRunnerSettingsChanged = runnerSettingsChanged.on;

/** Tells the listeners when an edit changed the project's runner settings; never throws. */
export async function notifyRunnerSettings(previous: Project, next: Project): Promise<void> {
  const changed = (previous.sharedRunnersEnabled !== false) !== (next.sharedRunnersEnabled !== false) || (previous.groupRunnersEnabled !== false) !== (next.groupRunnersEnabled !== false);
  if (changed) await runnerSettingsChanged.notify({ previous, next });
}

/** A project moved to another namespace (`PUT /projects/:id/transfer`, a group's `POST /groups/:id/projects/:project_id`). */
export interface ProjectTransferred {
  previous: Project;
  next: Project;
}

const projectTransferred = listenersOf<ProjectTransferred>('project transferred', (event) => ({ projectId: event.next.id }));
/** Registers what another feature does when a project moved to another namespace (CI moves its pending jobs to the new groups' runner queue). */
export const onProjectTransferred = projectTransferred.on;
/** Tells the listeners a project moved; never throws. */
export const notifyProjectTransferred = projectTransferred.notify;

/** A project just created (a fork included), in its namespace. */
export interface ProjectCreated {
  project: Project;
  namespace: Namespace;
}

const projectCreated = listenersOf<ProjectCreated>('project created', (event) => ({ projectId: event.project.id }));
/** Registers what another feature does once a project is created (the hooks' `project_create` system event). */
export const onProjectCreated = projectCreated.on;
/** Tells the listeners a project was created; never throws. */
export const notifyProjectCreated = projectCreated.notify;

const projectDestroyed = listenersOf<Project>('project destroyed', (project) => ({ projectId: project.id }));
/** Registers what another feature does once a project is deleted, its item gone (the hooks' `project_destroy` system event). */
export const onProjectDestroyed = projectDestroyed.on;
/** Tells the listeners a project was deleted; never throws. */
export const notifyProjectDestroyed = projectDestroyed.notify;

export async function runForkSteps(fork: Project, source: Project): Promise<void> {
  for (const step of forkSteps) await step(fork, source);
}

export async function runRemovalSteps(project: Project): Promise<void> {
  for (const remove of removals) await remove(project);
}
