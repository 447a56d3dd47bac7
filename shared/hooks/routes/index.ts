/** The hooks feature's HTTP slice, by endpoint group (for the Lambda entries in `functions/`). */
import { hookRoutes } from './hooks';

export const routes = {
  hooks: hookRoutes,
};
