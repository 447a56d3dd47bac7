/** The project uploads endpoint group (`POST /projects/:id/uploads`). */
import { createGroupHandler } from '../../shared/http/group-handler';
import { uploadRoutes } from './uploads';

export const handler = createGroupHandler('uploads', uploadRoutes);
