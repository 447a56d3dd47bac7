import { routes as feature } from '../../shared/issues/routes';
import { apiHandler } from '../api';

export const routes = feature.todos;
export const handler = apiHandler('todos', routes);
