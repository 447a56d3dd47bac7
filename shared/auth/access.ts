/**
 * Effective access levels. A user's access to a project is the highest of: a direct project
 * membership, a membership of the project's group or any ancestor group, a membership of a group
 * the project is shared with (capped at the share's `group_access`), and ownership of the
 * personal namespace (50). Expired memberships and shares give nothing. One BatchGetItem (or
 * none more: {@link prefetchProjectAccess} reads them with the project's namespace).
 */
import type { Key } from '../platform/dynamo/keys';
import type { Item } from '../platform/dynamo/query';
import { activeMemberships, isMembershipActive, membershipFromItem, type Membership } from './store/memberships';
import { OWNER } from './rules';
import { membershipKeys, type MemberSource } from './store/keys';
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

/** The sources of the memberships a project's access depends on (ProjectAccess's header). */
const accessSources = (project: Project, namespace: Namespace): MemberSource[] => [
  { kind: 'project' as const, id: project.id },
  ...(namespace.kind === 'group' ? groupChain(namespace) : []).map((id) => ({ kind: 'group' as const, id })),
  ...project.sharedWith.map((share) => ({ kind: 'group' as const, id: share.groupId })),
];

/**
 * {@link projectAccessFor} for many projects at once (a page of a list): one BatchGetItem for all
 * the memberships involved instead of one per project.
 */
export async function projectAccessForMany(
  user: User | null,
  entries: Array<{ project: Project; namespace: Namespace }>,
): Promise<ProjectAccess[]> {
  if (!user) return entries.map(() => NO_PROJECT_ACCESS);
  const memberships = await activeMemberships(
    user.id,
    entries.flatMap(({ project, namespace }) => accessSources(project, namespace)),
  );
  return entries.map(({ project, namespace }) => accessFromMemberships(user, project, namespace, memberships));
}

/**
 * What a project's access depends on, as known before reading the project (from an earlier read
 * of it) or its namespace: a guess, which only decides what is read with them.
 */
export interface ProjectAccessGuess {
  projectId: number;
  namespaceId: number;
  /** The namespace's ancestors, when known. */
  ancestorIds?: readonly number[];
  /** The groups the project is shared with. */
  sharedGroupIds: readonly number[];
}

/**
 * A project's access read together with the project or its namespace: `keys` are the caller's
 * memberships the guess names (the project's, its namespace's as a group and that namespace's
 * ancestors, the groups it is shared with), for the caller to read in the same BatchGetItem;
 * `resolve`, given the project and namespace as read, takes what those keys found for the
 * memberships the access really depends on, reads only those the guess missed (a subgroup's
 * ancestors, a new share, a moved project), and computes the access. A wrong guess costs a read,
 * never a wrong answer.
 */
export function prefetchProjectAccess(user: User | null, guess: ProjectAccessGuess) {
  const guessed: MemberSource[] = user
    ? [
        { kind: 'project', id: guess.projectId },
        ...[guess.namespaceId, ...(guess.ancestorIds ?? []), ...guess.sharedGroupIds].map((id) => ({ kind: 'group' as const, id })),
      ]
    : [];
  const keyOf = (source: MemberSource) => membershipKeys.member(source, user!.id);
  const named = (source: MemberSource) => guessed.some((g) => g.kind === source.kind && g.id === source.id);
  return {
    keys: guessed.map(keyOf),
    /** The access to `project` in `namespace`, given the items read with `keys` (by key). */
    resolve: async (project: Project, namespace: Namespace, read: (key: Key) => Item | undefined): Promise<ProjectAccess> => {
      if (!user) return NO_PROJECT_ACCESS;
      const sources = accessSources(project, namespace);
      const prefetched = sources
        .filter(named)
        .flatMap((source) => {
          const item = read(keyOf(source));
          return item ? [membershipFromItem(item)] : [];
        })
        .filter((membership) => isMembershipActive(membership));
      const rest = await activeMemberships(user.id, sources.filter((source) => !named(source)));
      return accessFromMemberships(user, project, namespace, [...prefetched, ...rest]);
    },
  };
}

/** The access of `user` to a project, from their active memberships (any superset of those it depends on). */
function accessFromMemberships(user: User, project: Project, namespace: Namespace, memberships: Membership[]): ProjectAccess {
  const levels = new Map(memberships.map((m) => [`${m.sourceKind}#${m.sourceId}`, m.accessLevel]));
  const levelIn = (kind: MemberSource['kind'], id: number) => levels.get(`${kind}#${id}`) ?? 0;
  const namespaceGroups = namespace.kind === 'group' ? groupChain(namespace) : [];
  // A share (GitLab's `ProjectGroupLink`, `Expirable` too) gives nothing from its expiry day on.
  const shares = project.sharedWith.filter((share) => share.expiresAt === null || share.expiresAt > today());
  const projectAccess = levelIn('project', project.id) || null;
  const groupAccess = Math.max(0, ...namespaceGroups.map((id) => levelIn('group', id))) || null;
  const sharedAccess = Math.max(0, ...shares.map((share) => Math.min(levelIn('group', share.groupId), share.groupAccess)));
  const ownerAccess = namespace.kind === 'user' && namespace.ownerId === user.id ? OWNER : 0;
  return { level: Math.max(projectAccess ?? 0, groupAccess ?? 0, sharedAccess, ownerAccess), projectAccess, groupAccess };
}
