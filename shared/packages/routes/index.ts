/** The packages feature's HTTP slice, by endpoint group (for the Lambda entries in `functions/`). */
import { projectPackageRoutes } from './packages';

export const routes = {
  projects: projectPackageRoutes,
};
