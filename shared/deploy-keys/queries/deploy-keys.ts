/**
 * Reads of deploy keys: a project's list (its links, then their keys: one BatchGetItem per page),
 * one of a project's keys, the instance's lists (admins; `public`), the keys a caller may enable
 * (GitLab's `accessible_deploy_keys`) and the keys of the projects a user and the caller both
 * maintain (`GET /users/:id/project_deploy_keys`).
 */
import { isAdmin, MAINTAINER, projectAccessForMany } from '../../auth';
import { getNamespaces, type Namespace } from '../../namespaces';
import { getMany, byKey } from '../../platform/dynamo/batch';
import { isId } from '../../platform/dynamo/query';
import { RecordNotFoundError } from '../../platform/http/errors';
import { collectionStream, mappedStream, type CollectionSource, type StreamSource } from '../../platform/http/pagination';
import { getProjects, memberProjects, type Project } from '../../projects';
import { getUser, type SshFingerprint, type User } from '../../users';
import { deployKeyCollections, deployKeyKeys } from '../store/keys';
import { deployKeyFromItem, findDeployKeyByFingerprint, getDeployKey, getProjectLink, linkFromItem, linksOfKey, linksOfProject, type DeployKey, type DeployKeyLink } from '../store/deploy-keys';

/** A project's key with its link (GitLab's `DeployKeysProject`). */
export interface LinkedKey {
  key: DeployKey;
  link: DeployKeyLink;
}

/** The keys of a batch of links, in the links' order; a link whose key is gone is left out. */
async function keysOfLinks(links: DeployKeyLink[]): Promise<Array<LinkedKey | undefined>> {
  const find = byKey(await getMany(links.map((link) => deployKeyKeys.key(link.keyId))));
  return links.map((link) => {
    const item = find(deployKeyKeys.key(link.keyId));
    return item ? { key: deployKeyFromItem(item), link } : undefined;
  });
}

/** A project's keys with their links, by key id: one Query page of links and one BatchGetItem of their keys per chunk. */
export function projectDeployKeyList(projectId: number): StreamSource<LinkedKey> {
  return mappedStream(collectionStream({ collection: deployKeyCollections.projectLinks(projectId), ascending: true, select: linkFromItem }), keysOfLinks);
}

/** The project's key of that id with its link; GitLab's `404 Not found` otherwise. */
export async function findLinkedKeyOrNotFound(projectId: number, keyId: number): Promise<LinkedKey> {
  const [link, key] = isId(keyId) ? await Promise.all([getProjectLink(projectId, keyId), getDeployKey(keyId)]) : [];
  if (!link || !key) throw new RecordNotFoundError();
  return { key, link };
}

/** Every deploy key of the instance by id, or only the public ones (admins' `GET /deploy_keys`). */
export function instanceDeployKeyList(publicOnly: boolean): CollectionSource<DeployKey> {
  return { collection: publicOnly ? deployKeyCollections.public() : deployKeyCollections.all(), ascending: true, select: deployKeyFromItem };
}

/** Projects (live, in live namespaces) with their namespaces, by id, in batch reads. */
export async function projectsWithNamespaces(ids: number[]): Promise<Array<{ project: Project; namespace: Namespace }>> {
  if (ids.length === 0) return [];
  const projects = await getProjects([...new Set(ids)]);
  const namespaces = new Map((await getNamespaces([...new Set(projects.map((p) => p.namespaceId))])).map((n) => [n.id, n]));
  return projects.flatMap((project) => {
    const namespace = namespaces.get(project.namespaceId);
    return namespace ? [{ project, namespace }] : [];
  });
}

/**
 * Whether the caller may take a key into a project of theirs (GitLab's `accessible_deploy_keys`):
 * a public key, or one used by a project the caller is a member of (any role; admins: any key).
 * Reads the key's links and their projects: its cost grows with the projects that use the key.
 */
export async function isAccessibleDeployKey(key: DeployKey, user: User): Promise<boolean> {
  if (key.public || isAdmin(user)) return true;
  const entries = await projectsWithNamespaces((await linksOfKey(key.id)).map((link) => link.projectId));
  return (await projectAccessForMany(user, entries)).some((access) => access.level > 0);
}

/** Each key's links split by write access, with the projects they name (the admins' list). */
export async function projectsOfKeys(keys: DeployKey[]): Promise<Map<number, { write: Array<{ project: Project; namespace: Namespace }>; readonly: Array<{ project: Project; namespace: Namespace }> }>> {
  const linksByKey = await Promise.all(keys.map((key) => linksOfKey(key.id)));
  const entries = new Map((await projectsWithNamespaces(linksByKey.flat().map((link) => link.projectId))).map((entry) => [entry.project.id, entry]));
  return new Map(
    keys.map((key, i) => {
      const pick = (canPush: boolean) => linksByKey[i].filter((link) => link.canPush === canPush).flatMap((link) => entries.get(link.projectId) ?? []);
      return [key.id, { write: pick(true), readonly: pick(false) }];
    }),
  );
}

/**
 * The deploy keys of the projects both `viewer` and `target` maintain (GitLab's
 * `GET /users/:id/project_deploy_keys`: `viewer`'s own when they are the same), by id, each once;
 * `undefined` when they maintain no project in common (GitLab's 403). Reads the viewer's
 * memberships' projects (at most `GROUP_ISSUES_PROJECT_LIMIT`, 400 beyond), then each common
 * project's links and their keys.
 */
export async function commonProjectDeployKeys(viewer: User, target: User): Promise<DeployKey[] | undefined> {
  const maintained = (await memberProjects(viewer, "list a project's deploy keys")).filter((subject) => subject.access.level >= MAINTAINER);
  let common = maintained;
  if (target.id !== viewer.id) {
    const access = await projectAccessForMany(target, maintained);
    common = maintained.filter((_, i) => access[i].level >= MAINTAINER);
  }
  if (common.length === 0) return undefined;
  const links = (await Promise.all(common.map((subject) => linksOfProject(subject.project.id)))).flat();
  const ids = [...new Set(links.map((link) => link.keyId))].sort((a, b) => a - b);
  const find = byKey(await getMany(ids.map((id) => deployKeyKeys.key(id))));
  return ids.flatMap((id) => {
    const item = find(deployKeyKeys.key(id));
    return item ? [deployKeyFromItem(item)] : [];
  });
}

/** The deploy key with a fingerprint, its creator (undefined once deleted) and its links; undefined when no deploy key has it. */
export async function findDeployKeyWithLinks(fingerprint: SshFingerprint): Promise<{ key: DeployKey; creator: User | undefined; links: DeployKeyLink[] } | undefined> {
  const key = await findDeployKeyByFingerprint(fingerprint);
  if (!key) return undefined;
  const [creator, links] = await Promise.all([getUser(key.userId), linksOfKey(key.id)]);
  return { key, creator, links };
}
