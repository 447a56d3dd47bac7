import { routes as badges } from '../../shared/badges/routes';
import { routes as boards } from '../../shared/boards/routes';
import { commitStatusRoutes } from '../../shared/ci/routes/commit-statuses';
import { lintRoutes } from '../../shared/ci/routes/lint';
import { routes as deployKeys } from '../../shared/deploy-keys/routes';
import { routes as deployTokens } from '../../shared/deploy-tokens/routes';
import { projectIssueStatisticsRoutes } from '../../shared/issues/routes/statistics';
import { projectAccessRequestRoutes } from '../../shared/members/routes/access-requests';
import { routes as packages } from '../../shared/packages/routes';
import { routes as feature } from '../../shared/projects/routes';
import { projectSearchRoutes } from '../../shared/search/routes/project';
import { routes as snippets } from '../../shared/snippets/routes';
import { routes as terraformStates } from '../../shared/terraform-states/routes';
import { routes as wikis } from '../../shared/wikis/routes';
import { routes as notificationSettings } from '../../shared/notification-settings/routes';
import { apiHandler } from '../api';

// A project's issue counts, commit status reports, CI lint, badges, deploy tokens and keys, access requests, wiki pages, snippets, Terraform states, packages, search, issue boards and the caller's notification settings: the issues, CI, badges, deploy tokens, deploy keys, members, wikis, snippets, Terraform states, packages, search, boards and notification settings features' routes in this group, each imported from its own module.
export const routes = { ...feature.projects, ...projectIssueStatisticsRoutes, ...commitStatusRoutes, ...lintRoutes, ...badges.projects, ...deployTokens.projects, ...deployKeys.projects, ...projectAccessRequestRoutes, ...wikis.projects, ...snippets.projects, ...terraformStates.projects, ...packages.projects, ...projectSearchRoutes, ...boards.projects, ...notificationSettings.projects };
export const handler = apiHandler('projects', routes);
