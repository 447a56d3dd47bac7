import { routes } from '../../shared/hooks/routes';
import { apiHandler } from '../api';

export const handler = apiHandler('hooks', routes.hooks);
