import { routes as feature } from '../../shared/issues/routes';
import { apiHandler } from '../api';

export const routes = feature.labels;
export const handler = apiHandler('labels', routes);
