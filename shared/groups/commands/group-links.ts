/**
 * Sharing a group with a group (GitLab's `GroupGroupLink`: `POST /groups/:id/share`,
 * `DELETE /groups/:id/share/:group_id`): the link item and the shared group's `sharedWithGroups`
 * list change together (the namespaces feature's `store/group-links.ts`); access checks read the
 * list (`shared/auth/access.ts`).
 */
import type { GroupLink } from '../../auth';
import { ApiError, ConflictError, NotFoundError } from '../../platform/http/errors';
import { deleteGroupLink, deleteGroupLinkItem, getNamespace, groupIdsLinkedTo, putGroupLink, type Namespace } from '../../namespaces';

/**
 * Shares `shared` with `invited` at `groupAccess` until `expiresAt`.
 * @throws ConflictError (409) when it already is; 404 when either group is gone.
 */
export async function shareGroup(shared: Namespace, invited: Namespace, grant: Omit<GroupLink, 'groupId'>): Promise<Namespace> {
  // GitLab's GroupGroupLink validates that a group is not shared with itself.
  if (shared.id === invited.id) throw new ApiError(409, { message: 'Shared with group cannot be the same as the shared group' });
  const link: GroupLink = { groupId: invited.id, ...grant };
  const result = await putGroupLink(shared.id, link);
  if (result === 'already_shared') throw new ConflictError('Shared with group has already been taken');
  if (result !== 'shared') throw new NotFoundError('Group');
  return { ...shared, sharedWithGroups: [...(shared.sharedWithGroups ?? []), link] };
}

/** Removes the share of `sharedId` with `invitedId`; false if there was none. Retries when the list moved. */
export async function unshareGroup(sharedId: number, invitedId: number): Promise<boolean> {
  for (let attempt = 0; attempt < 5; attempt++) {
    const shared = await getNamespace(sharedId);
    const index = shared?.sharedWithGroups?.findIndex((link) => link.groupId === invitedId) ?? -1;
    if (!shared || index < 0) {
      // The list may already be clean while the link item remains (a crash between): remove it.
      await deleteGroupLinkItem(sharedId, invitedId);
      return false;
    }
    if ((await deleteGroupLink(sharedId, invitedId, index)) === 'removed') return true;
  }
  throw new ConflictError('The group was modified by other requests; try again');
}

/** Removes every share of another group with `invitedId` (the invited group is being deleted). */
export async function unshareGroupsWith(invitedId: number): Promise<void> {
  for await (const sharedId of groupIdsLinkedTo(invitedId)) await unshareGroup(sharedId, invitedId);
}
