import type { Namespace } from '../store/namespaces';

/** The Namespace entity (`GET /namespaces`). */
export function presentNamespace(namespace: Namespace) {
  return {
    id: namespace.id,
    name: namespace.name,
    path: namespace.path,
    kind: namespace.kind,
    full_path: namespace.fullPath,
    parent_id: namespace.parentId,
  };
}
