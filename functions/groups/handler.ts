import { routes as badges } from '../../shared/badges/routes';
import { routes as boards } from '../../shared/boards/routes';
import { groupRunnerRoutes } from '../../shared/ci/routes/group-runners';
import { routes as deployTokens } from '../../shared/deploy-tokens/routes';
import { routes as packages } from '../../shared/packages/routes';
import { groupIssueStatisticsRoutes } from '../../shared/issues/routes/statistics';
import { routes as feature } from '../../shared/groups/routes';
import { groupAccessRequestRoutes } from '../../shared/members/routes/access-requests';
import { groupAccessTokenRoutes } from '../../shared/members/routes/access-tokens';
import { groupSearchRoutes } from '../../shared/search/routes/group';
import { routes as notificationSettings } from '../../shared/notification-settings/routes';
import { apiHandler } from '../api';

// A group's issue counts, badges, deploy tokens, access tokens, access requests, runners, packages, search, issue boards and the caller's notification settings: the issues, badges, deploy tokens, members, CI, packages, search, boards and notification settings features' routes in this group, each imported from its own module.
export const routes = { ...feature.groups, ...groupIssueStatisticsRoutes, ...badges.groups, ...deployTokens.groups, ...groupAccessTokenRoutes, ...groupAccessRequestRoutes, ...groupRunnerRoutes, ...packages.groups, ...groupSearchRoutes, ...boards.groups, ...notificationSettings.groups };
export const handler = apiHandler('groups', routes);
