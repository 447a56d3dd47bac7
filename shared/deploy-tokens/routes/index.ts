/** The deploy tokens feature's HTTP slice, by endpoint group (for the Lambda entries in `functions/`). */
import { groupDeployTokenRoutes, projectDeployTokenRoutes } from './deploy-tokens';

export const routes = {
  projects: projectDeployTokenRoutes,
  groups: groupDeployTokenRoutes,
};
