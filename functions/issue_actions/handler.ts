/** The issue actions group: subscriptions, todos and time tracking of project issues. */
import { createGroupHandler } from '../../shared/http/group-handler';
import { issueActionRoutes } from './routes';

export const handler = createGroupHandler('issue_actions', issueActionRoutes);
