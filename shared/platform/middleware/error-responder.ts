import { ApiError, MalformedRequestError } from '../http/errors';
import type { ApiMiddleware, ApiRequest } from '../http/context';
import { jsonResponse } from '../http/serialize';

/**
 * Turns thrown errors into GitLab-shaped responses. {@link ApiError}s carry their own status and
 * body; middy's own HTTP errors (e.g. malformed JSON) become a 400; anything else is a 500 whose
 * body names the request id and whose details go only to the log. Never overwrites a response
 * another middleware already set.
 */
export function errorResponder(): ApiMiddleware {
  const errorResponderOnError = (request: ApiRequest) => {
    if (request.response !== undefined) return;
    const error = request.error;
    if (error instanceof MalformedRequestError) {
      request.response = { statusCode: 400, headers: { 'Content-Type': 'text/plain' }, body: 'Bad Request', isBase64Encoded: false };
      return;
    }
    if (error instanceof ApiError) {
      request.response = jsonResponse(error.statusCode, error.body);
      return;
    }
    const status = (error as { statusCode?: number } | null)?.statusCode;
    if (typeof status === 'number' && status >= 400 && status < 500) {
      // middy's body parsers: 415/422 for content they cannot read.
      request.response = jsonResponse(400, { error: (error as Error).message });
      return;
    }
    request.context.log?.error('unhandled error', { error });
    request.response = jsonResponse(500, {
      message: '500 Internal Server Error',
      request_id: request.context.requestId,
    });
  };
  return { onError: errorResponderOnError };
}
