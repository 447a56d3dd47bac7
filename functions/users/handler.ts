import { routes } from '../../shared/users/routes';
import { apiHandler } from '../api';

export const handler = apiHandler('users', routes.users);
