import { routes as feature } from '../../shared/hooks/routes';
import { apiHandler } from '../api';

export const routes = feature.hooks;
export const handler = apiHandler('hooks', routes);
