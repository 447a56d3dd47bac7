/** The hooks feature's HTTP slice, by endpoint group (for the Lambda entries in `functions/`). */
import { hookRoutes } from './hooks';
import { systemHookRoutes } from './system-hooks';

export const routes = {
  meta: systemHookRoutes,
  hooks: hookRoutes,
};
