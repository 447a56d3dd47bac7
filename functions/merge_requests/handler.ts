import { routes as feature } from '../../shared/merge-requests/routes';
import { apiHandler } from '../api';

export const routes = feature.merge_requests;
export const handler = apiHandler('merge_requests', routes);
