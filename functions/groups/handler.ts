/** The Groups endpoint group: groups, their projects, and namespaces. */
import { createGroupHandler } from '../../shared/platform/group-handler';
import { groupRoutes } from '../../shared/groups/routes/groups';
import { namespaceRoutes } from '../../shared/groups/routes/namespaces';

export const handler = createGroupHandler('groups', {
  ...groupRoutes,
  ...namespaceRoutes,
});
