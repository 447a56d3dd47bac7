/**
 * GitLab's `Entities::DeployKey` (with, for the admins' list, the projects each key may push to
 * and only read: `ProjectIdentity`) and `Entities::DeployKeysProject` (the key and its link's
 * `can_push`).
 */
import type { ProjectSubject } from '../../auth';
import type { Namespace } from '../../namespaces';
import { presentProjects, type Project } from '../../projects';
import { presentUserAdminCore, type User } from '../../users';
import type { LinkedKey } from '../queries/deploy-keys';
import type { DeployKey, DeployKeyLink } from '../store/deploy-keys';

export function presentDeployKey(key: DeployKey) {
  return {
    id: key.id,
    title: key.title,
    created_at: key.createdAt,
    expires_at: key.expiresAt,
    key: key.key,
    fingerprint: key.fingerprint,
    fingerprint_sha256: key.fingerprintSha256,
  };
}

export function presentLinkedKey({ key, link }: LinkedKey) {
  return { ...presentDeployKey(key), can_push: link.canPush };
}

/**
 * GitLab's `DeployKeyWithUser` (`GET /keys?fingerprint=` of a deploy key): the key, its creator
 * (`null` once deleted) and its links (`DeployKeysProject` rows; links have no id of their own here, so none is shown).
 */
export function presentDeployKeyWithUser(key: DeployKey, creator: User | undefined, links: DeployKeyLink[]) {
  return {
    ...presentDeployKey(key),
    user: creator ? presentUserAdminCore(creator) : null,
    deploy_keys_projects: links.map((link) => ({
      deploy_key_id: link.keyId,
      project_id: link.projectId,
      created_at: link.createdAt,
      updated_at: link.updatedAt ?? link.createdAt,
      can_push: link.canPush,
    })),
  };
}

type ProjectEntry = { project: Project; namespace: Namespace };

/** GitLab's `ProjectIdentity` of each project (names and paths with their namespaces), in one batch of reads. */
export async function presentProjectIdentities(entries: ProjectEntry[], viewer: User): Promise<Map<number, unknown>> {
  const subjects: ProjectSubject[] = entries.map(({ project, namespace }) => ({ kind: 'project', project, namespace, access: { level: 0, projectAccess: null, groupAccess: null } }));
  const simple = (await presentProjects(subjects, viewer, { simple: true })) as Array<Record<string, unknown>>;
  return new Map(
    entries.map(({ project }, i) => {
      const { id, name, name_with_namespace, path, path_with_namespace, created_at } = simple[i];
      return [project.id, { id, description: project.description, name, name_with_namespace, path, path_with_namespace, created_at }];
    }),
  );
}

/** The admins' list: each key with the projects it may push to and those it may only read. */
export async function presentKeysWithProjects(keys: DeployKey[], projects: Map<number, { write: ProjectEntry[]; readonly: ProjectEntry[] }>, viewer: User) {
  const all = [...projects.values()].flatMap((p) => [...p.write, ...p.readonly]);
  const identities = await presentProjectIdentities([...new Map(all.map((entry) => [entry.project.id, entry])).values()], viewer);
  return keys.map((key) => {
    const of = projects.get(key.id) ?? { write: [], readonly: [] };
    return {
      ...presentDeployKey(key),
      projects_with_write_access: of.write.map((entry) => identities.get(entry.project.id)),
      projects_with_readonly_access: of.readonly.map((entry) => identities.get(entry.project.id)),
    };
  });
}
