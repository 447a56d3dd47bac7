import { routes as feature } from '../../shared/members/routes';
import { apiHandler } from '../api';

export const routes = feature.members;
export const handler = apiHandler('members', routes);
