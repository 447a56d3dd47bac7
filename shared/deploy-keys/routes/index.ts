/** The deploy keys feature's HTTP slice, by endpoint group (for the Lambda entries in `functions/`). */
import { instanceDeployKeyRoutes, projectDeployKeyRoutes, userDeployKeyRoutes } from './deploy-keys';

export const routes = {
  meta: instanceDeployKeyRoutes,
  projects: projectDeployKeyRoutes,
  users: userDeployKeyRoutes,
};
