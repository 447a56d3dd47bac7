/** The badges feature's HTTP slice, by endpoint group (for the Lambda entries in `functions/`). */
import { groupBadgeRoutes, projectBadgeRoutes } from './badges';

export const routes = {
  projects: projectBadgeRoutes,
  groups: groupBadgeRoutes,
};
