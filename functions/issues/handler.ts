import { routes as feature } from '../../shared/issues/routes';
import { closedByRoutes } from '../../shared/merge-requests/routes/closed-by';
import { relatedRoutes } from '../../shared/merge-requests/routes/related';
import { apiHandler } from '../api';

// `closed_by` and `related_merge_requests` list merge requests: the merge-requests feature's routes in this group,
// imported from their own modules (the feature's `routes` object holds all its routes: importing it loads them all).
export const routes = { ...feature.issues, ...closedByRoutes, ...relatedRoutes };
export const handler = apiHandler('issues', routes);
