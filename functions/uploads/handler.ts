import { routes as feature } from '../../shared/projects/routes';
import { apiHandler } from '../api';

export const routes = feature.uploads;
export const handler = apiHandler('uploads', routes);
