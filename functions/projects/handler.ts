import { routes as feature } from '../../shared/projects/routes';
import { apiHandler } from '../api';

export const routes = feature.projects;
export const handler = apiHandler('projects', routes);
