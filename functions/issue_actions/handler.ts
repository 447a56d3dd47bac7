/** The issue actions group: subscriptions, todos and time tracking of project issues. */
import { createGroupHandler } from '../../shared/platform/group-handler';
import { issueActionRoutes } from '../../shared/issues/routes/issue-actions';

export const handler = createGroupHandler('issue_actions', issueActionRoutes);
