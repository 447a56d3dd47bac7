import { routes } from '../../shared/projects/routes';
import { apiHandler } from '../api';

export const handler = apiHandler('uploads', routes.uploads);
