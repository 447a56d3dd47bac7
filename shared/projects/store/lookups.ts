/**
 * The reads project lists and responses need beyond the projects themselves: the id-ordered
 * project indexes a list merges, and the namespaces, users and memberships a page refers to
 * (other features' items, read by the keys and collections their features export). Batch reads
 * return what exists, items being deleted included: callers decide what to leave out.
 */
import { membershipCollections, membershipFromItem, type MemberSource, type Membership } from '../../auth';
import { namespaceCollections, namespaceFromItem, namespaceKeys, type Namespace, type Visibility } from '../../namespaces';
import { userFromItem, userKeys, type User } from '../../users';
import { getMany } from '../../platform/dynamo/batch';
import { pad, type Collection } from '../../platform/dynamo/keys';
import { queryAll, queryCollection } from '../../platform/dynamo/query';
import { projectCollections } from './keys';

/** An id-ordered project index: all projects, those of one visibility or namespace, those a user starred or contributed to, or a project's forks. */
export type ProjectIndex =
  | { all: true }
  | { visibility: Visibility }
  | { namespaceId: number }
  | { starredBy: number }
  /** The projects a user contributed to since `since` (an ISO time: entries of older contributions are skipped). */
  | { contributedBy: number; since: string }
  | { forksOf: number }
  /** The projects shared with a group. */
  | { sharedWith: number };

/** What a list reads of an index: ids after `after` (exclusive) in the given order, about `hint` of them per Query. */
export interface IdRange {
  ascending: boolean;
  after: number | undefined;
  hint: number;
}

function collectionOf(index: ProjectIndex): Collection {
  if ('visibility' in index) return projectCollections.projectsWithVisibility(index.visibility);
  if ('namespaceId' in index) return projectCollections.namespaceProjects(index.namespaceId);
  if ('starredBy' in index) return projectCollections.userStars(index.starredBy);
  if ('contributedBy' in index) return projectCollections.userContributions(index.contributedBy);
  if ('forksOf' in index) return projectCollections.projectForks(index.forksOf);
  if ('sharedWith' in index) return projectCollections.groupShares(index.sharedWith);
  return projectCollections.projects();
}

/** The project ids of an index (its sort key is the zero-padded project id), in order, after `range.after`. */
export async function* projectIds(index: ProjectIndex, range: IdRange): AsyncIterable<number> {
  const { ascending, after, hint } = range;
  const collection = collectionOf(index);
  const idOf = (sortKey: string) => Number(sortKey.slice(sortKey.lastIndexOf('#') + 1));
  for await (const item of queryCollection(
    { ...collection, ...(after === undefined ? {} : ascending ? { from: pad(after + 1) } : { below: pad(after) }) },
    { ascending, pageSize: Math.min(Math.max(hint, 20), 1000) },
  )) {
    const id = idOf(String(item[collection.sortAttribute]));
    if (after !== undefined && (ascending ? id <= after : id >= after)) continue;
    if ('since' in index && !(String(item.lastContributedAt) >= index.since)) continue;
    yield id;
  }
}

/** Namespaces by id (one BatchGetItem per 100, consistent), those being deleted included. */
export async function getNamespacesById(ids: number[]): Promise<Namespace[]> {
  return (await getMany(ids.map((id) => namespaceKeys.namespace(id)))).map(namespaceFromItem);
}

/** Users by id (one BatchGetItem per 100, consistent), those being deleted included. */
export async function getUsersById(ids: number[]): Promise<User[]> {
  return (await getMany(ids.map((id) => userKeys.user(id)))).map(userFromItem);
}

/** A user's direct memberships, in groups and projects (GSI1). */
export async function* membershipsOf(userId: number): AsyncIterable<Membership> {
  for await (const item of queryCollection(membershipCollections.userMemberships(userId))) yield membershipFromItem(item);
}

/** The direct members of a group or project. */
export async function membersOf(source: MemberSource): Promise<Membership[]> {
  return (await queryAll(membershipCollections.members(source))).map(membershipFromItem);
}

/**
 * The ids of the projects of a group and of its live subgroups, walking the tree breadth-first
 * (one Query per group on the namespace's projects, one on its subgroups when it has some).
 * @returns the ids, or `'too_many'` as soon as there are more than `limit`.
 */
export async function groupProjectIds(group: Namespace, limit: number): Promise<number[] | 'too_many'> {
  const ids: number[] = [];
  const queue = [group];
  const seen = new Set([group.id]);
  for (let current = queue.shift(); current; current = queue.shift()) {
    for await (const item of queryCollection(projectCollections.namespaceProjects(current.id))) {
      ids.push(Number(item.id));
      if (ids.length > limit) return 'too_many';
    }
    if (!current.subgroupCount) continue;
    for await (const item of queryCollection(namespaceCollections.subgroups(current.id))) {
      const child = namespaceFromItem(item);
      if (child.deleting || seen.has(child.id)) continue;
      seen.add(child.id);
      queue.push(child);
    }
  }
  return ids;
}

/**
 * The groups whose members' access reaches beyond them: `groupIds` with every live descendant
 * (members of a group are members of its subgroups), and, with `links`, the groups shared with
 * any of those (GitLab's `GroupGroupLink`: the invited group's members incl. inherited ones) with
 * their descendants. One Query per group for its subgroups (GSI3 `SUBGROUPS#`) and one per
 * member group for the groups shared with it (GSI1 `GROUP_LINKS_TO#`); stops near `limit` groups.
 */
export async function groupsReachedFrom(groupIds: number[], options: { links: boolean; limit: number }): Promise<number[]> {
  const seen = new Set<number>();
  const withDescendants = async (roots: number[]): Promise<number[]> => {
    const found: number[] = [];
    const queue = roots.filter((id) => !seen.has(id));
    queue.forEach((id) => seen.add(id));
    for (let current = queue.shift(); current !== undefined; current = queue.shift()) {
      found.push(current);
      if (seen.size > options.limit) break;
      for await (const item of queryCollection(namespaceCollections.subgroups(current))) {
        const child = namespaceFromItem(item);
        if (child.deleting || seen.has(child.id)) continue;
        seen.add(child.id);
        queue.push(child.id);
      }
    }
    return found;
  };
  const members = await withDescendants(groupIds);
  if (!options.links) return [...seen];
  const linked: number[] = [];
  for (const id of members) {
    if (seen.size + linked.length > options.limit) break;
    for await (const item of queryCollection(namespaceCollections.groupLinksTo(id))) linked.push(Number(item.sharedGroupId));
  }
  await withDescendants(linked);
  return [...seen];
}
