/** Reads of namespaces: `GET /namespaces`, the personal namespaces and groups a user can put projects in. */
import { isAdmin } from '../../auth';
import { filteredCollection, type ListSource } from '../../platform/http/pagination';
import type { User } from '../../users';
import { matchesSearch, parseSearch } from '../../platform/search';
import { entryIds, inLiveTrees, namespaceCollections, namespaceSearchCollections, getNamespaces, namespaceFromItem, searchStream, type KnownNamespaces, type Namespace } from '../../namespaces';
import { directGroupLevels, sortedList } from './groups';

/**
 * The namespaces of `GET /namespaces`, for the route to page: for admins every namespace (the
 * namespace index, by id; with a `search` that has an indexable term, the term's search entries of
 * groups and of personal namespaces, merged by id); for others their personal namespace and the
 * groups they are direct members of (GitLab 9's `current_user.namespaces`). `search` follows
 * GitLab's rule (`shared/platform/search.ts`) on the name, path or full path.
 */
export async function listNamespaces(viewer: User, search: string | undefined): Promise<ListSource<Namespace>> {
  const query = search === undefined ? undefined : parseSearch(search);
  const matches = (namespace: Namespace) =>
    !namespace.deleting && (!query || matchesSearch(query, namespace.name, namespace.path, namespace.fullPath));
  // A plain boolean: `isAdmin` narrows its argument, and a non-admin is still a user.
  const admin: boolean = isAdmin(viewer);
  const term = query?.term;
  if (admin && term !== undefined) {
    return searchStream({
      ascending: true,
      sources: (range) => [entryIds(namespaceSearchCollections.groups(term), range), entryIds(namespaceSearchCollections.personal(term), range)],
      load: async (ids) => new Map((await getNamespaces(ids)).filter(matches).map((namespace) => [namespace.id, namespace])),
    });
  }
  if (admin) {
    // Subgroups beneath a group being deleted are left out, their ancestors checked a chunk at a
    // time (read by id order, ancestors come first: mostly known already).
    const known: KnownNamespaces = new Map();
    return filteredCollection({
      collection: namespaceCollections.namespaces(),
      ascending: true,
      select: (item) => {
        const namespace = namespaceFromItem(item);
        known.set(namespace.id, namespace);
        return matches(namespace) ? namespace : undefined;
      },
      keep: async (namespaces) => {
        const live = new Set(await inLiveTrees(namespaces, known));
        return namespaces.map((namespace) => live.has(namespace));
      },
    });
  }
  const ids: number[] = [viewer.namespaceId, ...(await directGroupLevels(viewer)).keys()];
  const namespaces = (await getNamespaces(ids)).filter(matches).sort((a, b) => a.id - b.id);
  return sortedList(namespaces);
}
