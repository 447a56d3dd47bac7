/**
 * The runner API (gitlab-runner's calls). GitLab reads the job token from the `JOB-TOKEN` header,
 * a trace's `Content-Range` from its header and the chunk from the raw body: `runnerRequest`
 * passes them on as parameters before the group's routes run. Answered through Lambda response
 * streaming (the catalog's `streamsResponses('ci_runners')`): dependencies' artifacts exceed 6 MB.
 */
import type { APIGatewayProxyEvent, Context } from 'aws-lambda';
import { routes as feature, runnerRequest } from '../../shared/ci/routes';
import { streamingHandler } from '../../shared/platform/streaming';
import { apiHandler } from '../api';

export const routes = feature.ci_runners;
const serve = apiHandler('ci_runners', routes);

export const handler = streamingHandler((event: APIGatewayProxyEvent, context: Context) => serve(runnerRequest(event), context as Parameters<typeof serve>[1]));
