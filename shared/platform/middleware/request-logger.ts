import { randomUUID } from 'node:crypto';
import { loggerForInvocation } from '../logger';
import type { ApiMiddleware, ApiRequest } from '../http/context';
import { requestTelemetry } from './request-telemetry';

/**
 * Gives every request an id (API Gateway's, else Lambda's, else a fresh one) and a logger bound
 * to it and to the Lambda invocation (function name, cold start), echoes the id in
 * `X-Request-Id`, and writes one structured access-log line per request. The line names the
 * route (`GET /projects/:id`), never the path or query, which may carry `private_token`.
 *
 * It also opens and closes the request's metrics and trace subsegment ({@link requestTelemetry}):
 * this is the outermost middleware, the one that sees every request begin and end.
 */
export function requestLogger(): ApiMiddleware {
  const telemetry = requestTelemetry();
  const requestLoggerBefore = (request: ApiRequest) => {
    const requestId =
      request.event.requestContext?.requestId || request.context.awsRequestId || randomUUID();
    request.context.requestId = requestId;
    request.context.startedAt = Date.now();
    request.context.log = loggerForInvocation(request.context, { requestId });
    telemetry.before(request);
  };
  const requestLoggerAfter = (request: ApiRequest) => {
    telemetry.after(request);
    if (!request.response) return;
    request.response.headers = { ...request.response.headers, 'X-Request-Id': request.context.requestId };
    request.context.log.info('request', {
      method: request.event.httpMethod,
      route: request.context.route?.spec.key,
      status: request.response.statusCode,
      userId: request.context.auth?.user.id,
      durationMs: Date.now() - request.context.startedAt,
    });
  };
  return { before: requestLoggerBefore, after: requestLoggerAfter, onError: requestLoggerAfter };
}
