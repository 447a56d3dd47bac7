/** The wikis feature's HTTP slice, by endpoint group (for the Lambda entries in `functions/`). */
import { wikiRoutes } from './wikis';

export const routes = {
  projects: wikiRoutes,
};
