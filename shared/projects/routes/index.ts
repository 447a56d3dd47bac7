/** The projects feature's HTTP slice, by endpoint group (for the Lambda entries in `functions/`). */
import { projectActionRoutes } from './actions';
import { projectRoutes } from './projects';
import { uploadRoutes } from './uploads';
import { webRoutes } from './web';

export { isUploadAddress } from './web';

export const routes = {
  projects: { ...projectRoutes, ...projectActionRoutes },
  uploads: uploadRoutes,
  web: webRoutes,
};
