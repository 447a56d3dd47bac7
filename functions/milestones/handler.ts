import { routes as feature } from '../../shared/issues/routes';
import { apiHandler } from '../api';

export const routes = feature.milestones;
export const handler = apiHandler('milestones', routes);
