import { routes as badges } from '../../shared/badges/routes';
import { commitStatusRoutes } from '../../shared/ci/routes/commit-statuses';
import { projectIssueStatisticsRoutes } from '../../shared/issues/routes/statistics';
import { routes as feature } from '../../shared/projects/routes';
import { apiHandler } from '../api';

// A project's issue counts, commit status reports and badges: the issues, CI and badges features' routes in this group, each imported from its own module.
export const routes = { ...feature.projects, ...projectIssueStatisticsRoutes, ...commitStatusRoutes, ...badges.projects };
export const handler = apiHandler('projects', routes);
