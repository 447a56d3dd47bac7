import { routes } from '../../shared/issues/routes';
import { apiHandler } from '../api';

export const handler = apiHandler('issues', routes.issues);
