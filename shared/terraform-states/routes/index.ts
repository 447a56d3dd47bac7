/** The Terraform states feature's HTTP slice, by endpoint group (for the Lambda entries in `functions/`). */
import { terraformStateRoutes } from './states';

export const routes = {
  projects: terraformStateRoutes,
};
