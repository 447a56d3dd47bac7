import { routes as feature } from '../../shared/meta/routes';
import { apiHandler } from '../api';

export const routes = feature.meta;
export const handler = apiHandler('meta', routes);
