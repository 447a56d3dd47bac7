/** The notes endpoint group (`/projects/:id/issues/:issue_iid/notes`). */
import { createGroupHandler } from '../../shared/http/group-handler';
import { noteRoutes } from './notes';

export const handler = createGroupHandler('notes', noteRoutes);
