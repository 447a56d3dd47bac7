export { findGroupOrNotFound, findNamespace, isNumericId } from './finders';
export { NAMESPACE_PATH_MESSAGE, isValidNamespacePath, reservedPathMessage } from './paths';
export { namespaceAvatarUrl, presentNamespace } from './presenters/namespaces';
export { VISIBILITIES, findNamespaceByPath, getNamespace, namespaceFromItem, namespaceToItem, personalNamespace, personalNamespaceUpdate, type Namespace, type Visibility, INDEX_ATTEMPTS, deleteGroupPartition, finishPathMove, getNamespaces, indexBackoff, indexedGroups, indexedSubgroups, insertGroup, markGroupDeleting, moveNamespacePath, readNamespaceRecord, removeGroupRecord, subgroupsOf, transferGroupRecord, updateGroupSettings, visibilityRank } from './store/namespaces';
export { deletedOwnerUncounted, groupIsLive, ownerAddedToLiveGroup, ownerCountUpdate } from './store/owners';
export { namespaceCollections, namespaceKeys, namespaceSearchCollections } from './store/keys';
// Former full paths (GitLab's redirect routes): written and dropped in the path writes' transactions.
export { dropLegacyRedirectAt, dropRedirectAt, dropRedirectsBeneath, findRedirect, redirectFrom, type Redirect, type RedirectTarget } from './redirects';
// A namespace beneath a group being deleted is gone at once (reads, lists, writes).
export { ancestorsLive, inLiveTrees, knownFromItems, loadAncestors, type KnownNamespaces } from './store/live-tree';
export { backfillGroupSearchEntries, groupSearchTerms, personalNamespaceSearchKeys, writeGroupSearchEntries } from './store/namespaces';
export { entryIds, idCursor, mergeIdStreams, putSearchEntries, readAll, removeSearchEntries, searchStream, type IdRange, type IdStream } from './search-index';
export { deleteGroupLink, deleteGroupLinkItem, groupIdsLinkedTo, putGroupLink } from './store/group-links';
// Avatars: the rules and storage every owner's avatar follows (users and projects too), and groups' own.
export { assertValidAvatar, avatarFileParam, avatarHeaders, avatarParam, avatarUrl, changeAvatar, deleteAvatarObject, isStoredAvatar, newStoredAvatar, parseAvatarPath, putAvatarObject, readAvatarObject, type AvatarChange, type StoredAvatar } from './avatars';
export { deleteGroupAvatarObject, groupAvatarFile, groupAvatarObjectKey, namespaceAvatar, writeGroupAvatar } from './store/avatars';
