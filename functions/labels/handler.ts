/** The project labels endpoint group (`/projects/:id/labels`). */
import { createGroupHandler } from '../../shared/http/group-handler';
import { labelRoutes } from './labels';

export const handler = createGroupHandler('labels', labelRoutes);
