/**
 * Effective access levels. A user's access to a project is the highest of: a direct project
 * membership, a membership of the project's group or any ancestor group, a membership of a group
 * the project is shared with or of one of that group's ancestors (capped at the share's
 * `group_access`), a membership of a group that the project's group or one of its ancestors is
 * shared with, or of one of that invited group's ancestors (capped at the link's `group_access`:
 * GitLab's `GroupGroupLink`), and ownership of the personal namespace (50). A user's level in a
 * group is the same without the project. Expired memberships, shares and links give nothing.
 *
 * What it reads: the caller's memberships in those groups, and the namespace items of the groups
 * whose ancestors or links it needs (the ancestors of the project's group, the shared and invited
 * groups), in BatchGetItem rounds: one when no group involved is shared (or
 * none more: {@link prefetchProjectAccess} reads them with the project's namespace), at most
 * three otherwise, whatever the number of groups (links are not followed transitively, as GitLab).
 *
 * The namespace items are the namespaces feature's: it registers how to key and read them
 * ({@link registerNamespaceSource}) when it loads, so this module imports no feature.
 */
import { getMany } from '../platform/dynamo/batch';
import type { Key } from '../platform/dynamo/keys';
import type { Item } from '../platform/dynamo/query';
import { isMembershipActive, membershipFromItem } from './store/memberships';
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

/** A group shared with another group (GitLab's `GroupGroupLink`), as kept on the shared group. */
export interface GroupLink {
  /** The invited group, whose members get access. */
  groupId: number;
  groupAccess: number;
  /** First day without access (`YYYY-MM-DD`, from 00:00 UTC), or null. */
  expiresAt: string | null;
}

/** What access resolution needs of a namespace item. */
type NamespaceFacts = Pick<Namespace, 'id' | 'kind' | 'ancestorIds' | 'sharedWithGroups' | 'deleting'>;

/** How namespace items are keyed and read (registered by the namespaces feature). */
export interface NamespaceSource {
  key: (id: number) => Key;
  fromItem: (item: Item) => NamespaceFacts;
}

let namespaceSource: NamespaceSource | undefined;

/**
 * Called once by the namespaces feature when it loads. Without it (a unit test of this module
 * alone) ancestors of shared groups and group links are not followed: less access, never more.
 */
export function registerNamespaceSource(source: NamespaceSource): void {
  namespaceSource = source;
}

const today = () => new Date().toISOString().slice(0, 10);
const active = (grant: { expiresAt: string | null }, day: string) => grant.expiresAt === null || grant.expiresAt > day;

/** The groups whose members are members of a group: the group and its ancestors. */
const groupChain = (group: Pick<Namespace, 'id' | 'ancestorIds'>): number[] => [group.id, ...group.ancestorIds];

const keyString = (key: Key) => `${key.PK}\u0000${key.SK}`;

/**
 * The items an access resolution has read (`null`: read, absent), reading what is missing a
 * round at a time. Internal.
 */
class Reads {
  private readonly items = new Map<string, Item | null>();
  private wanted = new Map<string, Key>();

  constructor(
    private readonly userId: number,
    private readonly known: Map<number, NamespaceFacts>,
  ) {}

  seed(key: Key, item: Item | undefined): void {
    this.items.set(keyString(key), item ?? null);
  }

  private lookup(key: Key): Item | null | undefined {
    const found = this.items.get(keyString(key));
    if (found === undefined) this.wanted.set(keyString(key), key);
    return found;
  }

  /** The user's active level in a source (0 when none); undefined until read. */
  level(source: MemberSource): number | undefined {
    const item = this.lookup(membershipKeys.member(source, this.userId));
    if (item === undefined) return undefined;
    if (item === null) return 0;
    const membership = membershipFromItem(item);
    return isMembershipActive(membership) ? membership.accessLevel : 0;
  }

  /** A namespace's facts; undefined until read, null when it is gone or cannot be read. */
  namespace(id: number): NamespaceFacts | null | undefined {
    const known = this.known.get(id);
    if (known) return known;
    // Unregistered: the group as its own members alone (no ancestors, no links).
    if (!namespaceSource) return { id, kind: 'group', ancestorIds: [] };
    const item = this.lookup(namespaceSource.key(id));
    if (item === undefined) return undefined;
    return item === null || item.deleting ? null : namespaceSource.fromItem(item);
  }

  /** Reads what the last pass wanted; false when it wanted nothing. */
  async fetch(): Promise<boolean> {
    const keys = [...this.wanted.values()];
    this.wanted = new Map();
    if (keys.length === 0) return false;
    for (const key of keys) this.items.set(keyString(key), null);
    for (const item of await getMany(keys)) this.items.set(keyString({ PK: String(item.PK), SK: String(item.SK) }), item);
    return true;
  }
}

/** A level computed from reads, or undefined while something it needs is unread. */
type Pending = number | undefined;
const maxOf = (levels: Pending[]): Pending => (levels.some((l) => l === undefined) ? undefined : Math.max(0, ...(levels as number[])));

/** The highest level of the user in a group or any of its ancestors (members incl. inherited). */
function inheritedLevel(reads: Reads, groupId: number): Pending {
  const direct = reads.level({ kind: 'group', id: groupId });
  const group = reads.namespace(groupId);
  if (group === undefined) return undefined;
  // A group item not found (removed): only its own memberships, which go with it.
  if (group === null) return direct;
  if (group.kind !== 'group') return 0;
  return maxOf([direct, ...group.ancestorIds.map((id) => reads.level({ kind: 'group', id }))]);
}

/** The access through the links of a group chain: min(level in the invited group, the link's cap). */
function linkedLevel(reads: Reads, chain: number[], day: string): Pending {
  const levels: Pending[] = [];
  for (const id of chain) {
    const group = reads.namespace(id);
    if (group === undefined) {
      levels.push(undefined);
      continue;
    }
    for (const link of group?.sharedWithGroups ?? []) {
      if (!active(link, day)) continue;
      const level = inheritedLevel(reads, link.groupId);
      levels.push(level === undefined ? undefined : Math.min(level, link.groupAccess));
    }
  }
  return maxOf(levels);
}

/** A group's level for the user: its chain's memberships and the chain's links. */
function groupLevel(reads: Reads, group: Namespace, day: string): { direct: Pending; level: Pending } {
  const chain = groupChain(group);
  const direct = maxOf(chain.map((id) => reads.level({ kind: 'group', id })));
  const linked = linkedLevel(reads, chain, day);
  return { direct, level: maxOf([direct, linked]) };
}

/** One project's access from the reads, or undefined while something it needs is unread. */
function projectAccessFrom(reads: Reads, user: User, project: Project, namespace: Namespace, day: string): ProjectAccess | undefined {
  const own = reads.level({ kind: 'project', id: project.id });
  const group = namespace.kind === 'group' ? groupLevel(reads, namespace, day) : { direct: 0, level: 0 };
  // A share (GitLab's `ProjectGroupLink`, `Expirable` too) gives nothing from its expiry day on.
  const shared = maxOf(
    project.sharedWith
      .filter((share) => active(share, day))
      .map((share) => {
        const level = inheritedLevel(reads, share.groupId);
        return level === undefined ? undefined : Math.min(level, share.groupAccess);
      }),
  );
  if (own === undefined || group.direct === undefined || group.level === undefined || shared === undefined) return undefined;
  const ownerAccess = namespace.kind === 'user' && namespace.ownerId === user.id ? OWNER : 0;
  return { level: Math.max(own, group.level, shared, ownerAccess), projectAccess: own || null, groupAccess: group.direct || null };
}

/** Runs `compute` over rounds of reads until it has everything it needs. Internal. */
async function resolve<T>(reads: Reads, compute: () => T | undefined): Promise<T> {
  for (;;) {
    const result = compute();
    if (result !== undefined) return result;
    if (!(await reads.fetch())) throw new Error('access resolution wants nothing yet resolves nothing');
  }
}

/** The namespaces already in hand, so they are not read again. */
const knownNamespaces = (namespaces: Namespace[]) => new Map<number, NamespaceFacts>(namespaces.map((n) => [n.id, n]));

export async function projectAccessFor(user: User | null, project: Project, namespace: Namespace): Promise<ProjectAccess> {
  return (await projectAccessForMany(user, [{ project, namespace }]))[0];
}

/** A user's level in a group: the highest membership in the group or an ancestor, or through its links (0 = none). */
export async function groupAccessFor(user: User | null, group: Namespace): Promise<number> {
  if (!user) return 0;
  const day = today();
  const reads = new Reads(user.id, knownNamespaces([group]));
  return resolve(reads, () => groupLevel(reads, group, day).level);
}

/**
 * {@link projectAccessFor} for many projects at once (a page of a list): each round one
 * BatchGetItem for all the projects instead of one per project.
 */
export async function projectAccessForMany(
  user: User | null,
  entries: Array<{ project: Project; namespace: Namespace }>,
): Promise<ProjectAccess[]> {
  if (!user || entries.length === 0) return entries.map(() => NO_PROJECT_ACCESS);
  const day = today();
  const reads = new Reads(user.id, knownNamespaces(entries.map((e) => e.namespace)));
  return resolve(reads, () => {
    const all = entries.map(({ project, namespace }) => projectAccessFrom(reads, user, project, namespace, day));
    return all.some((access) => access === undefined) ? undefined : (all as ProjectAccess[]);
  });
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
 * ancestors, the groups it is shared with) and the namespace items of those ancestors and shared
 * groups (their ancestors and links), for the caller to read in the same BatchGetItem; `resolve`,
 * given the project and namespace as read, takes what those keys found, reads only what the
 * guess missed (a subgroup's ancestors, a new share, a moved project, the groups a group is shared
 * with), and computes the access. A wrong guess costs a read, never a wrong answer.
 */
export function prefetchProjectAccess(user: User | null, guess: ProjectAccessGuess) {
  const groups = user ? [guess.namespaceId, ...(guess.ancestorIds ?? []), ...guess.sharedGroupIds] : [];
  const memberships: MemberSource[] = user ? [{ kind: 'project', id: guess.projectId }, ...groups.map((id) => ({ kind: 'group' as const, id }))] : [];
  const namespaceIds = user && namespaceSource ? [...(guess.ancestorIds ?? []), ...guess.sharedGroupIds] : [];
  const keys = [
    ...memberships.map((source) => membershipKeys.member(source, user!.id)),
    ...namespaceIds.map((id) => namespaceSource!.key(id)),
  ];
  return {
    keys,
    /** The access to `project` in `namespace`, given the items read with `keys` (by key). */
    resolve: async (project: Project, namespace: Namespace, read: (key: Key) => Item | undefined): Promise<ProjectAccess> => {
      if (!user) return NO_PROJECT_ACCESS;
      const day = today();
      const reads = new Reads(user.id, knownNamespaces([namespace]));
      for (const key of keys) reads.seed(key, read(key));
      return resolve(reads, () => projectAccessFrom(reads, user, project, namespace, day));
    },
  };
}
