import { routes as badges } from '../../shared/badges/routes';
import { groupIssueStatisticsRoutes } from '../../shared/issues/routes/statistics';
import { routes as feature } from '../../shared/groups/routes';
import { apiHandler } from '../api';

// A group's issue counts and badges: the issues and badges features' routes in this group, each imported from its own module.
export const routes = { ...feature.groups, ...groupIssueStatisticsRoutes, ...badges.groups };
export const handler = apiHandler('groups', routes);
