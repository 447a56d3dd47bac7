/**
 * HTTP errors in GitLab's shapes. A route throws one of these and the error-handler middleware
 * turns it into the response; anything else becomes a 500 with a request id and is logged.
 */
export class ApiError extends Error {
  constructor(
    readonly statusCode: number,
    readonly body: unknown,
    options?: { cause?: unknown },
  ) {
    super(typeof body === 'object' && body !== null ? JSON.stringify(body) : String(body), options);
    this.name = new.target.name;
  }

  toJSON(): unknown {
    return this.body;
  }
}

/** 404 `{"message":"404 User Not Found"}`; without a resource `{"message":"404 Not Found"}`. */
export class NotFoundError extends ApiError {
  constructor(resource?: string) {
    super(404, { message: resource ? `404 ${resource} Not Found` : '404 Not Found' });
  }
}

/**
 * GitLab's answer when `find` raises `ActiveRecord::RecordNotFound` (an unknown or someone
 * else's todo, an unknown `group_id` or `author_id`): `404 {"message":"404 Not found"}`, worded
 * unlike the `not_found!` helper's `404 <Resource> Not Found`.
 */
export class RecordNotFoundError extends ApiError {
  constructor() {
    super(404, { message: '404 Not found' });
  }
}

/** Unknown route: 404 `{"error":"404 Not Found"}` (also what API Gateway answers, see infra/constructs/api.ts). */
export class RouteNotFoundError extends ApiError {
  constructor() {
    super(404, { error: '404 Not Found' });
  }
}

export class UnauthorizedError extends ApiError {
  constructor() {
    super(401, { message: '401 Unauthorized' });
  }
}

/** 403 `{"message":"403 Forbidden"}`, or `403 Forbidden - <reason>` like GitLab's `forbidden!(reason)`. */
export class ForbiddenError extends ApiError {
  constructor(reason?: string) {
    super(403, { message: reason ? `403 Forbidden - ${reason}` : '403 Forbidden' });
  }
}

/** The token lacks the scope the request needs (GitLab's OAuth-style body). */
export class InsufficientScopeError extends ApiError {
  constructor(scope: string) {
    super(403, {
      error: 'insufficient_scope',
      error_description: 'The request requires higher privileges than provided by the access token.',
      scope,
    });
  }
}

/** Parameter validation (Grape): 400 `{"error":"email is missing"}`. */
export class ParamError extends ApiError {
  constructor(message: string) {
    super(400, { error: message });
  }
}

/** Model validation: 400 `{"message":{"email":["has already been taken"]}}`. */
export class ValidationError extends ApiError {
  constructor(readonly fields: Record<string, string[]>) {
    super(400, { message: fields });
  }
}

/** 400 with a plain message, like GitLab's `render_api_error!(message, 400)`. */
export class BadRequestError extends ApiError {
  constructor(message: string) {
    super(400, { message });
  }
}

/** 409 `{"message":"Email has already been taken"}`. */
export class ConflictError extends ApiError {
  constructor(message: string) {
    super(409, { message });
  }
}

/** 304: nothing changed (already starred, already subscribed, ...). No body. */
export class NotModifiedError extends ApiError {
  constructor() {
    super(304, undefined);
  }
}

export class PayloadTooLargeError extends ApiError {
  constructor() {
    super(413, { message: '413 Request Entity Too Large' });
  }
}

/**
 * A request carrying a NUL byte or invalid UTF-8 (GitLab's `HandleMalformedStrings` middleware):
 * `400 Bad Request` as plain text, before anything else runs.
 */
export class MalformedRequestError extends ApiError {
  constructor() {
    super(400, 'Bad Request');
  }
}
