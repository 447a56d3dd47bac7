/**
 * Pipelines and the Jobs API. Answered through Lambda response streaming (the catalog's
 * `streamsResponses('ci_jobs')`): traces and artifacts exceed Lambda's 6 MB response payload.
 */
import { routes as feature } from '../../shared/ci/routes';
import { streamingHandler } from '../../shared/platform/streaming';
import { apiHandler } from '../api';

export const routes = feature.ci_jobs;
export const handler = streamingHandler(apiHandler('ci_jobs', routes));
