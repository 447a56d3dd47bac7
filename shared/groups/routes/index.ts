/** The groups feature's HTTP slice, by endpoint group (for the Lambda entries in `functions/`). */
import { groupRoutes } from './groups';
import { namespaceRoutes } from './namespaces';

export const routes = {
  groups: { ...groupRoutes, ...namespaceRoutes },
};
