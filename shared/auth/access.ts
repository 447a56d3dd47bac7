/**
 * Effective access levels. A user's access to a project is the highest of: a direct project
 * membership, a membership of the project's group or any ancestor group, a membership of a group
 * the project is shared with (capped at the share's `group_access`), and ownership of the
 * personal namespace (50). Expired memberships and shares give nothing. One BatchGetItem.
 */
import { activeMemberships } from './store/memberships';
import { OWNER } from './rules';
import type { MemberSource } from './store/keys';
import type { Namespace } from '../namespaces';
import type { Project } from '../projects';
import type { User } from '../users';

export interface ProjectAccess {
  /** Effective level (0 = none). */
  level: number;
  /** Level of a direct project membership, or null. */
  projectAccess: number | null;
  /** Level through the project's group (or its ancestors), or null. */
  groupAccess: number | null;
}

export const NO_PROJECT_ACCESS: ProjectAccess = { level: 0, projectAccess: null, groupAccess: null };

const today = () => new Date().toISOString().slice(0, 10);

/** The groups whose members are members of a group: the group and its ancestors. */
const groupChain = (group: Namespace): number[] => [group.id, ...group.ancestorIds];

export async function projectAccessFor(user: User | null, project: Project, namespace: Namespace): Promise<ProjectAccess> {
  return (await projectAccessForMany(user, [{ project, namespace }]))[0];
}

/** A user's level in a group: the highest membership in the group or an ancestor (0 = none). */
export async function groupAccessFor(user: User | null, group: Namespace): Promise<number> {
  if (!user) return 0;
  const memberships = await activeMemberships(
    user.id,
    groupChain(group).map((id) => ({ kind: 'group' as const, id })),
  );
  return Math.max(0, ...memberships.map((m) => m.accessLevel));
}

/**
 * {@link projectAccessFor} for many projects at once (a page of a list): one BatchGetItem for all
 * the memberships involved instead of one per project.
 */
export async function projectAccessForMany(
  user: User | null,
  entries: Array<{ project: Project; namespace: Namespace }>,
): Promise<ProjectAccess[]> {
  if (!user) return entries.map(() => NO_PROJECT_ACCESS);
  const sources: MemberSource[] = entries.flatMap(({ project, namespace }) => [
    { kind: 'project' as const, id: project.id },
    ...(namespace.kind === 'group' ? groupChain(namespace) : []).map((id) => ({ kind: 'group' as const, id })),
    ...project.sharedWith.map((share) => ({ kind: 'group' as const, id: share.groupId })),
  ]);
  const memberships = await activeMemberships(user.id, sources);
  const levels = new Map(memberships.map((m) => [`${m.sourceKind}#${m.sourceId}`, m.accessLevel]));
  const levelIn = (kind: MemberSource['kind'], id: number) => levels.get(`${kind}#${id}`) ?? 0;
  return entries.map(({ project, namespace }) => {
    const namespaceGroups = namespace.kind === 'group' ? groupChain(namespace) : [];
    // A share (GitLab's `ProjectGroupLink`, `Expirable` too) gives nothing from its expiry day on.
    const shares = project.sharedWith.filter((share) => share.expiresAt === null || share.expiresAt > today());
    const projectAccess = levelIn('project', project.id) || null;
    const groupAccess = Math.max(0, ...namespaceGroups.map((id) => levelIn('group', id))) || null;
    const sharedAccess = Math.max(0, ...shares.map((share) => Math.min(levelIn('group', share.groupId), share.groupAccess)));
    const ownerAccess = namespace.kind === 'user' && namespace.ownerId === user.id ? OWNER : 0;
    return { level: Math.max(projectAccess ?? 0, groupAccess ?? 0, sharedAccess, ownerAccess), projectAccess, groupAccess };
  });
}
