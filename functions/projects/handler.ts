import { routes as badges } from '../../shared/badges/routes';
import { commitStatusRoutes } from '../../shared/ci/routes/commit-statuses';
import { routes as deployTokens } from '../../shared/deploy-tokens/routes';
import { projectIssueStatisticsRoutes } from '../../shared/issues/routes/statistics';
import { routes as feature } from '../../shared/projects/routes';
import { routes as snippets } from '../../shared/snippets/routes';
import { apiHandler } from '../api';

// A project's issue counts, commit status reports, badges, deploy tokens and snippets: the issues, CI, badges, deploy tokens and snippets features' routes in this group, each imported from its own module.
export const routes = { ...feature.projects, ...projectIssueStatisticsRoutes, ...commitStatusRoutes, ...badges.projects, ...deployTokens.projects, ...snippets.projects };
export const handler = apiHandler('projects', routes);
