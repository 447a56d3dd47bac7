/** The releases feature's HTTP slice, by endpoint group (for the Lambda entries in `functions/`). */
import { downloadRoutes } from './downloads';
import { linkRoutes } from './links';
import { releaseRoutes } from './releases';

export const routes = {
  repository: { ...releaseRoutes, ...linkRoutes, ...downloadRoutes },
};
