/**
 * Content too large to answer: the repository group's answers are streamed (no 6 MB payload
 * limit), but Lambda caps a streamed response at 20 MB, and the `content` fields of JSON answers
 * carry the bytes base64-encoded (a third larger). GitLab has no such limit; a file above it
 * answers 413 instead of a cut response.
 */
import { PayloadTooLargeError } from '../../platform/http/errors';

/** The largest content an answer carries. */
export const MAX_CONTENT_BYTES = 15 * 1024 * 1024;

export function guardResponseSize(bytes: number): void {
  if (bytes > MAX_CONTENT_BYTES) throw new PayloadTooLargeError();
}
