/** GitLab's `TreeObject` entity (an entry of `GET …/repository/tree`). */
import type { TreeItem } from '../queries/files';

export function presentTreeItem(item: TreeItem) {
  return { id: item.id, name: item.name, type: item.type, path: item.path, mode: item.mode };
}
