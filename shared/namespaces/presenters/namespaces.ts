import { avatarUrl } from '../avatars';
import { namespaceAvatar } from '../store/avatars';
import type { Namespace } from '../store/namespaces';

/**
 * A namespace's `avatar_url`: a group's own avatar; a personal namespace shows its owner's (GitLab
 * delegates it to the owner), whose copy the namespace item keeps. `null` without one.
 */
export function namespaceAvatarUrl(namespace: Namespace): string | null {
  const avatar = namespaceAvatar(namespace);
  if (namespace.kind === 'user') return namespace.ownerId === null ? null : avatarUrl('user', namespace.ownerId, avatar);
  return avatarUrl('group', namespace.id, avatar);
}

/** The Namespace entity (`GET /namespaces`, a project's `namespace`). */
export function presentNamespace(namespace: Namespace) {
  return {
    id: namespace.id,
    name: namespace.name,
    path: namespace.path,
    kind: namespace.kind,
    full_path: namespace.fullPath,
    parent_id: namespace.parentId,
    avatar_url: namespaceAvatarUrl(namespace),
  };
}
