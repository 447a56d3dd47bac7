/**
 * `find…OrNotFound` helpers: 404 when the thing does not exist *or the caller may not see it*
 * (a private project is never revealed by a 403). They are the only way routes look things up by
 * a client-supplied id or URL-encoded path, and they resolve the caller's access once.
 */
import { projectAccessFor, can, type ProjectSubject } from '../auth';
import { findNamespaceByPath, getNamespace, type Namespace, isNumericId } from '../namespaces';
import type { User } from '../users';
import { NotFoundError } from '../platform/http/errors';
import { findProjectInNamespace, getProject, type Project } from './store/projects';

async function findProject(idOrPath: string | number): Promise<{ project: Project; namespace: Namespace } | undefined> {
  let project: Project | undefined;
  if (isNumericId(idOrPath)) {
    project = await getProject(Number(idOrPath));
  } else {
    const path = String(idOrPath);
    const slash = path.lastIndexOf('/');
    if (slash <= 0) return undefined;
    const namespace = await findNamespaceByPath(path.slice(0, slash));
    project = namespace && (await findProjectInNamespace(namespace.id, path.slice(slash + 1)));
    if (project && namespace) return { project, namespace };
    return undefined;
  }
  const namespace = project && (await getNamespace(project.namespaceId));
  return project && namespace ? { project, namespace } : undefined;
}

/** The project the caller may read, as a subject carrying the caller's access; 404 otherwise. */
export async function findProjectOrNotFound(idOrPath: string | number, user: User | null): Promise<ProjectSubject> {
  const found = await findProject(idOrPath);
  if (found) {
    const subject: ProjectSubject = { kind: 'project', ...found, access: await projectAccessFor(user, found.project, found.namespace) };
    if (can(user, 'read_project', subject)) return subject;
  }
  throw new NotFoundError('Project');
}

/** Builds the subject of a project already loaded (lists, forks), without a visibility check. */
export async function projectSubject(project: Project, namespace: Namespace, user: User | null): Promise<ProjectSubject> {
  return { kind: 'project', project, namespace, access: await projectAccessFor(user, project, namespace) };
}
