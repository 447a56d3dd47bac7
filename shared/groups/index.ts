export { findGroupOrNotFound, findNamespace, isNumericId } from './finders';
export { NAMESPACE_PATH_MESSAGE, isValidNamespacePath, reservedPathMessage } from './namespace-paths';
export { presentNamespace } from './presenters/namespaces';
export { VISIBILITIES, findNamespaceByPath, getNamespace, namespaceFromItem, namespaceToItem, personalNamespace } from './store/namespaces';
export type { Namespace, Visibility } from './store/namespaces';
