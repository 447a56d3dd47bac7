/**
 * GitLab's web routes outside `/api/v4`: uploaded files and git's smart HTTP transport (clone,
 * fetch, push), answered through Lambda response streaming. API Gateway sends this function every GET and POST that no other resource
 * matches: git addresses are served by the repository feature, upload addresses by the route
 * table, and everything else answers the gateway's own 404 (`{"error":"404 Not Found"}`) before
 * anything else runs, so an unknown route never turns into a 401 because of a bad token.
 */
import type { APIGatewayProxyEvent, APIGatewayProxyResult, Context } from 'aws-lambda';
import { jsonResponse } from '../../shared/platform/http/serialize';
import { streamingHandler, withoutBody } from '../../shared/platform/streaming';
import { isUploadAddress, routes as projects } from '../../shared/projects/routes';
import { isGitAddress, routes as repository, smartHttpHandler } from '../../shared/repository/routes';
import { apiHandler } from '../api';

export const routes = { ...projects.web, ...repository.web };
const serve = apiHandler('web', routes);

async function serveWeb(event: APIGatewayProxyEvent, context: Context): Promise<APIGatewayProxyResult> {
  if (isGitAddress(event)) {
    const result = await smartHttpHandler(event, context as Parameters<typeof smartHttpHandler>[1]);
    return event.httpMethod === 'HEAD' ? withoutBody(result) : result;
  }
  const isUpload = (event.httpMethod === 'GET' || event.httpMethod === 'HEAD') && isUploadAddress(event);
  if (!isUpload) {
    const requestId = event.requestContext?.requestId || context.awsRequestId;
    const notFound = jsonResponse(404, { error: '404 Not Found' }, requestId ? { 'X-Request-Id': requestId } : {});
    return event.httpMethod === 'HEAD' ? { ...notFound, body: '' } : notFound;
  }
  return serve(event, context as Parameters<typeof serve>[1]);
}

/**
 * Answered through Lambda response streaming (the catalog's `streamsResponses('web')`): clones of
 * large repositories exceed Lambda's 6 MB response payload and API Gateway's 29 s.
 */
export const handler = streamingHandler(serveWeb);
