/** The project uploads endpoint group (`POST /projects/:id/uploads`). */
import { createGroupHandler } from '../../shared/platform/group-handler';
import { uploadRoutes } from '../../shared/projects/routes/uploads';

export const handler = createGroupHandler('uploads', uploadRoutes);
