/** The project hooks endpoint group (`/projects/:id/hooks`). */
import { createGroupHandler } from '../../shared/http/group-handler';
import { hookRoutes } from './hooks';

export const handler = createGroupHandler('hooks', hookRoutes);
