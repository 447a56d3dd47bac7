/**
 * `find…OrNotFound` helpers: 404 when the thing does not exist *or the caller may not see it*
 * (a private project is never revealed by a 403). They are the only way routes look things up by
 * a client-supplied id or URL-encoded path, and they resolve the caller's access once.
 */
import { can, prefetchProjectAccess, projectAccessFor, type ProjectAccessGuess, type ProjectSubject } from '../auth';
import { ancestorsLive, findNamespaceByPath, findRedirect, getNamespace, isNumericId, knownFromItems, namespaceFromItem, namespaceKeys, type Namespace } from '../namespaces';
import type { User } from '../users';
import { byKey, getMany } from '../platform/dynamo/batch';
import type { Key } from '../platform/dynamo/keys';
import type { Item } from '../platform/dynamo/query';
import type { Authentication } from '../platform/http/context';
import { NotFoundError } from '../platform/http/errors';
import { jobTokenMayReach } from './job-token-reach';
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

/** Internal: a project by id with its namespace, whatever its visibility; undefined when either is gone. */
async function projectWithNamespace(id: number): Promise<{ project: Project; namespace: Namespace } | undefined> {
  const project = await getProject(id);
  const namespace = project && (await getNamespace(project.namespaceId));
  return project && namespace ? { project, namespace } : undefined;
}

/**
 * Internal: the project a former path names (GitLab's `follow_redirects: true`; `redirects.ts` in
 * the namespaces feature), read only when the path names nothing: the project renamed or moved
 * away from it, or one beneath a group that moved (its old path and the rest of the path, looked
 * up at the group's new path; a few hops, for a project moved again after its group).
 */
async function findProjectByFormerPath(path: string, hops = 3): Promise<{ project: Project; namespace: Namespace } | undefined> {
  const redirect = await findRedirect(path);
  if (!redirect) return undefined;
  if (redirect.target.kind === 'project') return projectWithNamespace(redirect.target.id);
  const group = await getNamespace(redirect.target.id);
  if (!group) return undefined;
  const moved = `${group.fullPath}${redirect.rest}`;
  if (moved.toLowerCase() === path.toLowerCase()) return undefined;
  return (await findProjectByPath(moved)) ?? (hops > 1 ? findProjectByFormerPath(moved, hops - 1) : undefined);
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
async function findProjectById(id: number, user: User | null, also: Key[]): Promise<{ subject: ProjectSubject; read: (key: Key) => Item | undefined }> {
  const place = places.get(id);
  const projectKey = projectKeys.project(id);
  let project: Project | undefined;
  let access: ReturnType<typeof prefetchProjectAccess>;
  let read: (key: Key) => Item | undefined;
  if (place) {
    access = prefetchProjectAccess(user, place);
    // Its namespace's ancestors too: one being deleted takes the project with it.
    const ancestorKeys = (place.ancestorIds ?? []).map((ancestorId) => namespaceKeys.namespace(ancestorId));
    read = byKey(await getMany([projectKey, namespaceKeys.namespace(place.namespaceId), ...ancestorKeys, ...access.keys, ...also]));
    const item = read(projectKey);
    project = item && !item.deleting ? projectFromItem(item) : undefined;
  } else {
    project = await getProject(id);
    if (!project) throw new NotFoundError('Project');
    access = prefetchProjectAccess(user, guessOf(project));
    read = byKey(await getMany([namespaceKeys.namespace(project.namespaceId), ...access.keys, ...also]));
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
  // Beneath a group being deleted: gone at once, as GitLab hides the whole tree. The ancestors
  // not read with it (the first read, a moved project) are read now, and serve the access too.
  const ancestorKeys = namespace.ancestorIds.map((ancestorId) => namespaceKeys.namespace(ancestorId));
  const unread = ancestorKeys.filter((key) => !read(key));
  if (unread.length > 0) {
    const before = read;
    const extra = byKey(await getMany(unread));
    read = (key) => before(key) ?? extra(key);
  }
  if (!ancestorsLive(namespace, knownFromItems(ancestorKeys.flatMap((key) => read(key) ?? [])))) throw new NotFoundError('Project');
  const subject: ProjectSubject = { kind: 'project', project, namespace, access: await access.resolve(project, namespace, read) };
  remember({ ...guessOf(project), ancestorIds: namespace.ancestorIds });
  if (!can(user, 'read_project', subject)) throw new NotFoundError('Project');
  return { subject, read };
}

/**
 * The project at a full path, or at a former one (a redirect), with its namespace, whatever its
 * visibility and without any access check: for credentials that are not a user's (a deploy
 * token), which decide themselves which projects they reach. Undefined when the path names none.
 */
export async function findProjectAtPath(path: string): Promise<{ project: Project; namespace: Namespace } | undefined> {
  return (await findProjectByPath(path)) ?? (await findProjectByFormerPath(path));
}

/** {@link findProjectAtPath}, or by numeric id: what a route's `:id` names, for credentials that are not a user's. */
export async function findProjectAt(idOrPath: string): Promise<{ project: Project; namespace: Namespace } | undefined> {
  return isNumericId(idOrPath) ? projectWithNamespace(Number(idOrPath)) : findProjectAtPath(idOrPath);
}

/** The project the caller may read, as a subject carrying the caller's access; 404 otherwise. */
export async function findProjectOrNotFound(idOrPath: string | number, user: User | null): Promise<ProjectSubject> {
  return (await findProjectAndRead(idOrPath, user, () => [])).subject;
}

/**
 * {@link findProjectOrNotFound} for a route that takes CI job tokens (`authentication.jobToken`):
 * a job's token reaches its own project, and another one only as that project's job token scope
 * lets it in ({@link jobTokenMayReach}: its inbound scope disabled, or the job's project or one of
 * its groups on its allowlist) and as the job's user may read it; any other project is a 404, as
 * one the caller cannot see.
 * @example
 * const subject = await findProjectForJobOrNotFound(params.id, user, auth);
 */
export async function findProjectForJobOrNotFound(idOrPath: string | number, user: User | null, auth: Authentication | null): Promise<ProjectSubject> {
  const subject = await findProjectOrNotFound(idOrPath, user);
  if (auth?.job && !(await jobTokenMayReach(auth.job, subject))) throw new NotFoundError('Project');
  return subject;
}

/**
 * {@link findProjectOrNotFound}, and the items of `also(projectId)` (what a route reads of the
 * project besides it, e.g. a list's counts), consistently: read in the same BatchGetItem as the
 * project where the project was read before in this process (by numeric id), else right after it.
 * `read` answers `undefined` for a key whose item does not exist.
 */
export async function findProjectAndRead(
  idOrPath: string | number,
  user: User | null,
  also: (projectId: number) => Key[],
): Promise<{ subject: ProjectSubject; read: (key: Key) => Item | undefined }> {
  if (isNumericId(idOrPath)) return findProjectById(Number(idOrPath), user, also(Number(idOrPath)));
  const found = (await findProjectByPath(String(idOrPath))) ?? (await findProjectByFormerPath(String(idOrPath)));
  if (found) {
    const subject: ProjectSubject = { kind: 'project', ...found, access: await projectAccessFor(user, found.project, found.namespace) };
    if (can(user, 'read_project', subject)) {
      const keys = also(found.project.id);
      return { subject, read: keys.length === 0 ? () => undefined : byKey(await getMany(keys)) };
    }
  }
  throw new NotFoundError('Project');
}

/** Builds the subject of a project already loaded (lists, forks), without a visibility check. */
export async function projectSubject(project: Project, namespace: Namespace, user: User | null): Promise<ProjectSubject> {
  return { kind: 'project', project, namespace, access: await projectAccessFor(user, project, namespace) };
}
