/**
 * Pipelines and the Jobs API. Answered through Lambda response streaming (the catalog's
 * `streamsResponses('ci_jobs')`): traces and artifacts exceed Lambda's 6 MB response payload.
 */
import { routes as feature } from '../../shared/ci/routes';
import { deploymentMergeRequestRoutes } from '../../shared/merge-requests/routes/deployments';
import { streamingHandler } from '../../shared/platform/streaming';
import { apiHandler } from '../api';

// A deployment's merge requests: the merge-requests feature's route in this group, imported from its own module.
export const routes = { ...feature.ci_jobs, ...deploymentMergeRequestRoutes };
export const handler = streamingHandler(apiHandler('ci_jobs', routes));
