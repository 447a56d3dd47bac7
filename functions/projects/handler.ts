import { routes as badges } from '../../shared/badges/routes';
import { commitStatusRoutes } from '../../shared/ci/routes/commit-statuses';
import { routes as deployTokens } from '../../shared/deploy-tokens/routes';
import { projectIssueStatisticsRoutes } from '../../shared/issues/routes/statistics';
import { routes as feature } from '../../shared/projects/routes';
import { apiHandler } from '../api';

// A project's issue counts, commit status reports, badges and deploy tokens: the issues, CI, badges and deploy tokens features' routes in this group, each imported from its own module.
export const routes = { ...feature.projects, ...projectIssueStatisticsRoutes, ...commitStatusRoutes, ...badges.projects, ...deployTokens.projects };
export const handler = apiHandler('projects', routes);
