/** The boards feature's HTTP slice, by endpoint group (for the Lambda entries in `functions/`). */
import { groupBoardRoutes, projectBoardRoutes } from './boards';

export const routes = {
  projects: projectBoardRoutes,
  groups: groupBoardRoutes,
};
