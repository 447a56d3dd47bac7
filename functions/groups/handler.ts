import { groupIssueStatisticsRoutes } from '../../shared/issues/routes/statistics';
import { routes as feature } from '../../shared/groups/routes';
import { apiHandler } from '../api';

// A group's issue counts: the issues feature's route in this group, imported from its own module.
export const routes = { ...feature.groups, ...groupIssueStatisticsRoutes };
export const handler = apiHandler('groups', routes);
