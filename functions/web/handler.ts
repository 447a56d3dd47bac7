/**
 * GitLab's web routes outside `/api/v4` (uploaded files). API Gateway sends this function every
 * GET that no other resource matches: those answer the gateway's own 404 (`{"error":"404 Not
 * Found"}`) before anything else runs, so an unknown route never turns into a 401 because of a
 * bad token.
 */
import type { APIGatewayProxyEvent, APIGatewayProxyResult, Context } from 'aws-lambda';
import { jsonResponse } from '../../shared/platform/http/serialize';
import { isUploadAddress, routes as feature } from '../../shared/projects/routes';
import { apiHandler } from '../api';

export const routes = feature.web;
const serve = apiHandler('web', routes);

export async function handler(event: APIGatewayProxyEvent, context: Context): Promise<APIGatewayProxyResult> {
  if (!isUploadAddress(event)) {
    const requestId = event.requestContext?.requestId || context.awsRequestId;
    const notFound = jsonResponse(404, { error: '404 Not Found' }, requestId ? { 'X-Request-Id': requestId } : {});
    return event.httpMethod === 'HEAD' ? { ...notFound, body: '' } : notFound;
  }
  return serve(event, context as Parameters<typeof serve>[1]);
}
