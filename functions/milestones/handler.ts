/** The project milestones endpoint group (`/projects/:id/milestones`). */
import { createGroupHandler } from '../../shared/http/group-handler';
import { milestoneRoutes } from './milestones';

export const handler = createGroupHandler('milestones', milestoneRoutes);
