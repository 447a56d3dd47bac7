/** The packages feature's HTTP slice, by endpoint group (for the Lambda entries in `functions/`). */
import { groupPackageRoutes, projectPackageRoutes } from './packages';

export const routes = {
  projects: projectPackageRoutes,
  groups: groupPackageRoutes,
};
