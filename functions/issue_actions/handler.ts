import { routes as feature } from '../../shared/issues/routes';
import { apiHandler } from '../api';

export const routes = feature.issue_actions;
export const handler = apiHandler('issue_actions', routes);
