export { findGroupOrNotFound, findNamespace, isNumericId } from './finders';
export { NAMESPACE_PATH_MESSAGE, isValidNamespacePath, reservedPathMessage } from './namespace-paths';
export { presentNamespace } from './presenters/namespaces';
export { VISIBILITIES, findNamespaceByPath, getNamespace, namespaceFromItem, namespaceToItem, personalNamespace, type Namespace, type Visibility } from './store/namespaces';
export { deletedOwnerUncounted, groupIsLive, ownerAddedToLiveGroup, ownerCountUpdate } from './store/owners';
export { namespaceCollections, namespaceKeys } from './store/keys';
