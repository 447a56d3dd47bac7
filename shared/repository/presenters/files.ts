/**
 * The files API's answers: GitLab's `blob_data` (the file's metadata, also sent as `X-Gitlab-*`
 * headers, and by `HEAD`), with the content base64-encoded on `GET`; and raw content as GitLab's
 * Workhorse sends it (`Content-Type` detected from the bytes, text always as `text/plain`, inline
 * when it may be shown, `attachment` otherwise).
 */
import { createHash } from 'node:crypto';
import { MODE } from '../queries/objects';
import type { BlameRange } from '../queries/blame';
import type { FileAtRef } from '../queries/files';
import { presentBlameCommit } from './commits';

/** GitLab's `blob_data`, in its order. */
export function presentFileData(file: FileAtRef, ref: string, lastCommitId: string | undefined) {
  return {
    file_name: file.name,
    file_path: file.path,
    size: file.content.length,
    encoding: 'base64',
    content_sha256: createHash('sha256').update(file.content).digest('hex'),
    ref,
    blob_id: file.blobId,
    commit_id: file.commit.id,
    last_commit_id: lastCommitId ?? null,
    execute_filemode: file.mode === MODE.executable,
  };
}

/** GitLab's `BlameRange`: consecutive lines and the commit that last changed them. */
export function presentBlameRange(range: BlameRange) {
  return { commit: presentBlameCommit(range.commit), lines: range.lines };
}

/** `GET …/files/:file_path`: the metadata and the content. */
export function presentFile(file: FileAtRef, ref: string, lastCommitId: string | undefined) {
  return { ...presentFileData(file, ref, lastCommitId), content: file.content.toString('base64') };
}

/** GitLab's `set_http_headers`: each field as `X-Gitlab-File-Name`, `X-Gitlab-Blob-Id`, ... */
export function fileHeaders(data: Record<string, unknown>): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const [key, value] of Object.entries(data)) {
    if (key === 'content') continue;
    const name = key
      .split('_')
      .map((word) => word.charAt(0).toUpperCase() + word.slice(1))
      .join('-');
    headers[`X-Gitlab-${name}`] = value === null || value === undefined ? '' : String(value);
  }
  return headers;
}

/** GitLab's `no_cache_headers`. */
export const NO_CACHE_HEADERS = {
  'Cache-Control': 'no-cache, no-store, max-age=0, must-revalidate',
  Pragma: 'no-cache',
  Expires: 'Fri, 01 Jan 1990 00:00:00 GMT',
};

/** Go's `http.DetectContentType`, for the types Workhorse lets through (text becomes `text/plain`). */
function detectContentType(data: Buffer): string {
  const head = data.subarray(0, 512);
  const starts = (...bytes: number[]) => bytes.every((byte, i) => head[i] === byte);
  if (head.toString('latin1').trimStart().startsWith('<svg')) return 'image/svg+xml';
  if (starts(0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a)) return 'image/png';
  if (starts(0xff, 0xd8, 0xff)) return 'image/jpeg';
  if (head.toString('latin1', 0, 6) === 'GIF87a' || head.toString('latin1', 0, 6) === 'GIF89a') return 'image/gif';
  if (head.toString('latin1', 0, 2) === 'BM') return 'image/bmp';
  if (head.toString('latin1', 0, 4) === 'RIFF' && head.toString('latin1', 8, 12) === 'WEBP') return 'image/webp';
  if (starts(0x00, 0x00, 0x01, 0x00)) return 'image/x-icon';
  if (head.toString('latin1', 0, 5) === '%PDF-') return 'application/pdf';
  if (starts(0x50, 0x4b, 0x03, 0x04)) return 'application/zip';
  if (starts(0x1f, 0x8b, 0x08)) return 'application/x-gzip';
  // Text: no byte a text file would not hold (Go's "binary data" bytes).
  const binary = head.some((byte) => byte < 0x20 && ![0x09, 0x0a, 0x0c, 0x0d, 0x1b].includes(byte));
  return binary ? 'application/octet-stream' : 'text/plain; charset=utf-8';
}

/** Rails' `ActionDispatch::Http::ContentDisposition.format`. */
function contentDisposition(disposition: 'inline' | 'attachment', filename: string): string {
  const ascii = filename.replace(/[^\x20-\x7e]/g, '?').replace(/["\\]/g, '\\$&');
  const utf8 = [...Buffer.from(filename, 'utf8')]
    .map((byte) => (/[A-Za-z0-9!#$&+.^_`|~-]/.test(String.fromCharCode(byte)) ? String.fromCharCode(byte) : `%${byte.toString(16).toUpperCase().padStart(2, '0')}`))
    .join('');
  return `${disposition}; filename="${ascii}"; filename*=UTF-8''${utf8}`;
}

/** Raw content as Workhorse sends a blob: its detected type and disposition. */
export function rawContent(name: string, content: Buffer): { contentType: string; disposition: string } {
  const contentType = detectContentType(content);
  const inline = (/^(image|text|video|audio)\//.test(contentType) && contentType !== 'image/svg+xml') || contentType === 'application/pdf';
  return { contentType, disposition: contentDisposition(inline ? 'inline' : 'attachment', name) };
}
