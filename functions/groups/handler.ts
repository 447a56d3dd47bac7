import { routes as deployTokens } from '../../shared/deploy-tokens/routes';
import { groupIssueStatisticsRoutes } from '../../shared/issues/routes/statistics';
import { routes as feature } from '../../shared/groups/routes';
import { apiHandler } from '../api';

// A group's issue counts: the issues feature's route in this group, imported from its own module; and its deploy tokens.
export const routes = { ...feature.groups, ...groupIssueStatisticsRoutes, ...deployTokens.groups };
export const handler = apiHandler('groups', routes);
