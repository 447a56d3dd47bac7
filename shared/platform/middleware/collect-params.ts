import httpJsonBodyParser from '@middy/http-json-body-parser';
import type { ApiMiddleware, ApiRequest, UploadedFile } from '../http/context';
import { ParamError, PayloadTooLargeError } from '../http/errors';

/** Largest accepted request body (API Gateway's own hard limit is 10 MB). */
const maxBodyBytes = () => Number(process.env.MAX_BODY_BYTES ?? 10 * 1024 * 1024);

/**
 * JSON bodies, parsed by middy's parser; skipped for empty bodies (clients send
 * `Content-Type: application/json` on bodiless POSTs) and for other content types.
 */
export function jsonBody(): ApiMiddleware {
  const parser = httpJsonBodyParser({ disableContentTypeError: true });
  const jsonBodyBefore = async (request: ApiRequest) => {
    const { body } = request.event;
    if (body === null || body === undefined || body === '') return;
    await parser.before?.(request as never);
  };
  return { before: jsonBodyBefore };
}

type Params = Record<string, unknown>;

/** Adds one `name=value` pair: `name[]` collects into an array, a repeated plain name keeps the last. */
function addParam(target: Params, name: string, value: unknown): void {
  if (name.endsWith('[]')) {
    const key = name.slice(0, -2);
    const current = target[key];
    target[key] = Array.isArray(current) ? [...current, value] : [value];
  } else {
    target[name] = value;
  }
}

function fromPairs(pairs: Iterable<[string, unknown]>): Params {
  const params: Params = {};
  for (const [name, value] of pairs) addParam(params, name, value);
  return params;
}

function queryParams(request: ApiRequest): Params {
  const multi = request.event.multiValueQueryStringParameters ?? {};
  const pairs: Array<[string, string]> = [];
  for (const [name, values] of Object.entries(multi)) for (const v of values ?? []) pairs.push([name, v]);
  if (pairs.length === 0) {
    for (const [name, v] of Object.entries(request.event.queryStringParameters ?? {})) if (v !== undefined) pairs.push([name, v]);
  }
  return fromPairs(pairs);
}

async function bodyParams(request: ApiRequest): Promise<{ params: Params; files: Record<string, UploadedFile> }> {
  const { body, isBase64Encoded, headers } = request.event;
  if (body !== null && body !== undefined && typeof body !== 'string') {
    // Already parsed JSON: only an object carries parameters.
    if (typeof body !== 'object' || Array.isArray(body)) throw new ParamError('body is invalid');
    return { params: body as Params, files: {} };
  }
  if (!body) return { params: {}, files: {} };
  const raw = Buffer.from(body, isBase64Encoded ? 'base64' : 'utf8');
  if (raw.length > maxBodyBytes()) throw new PayloadTooLargeError();
  const contentType = headers['content-type'] ?? '';
  if (contentType.startsWith('application/x-www-form-urlencoded')) {
    return { params: fromPairs(new URLSearchParams(raw.toString('utf8'))), files: {} };
  }
  if (contentType.startsWith('multipart/form-data')) {
    let form: FormData;
    try {
      form = await new Response(raw, { headers: { 'content-type': contentType } }).formData();
    } catch {
      throw new ParamError('body is invalid');
    }
    const params: Params = {};
    const files: Record<string, UploadedFile> = {};
    for (const [name, value] of form.entries()) {
      if (typeof value === 'string') {
        addParam(params, name, value);
      } else {
        const file: UploadedFile = {
          filename: value.name,
          contentType: value.type || 'application/octet-stream',
          data: Buffer.from(await value.arrayBuffer()),
        };
        files[name] = file;
        params[name] = file;
      }
    }
    return { params, files };
  }
  return { params: {}, files: {} };
}

/**
 * Gathers every parameter of the request into one object, as Grape does: query string, then
 * body (JSON, URL-encoded form or multipart form), then path parameters, later sources winning.
 * Validation against the route's schema happens in the dispatcher.
 */
export function collectParams(): ApiMiddleware {
  const collectParamsBefore = async (request: ApiRequest) => {
    const body = await bodyParams(request);
    request.context.files = body.files;
    request.context.rawParams = { ...queryParams(request), ...body.params, ...request.context.pathParams };
  };
  return { before: collectParamsBefore };
}
