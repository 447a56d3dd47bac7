import { routes } from '../../shared/groups/routes';
import { apiHandler } from '../api';

export const handler = apiHandler('groups', routes.groups);
