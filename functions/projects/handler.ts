/** The Projects endpoint group: projects and the actions on them. */
import { createGroupHandler } from '../../shared/platform/group-handler';
import { projectActionRoutes } from '../../shared/projects/routes/actions';
import { projectRoutes } from '../../shared/projects/routes/projects';

export const handler = createGroupHandler('projects', { ...projectRoutes, ...projectActionRoutes });
