import httpJsonBodyParser from '@middy/http-json-body-parser';
import type busboy from 'busboy';
import { config } from '../config';
import type { ApiMiddleware, ApiRequest, UploadedFile } from '../http/context';
import { type ApiError, ParamError, PayloadTooLargeError } from '../http/errors';

/**
 * JSON bodies, parsed by middy's parser; skipped for empty bodies (clients send
 * `Content-Type: application/json` on bodiless POSTs) and for other content types.
 */
export function jsonBody(): ApiMiddleware {
  const parser = httpJsonBodyParser({ disableContentTypeError: true });
  const jsonBodyBefore = async (request: ApiRequest) => {
    const { body } = request.event;
    if (body === null || body === undefined || body === '' || request.context.route?.definition.rawBody) return;
    await parser.before?.(request);
  };
  return { before: jsonBodyBefore };
}

type Params = Record<string, unknown>;

/** Rack's `param_depth_limit`: how deep bracketed names may nest. */
const MAX_DEPTH = 32;

const isHash = (value: unknown): value is Params => value !== null && typeof value === 'object' && !Array.isArray(value) && !Buffer.isBuffer(value);

/**
 * Adds one `name=value` pair as Rack's `normalize_params` does, which GitLab's (Grape's)
 * parameters come from: `a[b][c]=v` nests hashes, `a[]=v` appends to an array, `a[][b]=v` fills
 * an array of hashes (a new hash whenever the last one has `b` already), and a repeated plain name
 * keeps the last value. A name used both as a value and as a hash or array (`a=1&a[b]=2`) is
 * Rack's `ParameterTypeError`: 400 `<name> is invalid`.
 */
function addParam(target: Params, name: string, value: unknown, depth = 0): Params | unknown[] {
  if (depth >= MAX_DEPTH) throw new ParamError('params are nested too deeply');
  let key: string;
  let after: string;
  const start = depth === 0 ? name.indexOf('[', 1) : -1;
  if (depth === 0) [key, after] = start < 0 ? [name, ''] : [name.slice(0, start), name.slice(start)];
  else if (name.startsWith('[]')) [key, after] = ['[]', name.slice(2)];
  else if (name.startsWith('[') && name.indexOf(']', 1) > 0) {
    const close = name.indexOf(']', 1);
    [key, after] = [name.slice(1, close), name.slice(close + 1)];
  } else [key, after] = [name, ''];
  // `__proto__` would reach the prototype of every object (no route has such a parameter): dropped.
  if (key === '' || key === '__proto__') return target;
  const current: unknown = Object.hasOwn(target, key) ? target[key] : undefined;
  const invalid = () => new ParamError(`${depth === 0 ? key : name} is invalid`);
  if (after === '') {
    if (key === '[]' && depth !== 0) return [value];
    target[key] = value;
  } else if (after === '[') {
    target[name] = value;
  } else if (after === '[]') {
    const list = current ?? (target[key] = []);
    if (!Array.isArray(list)) throw invalid();
    list.push(value);
  } else if (after.startsWith('[]')) {
    const simple = /^\[\]\[([^[\]]+)\]$/.exec(after);
    const childKey = simple ? simple[1] : after.slice(2);
    const list = current ?? (target[key] = []);
    if (!Array.isArray(list)) throw invalid();
    const last: unknown = list[list.length - 1];
    if (isHash(last) && !hasPath(last, childKey)) addParam(last, childKey, value, depth + 1);
    else list.push(addParam({}, childKey, value, depth + 1));
  } else {
    const hash = current ?? (target[key] = {});
    if (!isHash(hash)) throw invalid();
    addParam(hash, after, value, depth + 1);
  }
  return target;
}

/** Whether `hash` holds the value a bracketed path (`b`, `[b][c]`) names (Rack's `params_hash_has_key?`). */
function hasPath(hash: Params, path: string): boolean {
  let node: unknown = hash;
  for (const key of path.split(/[[\]]+/).filter(Boolean)) {
    if (!isHash(node) || !Object.hasOwn(node, key)) return false;
    node = node[key];
  }
  return true;
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
    // Bracketed names in a JSON object are gathered too (python-gitlab flattens some hashes so).
    return { params: Object.keys(body).some((name) => name.includes('[')) ? fromPairs(Object.entries(body)) : body, files: {} };
  }
  if (!body) return { params: {}, files: {} };
  const raw = Buffer.from(body, isBase64Encoded ? 'base64' : 'utf8');
  const { maxBodyBytes } = config();
  if (raw.length > maxBodyBytes) throw new PayloadTooLargeError();
  const contentType = headers['content-type'] ?? '';
  if (contentType.startsWith('application/x-www-form-urlencoded')) {
    return { params: fromPairs(new URLSearchParams(raw.toString('utf8'))), files: {} };
  }
  if (contentType.startsWith('multipart/form-data')) {
    const params: Params = {};
    const files: Record<string, UploadedFile> = {};
    for (const part of await multipartParts(raw, contentType, maxBodyBytes)) {
      if (part.name === undefined) throw new ParamError('body is invalid');
      if (part.file) {
        files[part.name] = part.file;
        addParam(params, part.name, part.file);
      } else {
        addParam(params, part.name, part.value);
      }
    }
    return { params, files };
  }
  return { params: {}, files: {} };
}

/**
 * Rack's multipart limits, which GitLab runs with: at most 128 files and 4096 parts in a form.
 * Sizes are bounded by the body limit (`MAX_BODY_BYTES`).
 */
const MAX_FILES = 128;
const MAX_PARTS = 4096;

/** One part of a multipart form: a field's value or a file. `name` is undefined when the part has none. */
type Part = { name: string | undefined; value: string; file?: undefined } | { name: string | undefined; file: UploadedFile };

/**
 * Internal: the parts of a `multipart/form-data` body, in their order, parsed by busboy.
 * No or a malformed boundary, a malformed part header or a missing closing boundary →
 * `ParamError('body is invalid')`; a part over a size limit or too many parts →
 * `PayloadTooLargeError`. Names and file names are read as UTF-8 and `%22`, `%0D`, `%0A` in them
 * decoded, as browsers and undici's `FormData` encode them (WHATWG); file names keep any path
 * (the uploads feature sanitises them). A part busboy calls a file only because its type is
 * `application/octet-stream` (it has no file name) is a field, as in the Fetch standard's parser.
 */
async function multipartParts(raw: Buffer, contentType: string, maxBytes: number): Promise<Part[]> {
  // Imported on the first multipart request: the few routes taking files are a small part of any function's requests.
  const { default: parse } = await import('busboy');
  return new Promise((resolve, reject) => {
    let parser: busboy.Busboy;
    try {
      parser = parse({
        headers: { 'content-type': contentType },
        defParamCharset: 'utf8',
        preservePath: true,
        // busboy signals `filesLimit` at the first file over its limit, `partsLimit` on reaching its
        // limit: one more part than we accept.
        limits: { fieldNameSize: maxBytes, fieldSize: maxBytes, fileSize: maxBytes, files: MAX_FILES, parts: MAX_PARTS + 1 },
      });
    } catch {
      reject(new ParamError('body is invalid'));
      return;
    }
    const parts: Array<Part | (() => Part)> = [];
    let failure: ApiError | undefined;
    const tooLarge = () => {
      failure ??= new PayloadTooLargeError();
    };
    parser.on('field', (name, value, info) => {
      if (info.nameTruncated || info.valueTruncated) tooLarge();
      parts.push({ name: formDataName(name), value });
    });
    parser.on('file', (name, stream, info) => {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('limit', tooLarge);
      // A truncated body fails the stream and the parser; the parser's error is the one reported.
      stream.on('error', () => undefined);
      // Completed once the part is read (the parser closes only after every file stream ended).
      parts.push(() => {
        const data = Buffer.concat(chunks);
        if (info.filename === undefined) return { name: formDataName(name), value: data.toString('utf8') };
        return { name: formDataName(name), file: { filename: formDataName(info.filename), contentType: info.mimeType, data } };
      });
    });
    parser.on('filesLimit', tooLarge);
    parser.on('partsLimit', tooLarge);
    parser.on('error', () => reject(failure ?? new ParamError('body is invalid')));
    parser.on('close', () => (failure ? reject(failure) : resolve(parts.map((part) => (typeof part === 'function' ? part() : part)))));
    parser.end(raw);
  });
}

/** Internal: a name or file name as the WHATWG multipart encoding escapes it (`"`, CR, LF). */
function formDataName<T extends string | undefined>(name: T): T {
  return name?.replace(/%0A/gi, '\n').replace(/%0D/gi, '\r').replace(/%22/g, '"') as T;
}

/** Internal: the body of a `rawBody` route as bytes (empty when there is none); 413 past `MAX_BODY_BYTES`. */
function rawBody(request: ApiRequest): Buffer {
  const { body, isBase64Encoded } = request.event;
  if (body === null || body === undefined) return Buffer.alloc(0);
  const raw = typeof body === 'string' ? Buffer.from(body, isBase64Encoded ? 'base64' : 'utf8') : Buffer.from(JSON.stringify(body), 'utf8');
  if (raw.length > config().maxBodyBytes) throw new PayloadTooLargeError();
  return raw;
}

/**
 * Gathers every parameter of the request into one object, as Grape does: query string, then
 * body (JSON, URL-encoded form or multipart form), then path parameters, later sources winning.
 * A route declaring `rawBody` takes its body as bytes (`context.body`) and its parameters from the
 * query and the path only.
 * Validation against the route's schema happens in the dispatcher.
 */
export function collectParams(): ApiMiddleware {
  const collectParamsBefore = async (request: ApiRequest) => {
    if (request.context.route?.definition.rawBody) {
      request.context.body = rawBody(request);
      request.context.files = {};
      request.context.rawParams = { ...queryParams(request), ...request.context.pathParams };
      return;
    }
    const body = await bodyParams(request);
    request.context.files = body.files;
    request.context.rawParams = { ...queryParams(request), ...body.params, ...request.context.pathParams };
  };
  return { before: collectParamsBefore };
}
