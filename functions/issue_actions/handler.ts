import { routes } from '../../shared/issues/routes';
import { apiHandler } from '../api';

export const handler = apiHandler('issue_actions', routes.issue_actions);
