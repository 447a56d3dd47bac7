import { routes as feature } from '../../shared/issues/routes';
import { routes as mergeRequests } from '../../shared/merge-requests/routes';
import { relatedRoutes } from '../../shared/merge-requests/routes/related';
import { apiHandler } from '../api';

// `closed_by` and `related_merge_requests` list merge requests: the merge-requests feature's routes in this group.
export const routes = { ...feature.issues, ...mergeRequests.issues, ...relatedRoutes };
export const handler = apiHandler('issues', routes);
