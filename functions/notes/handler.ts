import { routes } from '../../shared/issues/routes';
import { apiHandler } from '../api';

export const handler = apiHandler('notes', routes.notes);
