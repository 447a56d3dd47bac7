/**
 * GitLab's web routes outside `/api/v4`; today one: uploaded files,
 * `GET /:namespace/:project/uploads/:secret/:filename` (the namespace may be nested).
 *
 * The catalog declares it as the greedy root resource `/{path+}`, so API Gateway also sends here
 * every GET no other resource matches. Those answer the gateway's own 404
 * (`{"error":"404 Not Found"}`) before anything else runs, so an unknown route never turns into a
 * 401 because of a bad token.
 */
import type { APIGatewayProxyEvent, APIGatewayProxyResult } from 'aws-lambda';
import { z } from 'zod';
import type { User } from '../../shared/users/store/users';
import { findProjectOrNotFound } from '../../shared/auth/finders';
import type { ApiContext } from '../../shared/platform/http/context';
import { contentDispositionFor, findUpload, parseUploadPath, readUpload } from '../../shared/projects/uploads';
import { NotFoundError, RouteNotFoundError } from '../../shared/platform/http/errors';
import { createGroupHandler } from '../../shared/platform/group-handler';
import { p, required } from '../../shared/platform/http/params';
import { route, type GroupRoutes } from '../../shared/platform/http/route';
import { jsonResponse } from '../../shared/platform/http/serialize';

/** Internal: the project (404 `{"message":"404 Not Found"}` when the caller cannot read it, as GitLab's web 404). */
async function findReadableProject(projectPath: string, user: User | null) {
  try {
    return (await findProjectOrNotFound(projectPath, user)).project;
  } catch (error) {
    if (error instanceof NotFoundError) throw new NotFoundError();
    throw error;
  }
}

const webRoutes = {
  'GET /:path+': route({
    anonymous: true,
    params: z.object({ path: required(p.string()) }),
    handler: async ({ params, user }) => {
      const address = parseUploadPath(params.path);
      if (!address) throw new RouteNotFoundError();
      const project = await findReadableProject(address.projectPath, user);
      const upload = await findUpload(project.id, address.secret, address.filename);
      const data = upload && (await readUpload(upload));
      if (!upload || !data) throw new NotFoundError();
      return {
        statusCode: 200,
        binary: { data, contentType: upload.contentType },
        headers: { 'Content-Disposition': contentDispositionFor(upload.filename), 'X-Content-Type-Options': 'nosniff' },
      };
    },
  }),
} satisfies GroupRoutes<'web'>;

const serve = createGroupHandler('web', webRoutes);

/** Internal: the decoded greedy path, if it is a well-formed upload address. */
function isUploadAddress(event: APIGatewayProxyEvent): boolean {
  const raw = event.pathParameters?.path;
  if (!raw) return false;
  try {
    return parseUploadPath(decodeURIComponent(raw)) !== undefined;
  } catch {
    return false;
  }
}

/** The web group's Lambda handler: the 404 of unknown routes, else the middleware stack and the route. */
export async function handler(event: APIGatewayProxyEvent, context: ApiContext): Promise<APIGatewayProxyResult> {
  if (!isUploadAddress(event)) {
    const requestId = event.requestContext?.requestId || context.awsRequestId;
    return jsonResponse(404, { error: '404 Not Found' }, requestId ? { 'X-Request-Id': requestId } : {});
  }
  return serve(event, context);
}
