/** The project milestones endpoint group (`/projects/:id/milestones`). */
import { createGroupHandler } from '../../shared/platform/group-handler';
import { milestoneRoutes } from '../../shared/issues/routes/milestones';

export const handler = createGroupHandler('milestones', milestoneRoutes);
