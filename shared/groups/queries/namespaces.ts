/** Reads of namespaces: `GET /namespaces`, the personal namespaces and groups a user can put projects in. */
import { isAdmin } from '../../auth';
import type { ListSource } from '../../platform/http/pagination';
import type { User } from '../../users';
import { namespaceCollections, getNamespaces, namespaceFromItem, type Namespace } from '../../namespaces';
import { directGroupLevels, sortedList } from './groups';

/**
 * The namespaces of `GET /namespaces`, for the route to page: for admins every namespace (the
 * namespace index, by id); for others their personal namespace and the groups they are direct
 * members of (GitLab 9's `current_user.namespaces`). `search` matches name, path or full path.
 */
export async function listNamespaces(viewer: User, search: string | undefined): Promise<ListSource<Namespace>> {
  const needle = search?.toLowerCase();
  const matches = (namespace: Namespace) =>
    !namespace.deleting &&
    (!needle || [namespace.name, namespace.path, namespace.fullPath].some((value) => value.toLowerCase().includes(needle)));
  // A plain boolean: `isAdmin` narrows its argument, and a non-admin is still a user.
  const admin: boolean = isAdmin(viewer);
  if (admin) {
    return {
      collection: namespaceCollections.namespaces(),
      ascending: true,
      select: (item) => {
        const namespace = namespaceFromItem(item);
        return matches(namespace) ? namespace : undefined;
      },
    };
  }
  const ids: number[] = [viewer.namespaceId, ...(await directGroupLevels(viewer)).keys()];
  const namespaces = (await getNamespaces(ids)).filter(matches).sort((a, b) => a.id - b.id);
  return sortedList(namespaces);
}
