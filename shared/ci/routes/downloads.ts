/**
 * What the Jobs API and the runner API serve from S3: a job's artifacts archive (streamed, never
 * whole in memory; 404 when there is none or it expired), one file out of it (GitLab's
 * `send_artifacts_entry`, which Workhorse serves: read with ranged GETs, `zip-reader.ts`) and its
 * trace (the archived object of an ended job, streamed; the chunks of a running one).
 */
import { extensionOf, mediaTypeOf } from '../../platform/http/file-types';
import { ApiError, NotFoundError } from '../../platform/http/errors';
import type { HttpResult } from '../../platform/http/response';
import { isNoSuchKey } from '../../platform/s3/client';
import { artifactsSource, openArchivedTrace, openArtifacts, readTraceChunks, type OpenedObject } from '../store/blobs';
import { findEntry, openEntry, UnsupportedZipError, ZipFormatError } from '../zip-reader';
import type { Job } from '../store/pipelines';
import { COMPLETED } from '../status';

const streamed = (opened: OpenedObject, contentType: string, headers: Record<string, string>): HttpResult => ({
  statusCode: 200,
  headers,
  stream: { chunks: opened.chunks, contentType, length: opened.length },
});

const expired = (job: Job) => job.artifacts?.expireAt != null && Date.parse(job.artifacts.expireAt) < Date.now();

export async function artifactsDownload(job: Job | undefined): Promise<HttpResult> {
  if (!job?.artifacts || expired(job)) throw new NotFoundError();
  const opened = await openArtifacts(job.id);
  if (!opened) throw new NotFoundError();
  const { filename } = job.artifacts;
  const disposition = `attachment; filename="${filename.replace(/["\\\r\n]/g, '')}"; filename*=UTF-8''${encodeURIComponent(filename)}`;
  return streamed(opened, 'application/octet-stream', { 'Content-Disposition': disposition });
}

/** Media types Go's `mime` package knows beside the platform's (Workhorse names an entry's type with it). */
const GO_MEDIA_TYPES: Record<string, string> = {
  html: 'text/html',
  htm: 'text/html',
  css: 'text/css',
  js: 'text/javascript',
  mjs: 'text/javascript',
  xml: 'text/xml',
  wasm: 'application/wasm',
  avif: 'image/avif',
};

/**
 * An entry's `Content-Type` as Workhorse gives it: by its extension (Go's `mime.TypeByExtension`,
 * which adds `charset=utf-8` to text types), else `application/octet-stream`.
 */
export function entryContentType(name: string): string {
  const type = GO_MEDIA_TYPES[extensionOf(name)] ?? mediaTypeOf(name);
  if (!type) return 'application/octet-stream';
  return type.startsWith('text/') ? `${type}; charset=utf-8` : type;
}

/**
 * Workhorse's `attachment; filename="<base name>"` (quotes escaped); a name beyond printable ASCII
 * (which a header cannot carry) also as RFC 5987's `filename*`, its plain form with `_` for those characters.
 */
function entryDisposition(basename: string): string {
  const escaped = basename.replace(/["\\]/g, '\\$&');
  if (/^[\x20-\x7e]*$/.test(basename)) return `attachment; filename="${escaped}"`;
  return `attachment; filename="${escaped.replace(/[^\x20-\x7e]/g, '_')}"; filename*=UTF-8''${encodeURIComponent(basename)}`;
}

/**
 * One file of a job's artifacts archive (`path` inside it, no leading `/`), streamed as Workhorse
 * sends it: `Content-Length` its size, `Content-Type` by its extension, `Content-Disposition:
 * attachment` with its base name. 404 when the job has no (unexpired) zip archive, the archive
 * no such file (a directory is none) or the archive is no zip; 400 for what the reader refuses
 * (encrypted entries, compression other than stored and deflate).
 */
export async function artifactEntryDownload(job: Job | undefined, path: string): Promise<HttpResult> {
  if (!job?.artifacts || expired(job) || job.artifacts.format !== 'zip') throw new NotFoundError();
  const source = artifactsSource(job.id);
  try {
    const entry = await findEntry(source, path);
    if (!entry) throw new NotFoundError();
    const chunks = await openEntry(source, entry);
    const basename = path.slice(path.lastIndexOf('/') + 1);
    return { statusCode: 200, headers: { 'Content-Disposition': entryDisposition(basename) }, stream: { chunks, contentType: entryContentType(basename), length: entry.uncompressedSize } };
  } catch (error) {
    if (error instanceof ZipFormatError || isNoSuchKey(error)) throw new NotFoundError();
    if (error instanceof UnsupportedZipError) throw new ApiError(400, { message: `400 Bad request - ${error.message}` });
    throw error;
  }
}

export async function traceDownload(job: Job): Promise<HttpResult> {
  if (job.erasedAt) throw new NotFoundError();
  const headers = { 'Content-Disposition': `infile; filename="${job.id}.log"` };
  if (COMPLETED.has(job.status) && job.traceArchived) {
    const opened = await openArchivedTrace(job.id);
    if (!opened) throw new NotFoundError();
    return streamed(opened, 'text/plain', headers);
  }
  if (job.traceLength === 0) throw new NotFoundError();
  return { statusCode: 200, headers, binary: { data: await readTraceChunks(job.id, job.traceLength), contentType: 'text/plain' } };
}
