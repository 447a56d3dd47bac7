import { routes } from '../../shared/meta/routes';
import { apiHandler } from '../api';

export const handler = apiHandler('meta', routes.meta);
