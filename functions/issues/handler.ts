/** The issues endpoint group (`/projects/:id/issues`, `/issues`). */
import { createGroupHandler } from '../../shared/platform/group-handler';
import { issueRoutes } from '../../shared/issues/routes/issues';

export const handler = createGroupHandler('issues', issueRoutes);
