/**
 * `PUT /projects/:id/transfer` (GitLab's `Projects::TransferService`): moves a project to another
 * namespace. Its path and name claims, index entries and both namespaces' project counts move in
 * one transaction (`store/projects.ts`, `transferProjectRecord`); its full path, `web_url` and
 * everything keyed by its id follow at once (nothing stores the namespace's path). The listeners of
 * `onProjectTransferred` are told after (CI moves the project's pending jobs to its new groups'
 * runner queue).
 */
import { visibilityRank, type Namespace, type Visibility } from '../../namespaces';
import { BadRequestError, ConflictError, NotFoundError } from '../../platform/http/errors';
import { getProject, replaceProject, transferProjectRecord, type Project } from '../store/projects';
import { notifyProjectTransferred } from './lifecycle';

/** GitLab's answer: `render_api_error!("Failed to transfer project #{project.errors.messages}", 400)`. */
const failed = (message: string) => new BadRequestError(`Failed to transfer project {:new_namespace=>[${JSON.stringify(message)}]}`);

/**
 * Transfers `project` from `from` to `to` (the route checked the caller may change its namespace
 * and create projects in `to`). A project more visible than its new namespace takes the
 * namespace's visibility, as GitLab.
 * @throws BadRequestError (400) with GitLab's messages; ConflictError when the project changed meanwhile.
 */
export async function transferProject(project: Project, from: Namespace, to: Namespace): Promise<Project> {
  if (to.id === from.id) throw failed('Project is already in this namespace.');
  let current = project;
  for (let attempt = 1; ; attempt++) {
    const visibility = visibilityRank[current.visibility] > visibilityRank[to.visibility] ? to.visibility : current.visibility;
    const next: Project = { ...current, namespaceId: to.id, visibility, updatedAt: new Date().toISOString(), version: current.version + 1 };
    const result = await transferProjectRecord(current, next, from, to);
    if (result === 'transferred') {
      await notifyProjectTransferred({ previous: current, next });
      return next;
    }
    if (typeof result === 'object') {
      if (result.taken.includes('name')) throw failed('Project with same name in target namespace already exists');
      throw failed('Project with same path in target namespace already exists');
    }
    if (result === 'namespace_gone') throw new NotFoundError('Namespace');
    if (result === 'namespace_moving') throw new ConflictError('The namespace is being changed by another request; try again');
    // Changed meanwhile (an edit, a star): read it again, unless it moved or is gone.
    const reread = attempt < 3 ? await getProject(current.id) : undefined;
    if (!reread || reread.namespaceId !== from.id) throw new ConflictError('The project was modified by another request; try again');
    current = reread;
  }
}

/**
 * Lowers a project's visibility to at most `cap` (GitLab's `Groups::TransferService` moving a
 * group under a less visible parent updates `all_projects` with a higher visibility). Re-read and
 * retried when the project changed meanwhile; a project gone or being deleted is left alone.
 * @returns the project as it is now (undefined when gone).
 */
export async function capProjectVisibility(project: Project, namespace: Namespace, cap: Visibility): Promise<Project | undefined> {
  let current: Project | undefined = project;
  for (let attempt = 1; current && !current.deleting; attempt++) {
    if (visibilityRank[current.visibility] <= visibilityRank[cap]) return current;
    const next: Project = { ...current, visibility: cap, updatedAt: new Date().toISOString(), version: current.version + 1 };
    const result = await replaceProject(current, next, namespace);
    if (result === 'updated') return next;
    if (attempt >= 3) throw new ConflictError('The project was modified by another request; try again');
    current = await getProject(current.id);
  }
  return undefined;
}
