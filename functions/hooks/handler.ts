/** The project hooks endpoint group (`/projects/:id/hooks`). */
import { createGroupHandler } from '../../shared/platform/group-handler';
import { hookRoutes } from '../../shared/hooks/routes/hooks';

export const handler = createGroupHandler('hooks', hookRoutes);
