/** The issues endpoint group (`/projects/:id/issues`, `/issues`). */
import { createGroupHandler } from '../../shared/http/group-handler';
import { issueRoutes } from './issues';

export const handler = createGroupHandler('issues', issueRoutes);
