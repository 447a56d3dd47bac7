/** The projects feature's HTTP slice, by endpoint group (for the Lambda entries in `functions/`). */
import { forkRoutes } from './forks';
import { projectRoutes } from './projects';
import { shareRoutes } from './shares';
import { starRoutes } from './stars';
import { uploadRoutes } from './uploads';
import { userEventRoutes } from './user-events';
import { userProjectRoutes } from './user-projects';
import { webRoutes } from './web';

export { isUploadAddress } from './web';

export const routes = {
  users: { ...userEventRoutes, ...userProjectRoutes },
  projects: { ...projectRoutes, ...starRoutes, ...forkRoutes, ...shareRoutes },
  uploads: uploadRoutes,
  web: webRoutes,
};
