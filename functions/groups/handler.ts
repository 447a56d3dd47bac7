/** The Groups endpoint group: groups, their projects, and namespaces. */
import { createGroupHandler } from '../../shared/http/group-handler';
import { groupRoutes } from './groups';
import { namespaceRoutes } from './namespaces';

export const handler = createGroupHandler('groups', {
  ...groupRoutes,
  ...namespaceRoutes,
});
