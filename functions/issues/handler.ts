import { routes as feature } from '../../shared/issues/routes';
import { routes as mergeRequests } from '../../shared/merge-requests/routes';
import { apiHandler } from '../api';

// `closed_by` lists merge requests: the merge-requests feature's route in this group.
export const routes = { ...feature.issues, ...mergeRequests.issues };
export const handler = apiHandler('issues', routes);
