/**
 * Refuses requests carrying malformed strings, as GitLab's `HandleMalformedStrings` middleware
 * does: a NUL byte or invalid UTF-8 in the path, the credentials or any parameter (query, JSON
 * or form body; uploaded files are bytes and not checked) answers `400 Bad Request` before
 * authentication, parameters or storage see it. Nested parameters are checked three levels deep,
 * as GitLab's.
 */
import { MalformedRequestError } from '../http/errors';
import type { ApiMiddleware, ApiRequest, UploadedFile } from '../http/context';

const strictUtf8 = new TextDecoder('utf-8', { fatal: true });

/** Whether a decoded string is malformed: it holds a NUL. */
const hasNul = (value: string) => value.includes('\0');

function isValidUtf8(bytes: Buffer): boolean {
  try {
    strictUtf8.decode(bytes);
    return true;
  } catch {
    return false;
  }
}

/** A percent-encoded string whose escapes decode to valid UTF-8 without NUL (`+` is a space in forms). */
function isWellEncoded(encoded: string): boolean {
  try {
    return !hasNul(decodeURIComponent(encoded.replace(/\+/g, ' ')));
  } catch {
    return false;
  }
}

function isFile(value: unknown): value is UploadedFile {
  return typeof value === 'object' && value !== null && Buffer.isBuffer((value as UploadedFile).data);
}

function paramMalformed(value: unknown, depth = 0): boolean {
  if (depth > 2) return false;
  if (typeof value === 'string') return hasNul(value);
  if (Array.isArray(value)) return value.some((item) => paramMalformed(item, depth + 1));
  if (typeof value === 'object' && value !== null && !isFile(value)) return Object.values(value).some((item) => paramMalformed(item, depth + 1));
  return false;
}

/** The raw text body must be UTF-8; a form's escapes too. */
function bodyMalformed(request: ApiRequest): boolean {
  const { body, isBase64Encoded, headers } = request.event;
  if (typeof body !== 'string' || body === '') return false;
  const contentType = headers['content-type'] ?? '';
  const isForm = contentType.startsWith('application/x-www-form-urlencoded');
  if (!isForm && !contentType.includes('json')) return false;
  const raw = Buffer.from(body, isBase64Encoded ? 'base64' : 'utf8');
  if (!isValidUtf8(raw)) return true;
  return isForm && raw.toString('utf8').split('&').some((pair) => pair.split('=').some((part) => !isWellEncoded(part)));
}

function credentialsMalformed(request: ApiRequest): boolean {
  const { authorization, 'private-token': privateToken } = request.event.headers;
  const basic = /^Basic\s+(.+)$/i.exec(authorization ?? '')?.[1];
  const credentials = basic ? Buffer.from(basic, 'base64') : Buffer.from(authorization ?? privateToken ?? '', 'utf8');
  return !isValidUtf8(credentials) || hasNul(credentials.toString('utf8'));
}

/** The raw request: path, credentials and text body, before routing and parsing read them. */
export function rejectMalformedRequest(): ApiMiddleware {
  const rejectMalformedRequestBefore = (request: ApiRequest) => {
    const pathMalformed = !isWellEncoded((request.event.path ?? '').replace(/\+/g, '%2B'));
    if (pathMalformed || credentialsMalformed(request) || bodyMalformed(request)) throw new MalformedRequestError();
  };
  return { before: rejectMalformedRequestBefore };
}

/** The parameters, once collected: a NUL in any string, three levels deep (each top-level value is level 0). */
export function rejectMalformedParams(): ApiMiddleware {
  const rejectMalformedParamsBefore = (request: ApiRequest) => {
    if (Object.values(request.context.rawParams).some((value) => paramMalformed(value))) throw new MalformedRequestError();
  };
  return { before: rejectMalformedParamsBefore };
}
