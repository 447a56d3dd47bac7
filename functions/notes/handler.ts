/** The notes endpoint group (`/projects/:id/issues/:issue_iid/notes`). */
import { createGroupHandler } from '../../shared/platform/group-handler';
import { noteRoutes } from '../../shared/issues/routes/notes';

export const handler = createGroupHandler('notes', noteRoutes);
