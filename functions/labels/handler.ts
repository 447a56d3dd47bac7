/** The project labels endpoint group (`/projects/:id/labels`). */
import { createGroupHandler } from '../../shared/platform/group-handler';
import { labelRoutes } from '../../shared/issues/routes/labels';

export const handler = createGroupHandler('labels', labelRoutes);
