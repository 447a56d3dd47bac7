import { ApiError } from '../platform/http/errors';

/** GitLab's `render_api_error!({ error: message }, 400)` of the list routes: `{"message":{"error":"…"}}`. */
export class ListError extends ApiError {
  constructor(message: string) {
    super(400, { message: { error: message } });
  }
}
