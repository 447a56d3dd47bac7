import { routes as feature } from '../../shared/groups/routes';
import { apiHandler } from '../api';

export const routes = feature.groups;
export const handler = apiHandler('groups', routes);
