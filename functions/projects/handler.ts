/** The Projects endpoint group: projects and the actions on them. */
import { createGroupHandler } from '../../shared/http/group-handler';
import { projectActionRoutes } from './actions';
import { projectRoutes } from './projects';

export const handler = createGroupHandler('projects', { ...projectRoutes, ...projectActionRoutes });
