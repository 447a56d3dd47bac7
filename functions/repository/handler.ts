/**
 * The repository API, and the releases API (a release reads and creates tags). Answered through Lambda response streaming (the catalog's
 * `streamsResponses('repository')`): archives and raw files exceed Lambda's 6 MB response payload.
 */
import { streamingHandler } from '../../shared/platform/streaming';
import { routes as releases } from '../../shared/releases/routes';
import { commitStatusListRoutes } from '../../shared/ci/routes/commit-status-list';
import { commitMergeRequestRoutes } from '../../shared/merge-requests/routes/commits';
import { routes as feature } from '../../shared/repository/routes';
import { apiHandler } from '../api';

// A commit's merge requests and statuses: the merge-requests and CI features' routes in this group, each imported from its own module.
export const routes = { ...feature.repository, ...releases.repository, ...commitMergeRequestRoutes, ...commitStatusListRoutes };
export const handler = streamingHandler(apiHandler('repository', routes));
