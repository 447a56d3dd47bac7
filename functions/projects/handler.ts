import { projectIssueStatisticsRoutes } from '../../shared/issues/routes/statistics';
import { routes as feature } from '../../shared/projects/routes';
import { apiHandler } from '../api';

// A project's issue counts: the issues feature's route in this group, imported from its own module.
export const routes = { ...feature.projects, ...projectIssueStatisticsRoutes };
export const handler = apiHandler('projects', routes);
