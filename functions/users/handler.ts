import { routes as members } from '../../shared/members/routes';
import { routes as projects } from '../../shared/projects/routes';
import { routes as users } from '../../shared/users/routes';
import { apiHandler } from '../api';

export const routes = { ...users.users, ...projects.users, ...members.users };
export const handler = apiHandler('users', routes);
