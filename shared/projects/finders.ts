/**
 * `find…OrNotFound` helpers: 404 when the thing does not exist *or the caller may not see it*
 * (a private project is never revealed by a 403). They are the only way routes look things up by
 * a client-supplied id or URL-encoded path, and they resolve the caller's access once.
 */
import { can, prefetchProjectAccess, projectAccessFor, type ProjectAccessGuess, type ProjectSubject } from '../auth';
import { findNamespaceByPath, isNumericId, namespaceFromItem, namespaceKeys, type Namespace } from '../namespaces';
import type { User } from '../users';
import { byKey, getMany } from '../platform/dynamo/batch';
import type { Key } from '../platform/dynamo/keys';
import type { Item } from '../platform/dynamo/query';
import { NotFoundError } from '../platform/http/errors';
import { projectKeys } from './store/keys';
import { findProjectInNamespace, getProject, projectFromItem, type Project } from './store/projects';

/** Internal: the project at a `namespace/path`, with its namespace. */
async function findProjectByPath(path: string): Promise<{ project: Project; namespace: Namespace } | undefined> {
  const slash = path.lastIndexOf('/');
  if (slash <= 0) return undefined;
  const namespace = await findNamespaceByPath(path.slice(0, slash));
  const project = namespace && (await findProjectInNamespace(namespace.id, path.slice(slash + 1)));
  return project && namespace ? { project, namespace } : undefined;
}

/**
 * Internal: where each project shown lately lives (its namespace and that namespace's ancestors,
 * the groups it is shared with), by id, at most {@link PLACES_KEPT}, the oldest dropped first.
 * Only a guess of which keys to read with the project: everything is read again, consistently,
 * and a wrong guess (a moved or newly shared project) costs one more read, never a stale answer.
 */
const places = new Map<number, ProjectAccessGuess>();
const PLACES_KEPT = 10_000;

/** Internal: what a project read says of its place (its namespace's ancestors aside). */
const guessOf = (project: Project): ProjectAccessGuess => ({
  projectId: project.id,
  namespaceId: project.namespaceId,
  sharedGroupIds: project.sharedWith.map((share) => share.groupId),
});

function remember(place: ProjectAccessGuess): void {
  places.delete(place.projectId);
  if (places.size >= PLACES_KEPT) places.delete(places.keys().next().value!);
  places.set(place.projectId, place);
}

/**
 * Internal: {@link findProjectOrNotFound} by numeric id, in one round trip for a project read
 * before in this process: the project, its namespace and the caller's memberships it depends on
 * in one BatchGetItem (where they were at the last read; anything missed is read after). The
 * first time: the project (GetItem), then the namespace with the memberships the project names.
 */
async function findProjectById(id: number, user: User | null): Promise<ProjectSubject> {
  const place = places.get(id);
  const projectKey = projectKeys.project(id);
  let project: Project | undefined;
  let access: ReturnType<typeof prefetchProjectAccess>;
  let read: (key: Key) => Item | undefined;
  if (place) {
    access = prefetchProjectAccess(user, place);
    read = byKey(await getMany([projectKey, namespaceKeys.namespace(place.namespaceId), ...access.keys]));
    const item = read(projectKey);
    project = item && !item.deleting ? projectFromItem(item) : undefined;
  } else {
    project = await getProject(id);
    if (!project) throw new NotFoundError('Project');
    access = prefetchProjectAccess(user, guessOf(project));
    read = byKey(await getMany([namespaceKeys.namespace(project.namespaceId), ...access.keys]));
  }
  if (!project) {
    places.delete(id);
    throw new NotFoundError('Project');
  }
  const namespaceKey = namespaceKeys.namespace(project.namespaceId);
  // Moved since it was last shown: its namespace was not read with it.
  const namespaceItem = read(namespaceKey) ?? (await getMany([namespaceKey]))[0];
  if (!namespaceItem || namespaceItem.deleting) throw new NotFoundError('Project');
  const namespace = namespaceFromItem(namespaceItem);
  const subject: ProjectSubject = { kind: 'project', project, namespace, access: await access.resolve(project, namespace, read) };
  remember({ ...guessOf(project), ancestorIds: namespace.ancestorIds });
  if (!can(user, 'read_project', subject)) throw new NotFoundError('Project');
  return subject;
}

/** The project the caller may read, as a subject carrying the caller's access; 404 otherwise. */
export async function findProjectOrNotFound(idOrPath: string | number, user: User | null): Promise<ProjectSubject> {
  if (isNumericId(idOrPath)) return findProjectById(Number(idOrPath), user);
  const found = await findProjectByPath(String(idOrPath));
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
