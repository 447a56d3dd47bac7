import { routes } from '../../shared/members/routes';
import { apiHandler } from '../api';

export const handler = apiHandler('members', routes.members);
