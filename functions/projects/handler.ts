import { commitStatusRoutes } from '../../shared/ci/routes/commit-statuses';
import { routes as deployTokens } from '../../shared/deploy-tokens/routes';
import { projectIssueStatisticsRoutes } from '../../shared/issues/routes/statistics';
import { routes as feature } from '../../shared/projects/routes';
import { apiHandler } from '../api';

// A project's issue counts and commit status reports: the issues and CI features' routes in this group, each imported from its own module;
// and its deploy tokens.
export const routes = { ...feature.projects, ...projectIssueStatisticsRoutes, ...commitStatusRoutes, ...deployTokens.projects };
export const handler = apiHandler('projects', routes);
