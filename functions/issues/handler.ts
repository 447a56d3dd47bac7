import { routes as feature } from '../../shared/issues/routes';
import { apiHandler } from '../api';

export const routes = feature.issues;
export const handler = apiHandler('issues', routes);
