import { routes as feature } from '../../shared/issues/routes';
import { apiHandler } from '../api';

export const routes = feature.notes;
export const handler = apiHandler('notes', routes);
