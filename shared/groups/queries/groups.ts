/**
 * The `GET /groups` list (GitLab's `GroupsFinder`), returned for the route to page (`paginate`),
 * and the pieces `GET /namespaces` shares with it.
 */
import { can, isAdmin, isMembershipActive, OWNER, userMemberships } from '../../auth';
import { config } from '../../platform/config';
import { ParamError } from '../../platform/http/errors';
import { filteredCollection, type ListSource, type StreamSource } from '../../platform/http/pagination';
import { matchesSearch, parseSearch, type SearchQuery } from '../../platform/search';
import { projectGroupsAndAncestors } from './authorized-groups';
import type { User } from '../../users';
import { entryIds, groupIdsLinkedTo, inLiveTrees, namespaceCollections, namespaceSearchCollections, getNamespaces, indexedGroups, indexedSubgroups, namespaceFromItem, readAll, searchStream, subgroupsOf, type KnownNamespaces, type Namespace } from '../../namespaces';

export type GroupOrder = 'name' | 'path' | 'id';

export interface GroupListFilters {
  search?: string;
  owned?: boolean;
  all_available?: boolean;
  order_by?: GroupOrder;
  sort?: 'asc' | 'desc';
  skip_groups?: number[];
  min_access_level?: number;
  top_level_only?: boolean;
}

/**
 * Largest candidate set sorted in memory (`order_by=name|path` over all groups). Beyond it the
 * list answers 400 and asks for `order_by=id` (which streams the index) or a narrower list.
 */
const sortLimit = () => config().groupSortLimit;

/** The caller's direct, unexpired group memberships: group id → access level. */
export async function directGroupLevels(user: User): Promise<Map<number, number>> {
  const levels = new Map<number, number>();
  for await (const membership of userMemberships(user.id, 'group')) {
    if (isMembershipActive(membership)) levels.set(membership.sourceId, membership.accessLevel);
  }
  return levels;
}

/**
 * The groups shared with any of `invitedIds` (the caller's direct groups) by a link still active
 * (GitLab's `User#authorized_groups`: groups whose `shared_with_group_links` name one of the user's
 * groups). One Query per invited group (bounded by the caller's memberships), then one BatchGetItem
 * of the shared groups, whose own `sharedWithGroups` list tells whether the link has expired.
 */
async function groupsSharedWith(invitedIds: number[]): Promise<Namespace[]> {
  const sharedIds = new Set<number>();
  await Promise.all(
    invitedIds.map(async (invitedId) => {
      for await (const sharedId of groupIdsLinkedTo(invitedId)) {
        sharedIds.add(sharedId);
        if (sharedIds.size > sortLimit()) throw new ParamError(`the list exceeds ${sortLimit()} groups; narrow it (search, owned, min_access_level)`);
      }
    }),
  );
  if (sharedIds.size === 0) return [];
  const invited = new Set(invitedIds);
  const today = new Date().toISOString().slice(0, 10);
  return (await getNamespaces([...sharedIds])).filter(
    (group) => group.kind === 'group' && (group.sharedWithGroups ?? []).some((link) => invited.has(link.groupId) && (link.expiresAt === null || link.expiresAt > today)),
  );
}

/** The groups and all their live descendants (subgroup index, breadth first), bounded. */
async function withDescendants(roots: Namespace[]): Promise<Namespace[]> {
  const found = new Map(roots.map((group) => [group.id, group]));
  const queue = [...roots];
  for (let group = queue.shift(); group; group = queue.shift()) {
    if (!group.subgroupCount) continue;
    for await (const child of indexedSubgroups(group.id)) {
      if (child.deleting || found.has(child.id)) continue;
      found.set(child.id, child);
      queue.push(child);
      if (found.size > sortLimit()) throw new ParamError(`the list exceeds ${sortLimit()} groups; narrow it (search, owned, min_access_level)`);
    }
  }
  return [...found.values()];
}

/**
 * What the caller may do in groups, from their direct memberships (read once): a group's level
 * is the highest of its own and its ancestors'.
 */
async function groupLevels(viewer: User | null): Promise<{ level: (group: Namespace) => number; readable: (group: Namespace) => boolean }> {
  const levels = viewer && !isAdmin(viewer) ? await directGroupLevels(viewer) : new Map<number, number>();
  const level = (group: Namespace) => Math.max(0, ...[group.id, ...group.ancestorIds].map((id) => levels.get(id) ?? 0));
  return { level, readable: (group) => can(viewer, 'read_group', { kind: 'group', group, level: level(group) }) };
}

const readableGroups = async (viewer: User | null) => (await groupLevels(viewer)).readable;

type SortKey = (group: Namespace) => string;
const SORT_KEYS: Record<Exclude<GroupOrder, 'id'>, SortKey> = {
  name: (g) => g.name.toLowerCase(),
  path: (g) => g.path.toLowerCase(),
};

/** GitLab's order: by the field in the requested direction, then by id ascending. */
function comparator(order: GroupOrder, ascending: boolean) {
  const direction = ascending ? 1 : -1;
  if (order === 'id') return (a: Namespace, b: Namespace) => direction * (a.id - b.id);
  const key = SORT_KEYS[order];
  return (a: Namespace, b: Namespace) => {
    const ka = key(a);
    const kb = key(b);
    return (ka < kb ? -direction : ka > kb ? direction : 0) || a.id - b.id;
  };
}

/**
 * A list already in order, held in memory, as a stream to page: offset pages with the exact
 * total, or keyset pages whose cursor is the last namespace's id (the list is re-read and resumed
 * right after it).
 */
export function sortedList(sorted: Namespace[]): StreamSource<Namespace> {
  return {
    total: async () => sorted.length,
    async *read(after) {
      if (after !== undefined && !/^\d+$/.test(after)) throw new ParamError('cursor is invalid');
      let start = after === undefined ? 0 : sorted.findIndex((g) => g.id === Number(after)) + 1;
      if (after !== undefined && start === 0) throw new ParamError('cursor is invalid');
      for (; start < sorted.length; start++) {
        const namespace = sorted[start];
        yield { value: namespace, cursor: () => String(namespace.id) };
      }
    },
  };
}

/** A parsed `search` (GitLab's rule, `shared/platform/search.ts`), if any. */
const parsedSearch = (search: string | undefined): SearchQuery | undefined => (search === undefined ? undefined : parseSearch(search));

/** Whether a group's name or path matches a search (GitLab's `Group.search`). */
const groupMatches = (query: SearchQuery | undefined, group: Namespace): boolean => !query || matchesSearch(query, group.name, group.path);

/**
 * The groups of `GET /groups`, for the route to page, following GitLab's `GroupsFinder`:
 * - anonymous: public groups;
 * - `owned`: groups the caller directly owns; `min_access_level`: groups where the caller's direct
 *   level is at least that, with their subgroups;
 * - admins, and users asking `all_available=true`: every group they may read (the groups index);
 * - other users: the groups they are members of and the groups shared with those (GitLab's
 *   `authorized_groups`: a group share reaches its members), with their subgroups, the groups of
 *   the projects they are members of, and the ancestors of all of these (`self_and_ancestors`,
 *   `authorized-groups.ts`); with `all_available=true` those and every other group they may read.
 *
 * Membership-based lists are bounded by the caller's memberships and sorted in memory. Lists over
 * the groups index stream it by id for `order_by=id`; ordering by name or path reads and sorts it
 * whole, up to `GROUP_SORT_LIMIT` groups (see ACCESS_PATTERNS.md). A `search` with an indexable
 * term reads the term's search entries (`SEARCH_GROUPS#<term>`, by id) instead of the index:
 * streamed for `order_by=id`, its matches sorted in memory (same bound) for name or path.
 * `search` (GitLab's rule on name and path), `skip_groups` and `top_level_only` are checked on
 * each group read.
 */
export async function listGroups(viewer: User | null, filters: GroupListFilters): Promise<ListSource<Namespace>> {
  const order = filters.order_by ?? 'name';
  const ascending = (filters.sort ?? 'asc') === 'asc';
  const query = parsedSearch(filters.search);
  const skip = new Set(filters.skip_groups ?? []);
  const matches = (group: Namespace) =>
    group.kind === 'group' &&
    !group.deleting &&
    !skip.has(group.id) &&
    (!filters.top_level_only || group.parentId === null) &&
    groupMatches(query, group);

  const membershipList = viewer && (filters.owned || filters.min_access_level !== undefined || !(filters.all_available ?? isAdmin(viewer)));
  if (membershipList) {
    const levels = await directGroupLevels(viewer);
    const minimum = filters.owned ? OWNER : (filters.min_access_level ?? 0);
    const direct = await getNamespaces([...levels].filter(([, level]) => level >= minimum).map(([id]) => id));
    // `owned` and `min_access_level` look at direct memberships only, as GitLab's; the plain list adds shares.
    const shared = filters.owned || filters.min_access_level !== undefined ? [] : await groupsSharedWith([...levels.keys()]);
    const listed = filters.owned ? direct : await withDescendants([...direct, ...shared.filter((group) => !levels.has(group.id))]);
    // The plain list adds the groups of member projects and every ancestor (`authorized-groups.ts`).
    const all = filters.owned || filters.min_access_level !== undefined ? listed : [...listed, ...(await projectGroupsAndAncestors(viewer, listed))];
    return sortedList(all.filter(matches).sort(comparator(order, ascending)));
  }

  // Every group the caller may read: admins all, others public (and internal, and their own, and
  // those shared with their groups, with their subgroups).
  const readableByLevel = await readableGroups(viewer);
  const sharedIds = new Set<number>();
  // The groups of member projects and the ancestors of member, shared and project groups (`authorized-groups.ts`).
  const authorizedIds = new Set<number>();
  if (viewer && !isAdmin(viewer)) {
    const levels = await directGroupLevels(viewer);
    const [direct, shared] = await Promise.all([getNamespaces([...levels.keys()]), groupsSharedWith([...levels.keys()])]);
    for (const group of shared) sharedIds.add(group.id);
    for (const group of await projectGroupsAndAncestors(viewer, [...direct, ...shared])) authorizedIds.add(group.id);
  }
  const readable = (group: Namespace) => readableByLevel(group) || authorizedIds.has(group.id) || [group.id, ...group.ancestorIds].some((id) => sharedIds.has(id));
  const select = (group: Namespace) => (matches(group) && readable(group) ? group : undefined);
  const term = query?.term;
  if (term !== undefined) {
    const found = searchStream({
      ascending: order === 'id' ? ascending : true,
      sources: (range) => [entryIds(namespaceSearchCollections.groups(term), range)],
      load: async (ids) => new Map((await getNamespaces(ids)).filter((group) => select(group)).map((group) => [group.id, group])),
    });
    if (order === 'id') return found;
    const all = await readAll(found, sortLimit());
    if (!all) throw new ParamError(`order_by=${order} is supported for up to ${sortLimit()} matching groups; use order_by=id or narrow the search`);
    return sortedList(all.sort(comparator(order, ascending)));
  }
  // A subgroup beneath a group being deleted is left out at once: its ancestors are checked a
  // chunk at a time (one BatchGetItem for those the list has not read yet).
  const known: KnownNamespaces = new Map();
  if (order === 'id') {
    return filteredCollection({
      collection: namespaceCollections.groups(),
      ascending,
      select: (item) => {
        const group = namespaceFromItem(item);
        known.set(group.id, group);
        return select(group);
      },
      keep: async (groups) => {
        const live = new Set(await inLiveTrees(groups, known));
        return groups.map((group) => live.has(group));
      },
    });
  }
  const all: Namespace[] = [];
  let read = 0;
  for await (const group of indexedGroups()) {
    if (++read > sortLimit()) {
      throw new ParamError(`order_by=${order} is supported for up to ${sortLimit()} groups; use order_by=id or narrow the list`);
    }
    known.set(group.id, group);
    if (select(group)) all.push(group);
  }
  return sortedList((await inLiveTrees(all, known)).sort(comparator(order, ascending)));
}

/**
 * `GET /groups/:id/subgroups` (direct subgroups) and `GET /groups/:id/descendant_groups` (every
 * level below): the groups under `parent` the caller may read, with `GET /groups`' filters
 * (`owned` and `min_access_level` by the caller's level in each group, inherited from ancestors
 * as GitLab's `GroupsFinder` for subgroups), sorted in memory. A group's subgroups are bounded as
 * every in-memory list is (`GROUP_SORT_LIMIT`).
 */
export async function listSubgroups(viewer: User | null, parent: Namespace, filters: GroupListFilters, scope: 'children' | 'descendants'): Promise<ListSource<Namespace>> {
  const query = parsedSearch(filters.search);
  const skip = new Set(filters.skip_groups ?? []);
  const minimum = filters.owned ? OWNER : (filters.min_access_level ?? 0);
  const { level, readable } = await groupLevels(viewer);
  const children = (await subgroupsOf(parent.id)).filter((child) => !child.deleting);
  const candidates = scope === 'children' ? children : (await withDescendants(children));
  const kept = candidates.filter(
    (group) =>
      !skip.has(group.id) &&
      groupMatches(query, group) &&
      readable(group) &&
      (minimum === 0 || level(group) >= minimum),
  );
  return sortedList(kept.sort(comparator(filters.order_by ?? 'name', (filters.sort ?? 'asc') === 'asc')));
}
