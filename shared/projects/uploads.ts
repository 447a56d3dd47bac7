/**
 * Project uploads (GitLab's `FileUploader`): files attached to a project, addressed by a random
 * secret and their file name, `/uploads/<secret>/<filename>` relative to the project.
 *
 * The bytes are an S3 object under the project's prefix, `projects/<id>/uploads/<secret>/<filename>`;
 * a small item in the project's partition (`PROJECT#<id>` / `UPLOAD#<secret>`) records that the
 * upload exists, its name and its type. Deleting the project deletes both (its partition and its
 * prefix), so an upload never outlives its project.
 *
 * The file-name and Markdown rules are GitLab's (`Gitlab::FileTypeDetection`,
 * `Gitlab::FileMarkdownLinkBuilder`, CarrierWave's sanitizing), as pure functions.
 */
import { randomBytes } from 'node:crypto';
import { DeleteObjectCommand, GetObjectCommand, NoSuchKey, PutObjectCommand } from '@aws-sdk/client-s3';
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { config } from '../platform/config';
import { db, s3, tableName } from '../platform/dynamo/client';
import { projectKeys } from './store/keys';
import { projectIsLive, type Project } from './store/projects';
import type { Item } from '../platform/dynamo/query';
import { TransactionConditionFailed, transactWrite } from '../platform/dynamo/transactions';
import type { User } from '../users';
import type { UploadedFile } from '../platform/http/context';
import { NotFoundError, PayloadTooLargeError } from '../platform/http/errors';

// ---------------------------------------------------------------------------------------------
// File-name rules
// ---------------------------------------------------------------------------------------------

/** Shown inline in Markdown (`![alt](url)`) and served inline: GitLab's safe images, videos, audio. */
const EMBEDDABLE_EXTENSIONS = new Set([
  ...['png', 'jpg', 'jpeg', 'gif', 'bmp', 'tiff', 'ico', 'webp'],
  ...['mp4', 'm4v', 'mov', 'webm', 'ogv'],
  ...['mp3', 'oga', 'ogg', 'spx', 'wav'],
]);
/** Embedded in Markdown like an image, but may carry scripts: always served as an attachment. */
const DANGEROUS_EMBEDDABLE_EXTENSIONS = new Set(['svg']);

/** Media types by extension: for embeddable files (never the client's word) and as a fallback. */
const MEDIA_TYPES: Record<string, string> = {
  png: 'image/png',
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  gif: 'image/gif',
  bmp: 'image/bmp',
  tiff: 'image/tiff',
  ico: 'image/vnd.microsoft.icon',
  webp: 'image/webp',
  svg: 'image/svg+xml',
  mp4: 'video/mp4',
  m4v: 'video/mp4',
  mov: 'video/quicktime',
  webm: 'video/webm',
  ogv: 'video/ogg',
  mp3: 'audio/mpeg',
  oga: 'audio/ogg',
  ogg: 'audio/ogg',
  spx: 'audio/ogg',
  wav: 'audio/wav',
  txt: 'text/plain',
  log: 'text/plain',
  md: 'text/markdown',
  csv: 'text/csv',
  pdf: 'application/pdf',
  json: 'application/json',
  zip: 'application/zip',
  gz: 'application/gzip',
};

const OCTET_STREAM = 'application/octet-stream';
/** Longest stored file name (a file-system name limit, as GitLab stores uploads on disk). */
const MAX_FILENAME_LENGTH = 255;

/**
 * The extension of a file name, lower-cased and without the dot, as Ruby's `File.extname` finds
 * it: `a.tar.gz` → `gz`, `.png` (a dot file) → `''`, `README` → `''`.
 */
export function extensionOf(filename: string): string {
  const name = filename.replace(/^\.+/, '');
  const dot = name.lastIndexOf('.');
  return dot <= 0 ? '' : name.slice(dot + 1).toLowerCase();
}

/**
 * The name an upload is stored and addressed under (CarrierWave's sanitizing, restricted to
 * ASCII): the last path segment (browsers may send `C:\dir\a.png`), every character other than
 * `A-Z a-z 0-9 . _ -` replaced by `_`, `_` before a name of only dots, `unnamed` for an empty
 * name, and at most 255 characters (the extension kept).
 *
 * @example
 * sanitizeFilename('C:\\shots\\my screen shot.png'); // 'my_screen_shot.png'
 */
export function sanitizeFilename(filename: string): string {
  const base = filename.replace(/\\/g, '/').replace(/\/+$/, '').split('/').pop() ?? '';
  let name = base.replace(/[^A-Za-z0-9._-]/gu, '_');
  if (/^\.+$/.test(name)) name = `_${name}`;
  if (name === '') name = 'unnamed';
  if (name.length > MAX_FILENAME_LENGTH) {
    const extension = extensionOf(name);
    const suffix = extension && extension.length <= 16 ? `.${extension}` : '';
    name = name.slice(0, MAX_FILENAME_LENGTH - suffix.length) + suffix;
  }
  return name;
}

/** Images, videos and audio GitLab embeds and serves inline. */
export const isEmbeddable = (filename: string): boolean => EMBEDDABLE_EXTENSIONS.has(extensionOf(filename));

/** SVG: embedded by Markdown, but served as an attachment (it can carry scripts). */
export const isDangerousEmbeddable = (filename: string): boolean => DANGEROUS_EMBEDDABLE_EXTENSIONS.has(extensionOf(filename));

/** The Markdown name (the response's `alt`): the file name, without its extension when embeddable. */
export function markdownName(filename: string): string {
  if (!isEmbeddable(filename)) return filename;
  return filename.slice(0, filename.length - extensionOf(filename).length - 1);
}

/**
 * GitLab's Markdown for a file: `![name](url)` for what is embedded (images, videos, audio, SVG),
 * `[name](url)` otherwise; a `]` in the name is escaped.
 *
 * @example
 * markdownLink('shot.png', '/uploads/0123…/shot.png'); // '![shot](/uploads/0123…/shot.png)'
 */
export function markdownLink(filename: string, url: string): string {
  const link = `[${markdownName(filename).replaceAll(']', '\\]')}](${url})`;
  return isEmbeddable(filename) || isDangerousEmbeddable(filename) ? `!${link}` : link;
}

/** `type/subtype` with optional `; name=value` parameters, and nothing a header could break on. */
const MEDIA_TYPE = /^[\w!#$&^.+-]+\/[\w!#$&^.+-]+(\s*;\s*[\w!#$&^.+-]+=("[^"\r\n]*"|[\w!#$&^.+-]+))*$/;

/**
 * The Content-Type an upload is stored and served with. Embeddable files are served inline, so
 * their type comes from the extension, never from the client (`x.png` sent as `text/html` would
 * otherwise be a page on our origin). Other files keep the part's type when it is a valid one
 * (they are always served as attachments), else the extension's, else `application/octet-stream`.
 */
export function contentTypeFor(filename: string, partType: string | undefined): string {
  const byExtension = MEDIA_TYPES[extensionOf(filename)];
  if (isEmbeddable(filename)) return byExtension ?? OCTET_STREAM;
  const given = partType?.trim();
  if (given && given.toLowerCase() !== OCTET_STREAM && MEDIA_TYPE.test(given)) return given;
  return byExtension ?? OCTET_STREAM;
}

/**
 * The Content-Disposition an upload is served with: `inline` for embeddable files, `attachment`
 * for everything else (SVG included), always with the file name.
 */
export function contentDispositionFor(filename: string): string {
  return `${isEmbeddable(filename) ? 'inline' : 'attachment'}; filename="${filename}"`;
}

/**
 * Largest accepted file, `MAX_UPLOAD_BYTES` (read at each request), 4 MiB by default: the request
 * reaches Lambda base64-encoded (4/3 larger) within Lambda's 6 MB payload limit, and so does the
 * download's response.
 */
export function maxUploadBytes(): number {
  const configured = Number(process.env.MAX_UPLOAD_BYTES);
  return Number.isSafeInteger(configured) && configured > 0 ? configured : 4 * 1024 * 1024;
}

/** Where uploads are served: `<namespace>/<project>/uploads/<secret>/<filename>`, the namespace maybe nested. */
export interface UploadPath {
  projectPath: string;
  secret: string;
  filename: string;
}

const SECRET = /^[0-9a-f]{32}$/;

/**
 * Parses the (decoded) path of a web request as an upload's address; `undefined` for any other
 * path. The project path is everything before `/uploads/<secret>/<filename>` and has at least a
 * namespace and a project.
 *
 * @example
 * parseUploadPath('group/sub/app/uploads/0123456789abcdef0123456789abcdef/a.png');
 * // { projectPath: 'group/sub/app', secret: '0123…', filename: 'a.png' }
 */
export function parseUploadPath(path: string): UploadPath | undefined {
  const segments = path.replace(/^\/+/, '').split('/');
  if (segments.length < 5 || segments.some((segment) => segment === '')) return undefined;
  const [marker, secret, filename] = segments.slice(-3);
  if (marker !== 'uploads' || !SECRET.test(secret)) return undefined;
  return { projectPath: segments.slice(0, -3).join('/'), secret, filename };
}

// ---------------------------------------------------------------------------------------------
// Storage
// ---------------------------------------------------------------------------------------------

/** An uploaded file: its item in the project's partition; the bytes are at {@link objectKey}. */
export interface ProjectUpload {
  projectId: number;
  /** 32 hex characters (128 random bits): knowing it is what lets a reader find the file. */
  secret: string;
  /** The sanitized file name. */
  filename: string;
  contentType: string;
  size: number;
  uploadedBy: number;
  createdAt: string;
}


/** The S3 key of an upload's bytes, under the project's prefix (deleted with the project). */
export const objectKey = (upload: Pick<ProjectUpload, 'projectId' | 'secret' | 'filename'>): string =>
  `projects/${upload.projectId}/uploads/${upload.secret}/${upload.filename}`;

/** The upload's URL relative to its project (the response's `url`, the Markdown's target). */
export const uploadUrl = (upload: Pick<ProjectUpload, 'secret' | 'filename'>): string => `/uploads/${upload.secret}/${upload.filename}`;

function uploadToItem(upload: ProjectUpload): Item {
  return { ...projectKeys.upload(upload.projectId, upload.secret), type: 'Upload', ...upload };
}

function uploadFromItem(item: Item): ProjectUpload {
  return {
    projectId: Number(item.projectId),
    secret: String(item.secret),
    filename: String(item.filename),
    contentType: String(item.contentType),
    size: Number(item.size),
    uploadedBy: Number(item.uploadedBy),
    createdAt: String(item.createdAt),
  };
}

/**
 * Stores a file for a project: 413 above {@link maxUploadBytes}, nothing stored. The bytes go to
 * S3 first, then the item, written only while the project is live; if that fails (the project is
 * being deleted: 404) the object is removed again. In that order, a project deletion running at
 * the same time (which deletes the partition, then the prefix) cannot leave an object behind.
 *
 * @example
 * const upload = await storeUpload(project, user, files.file);
 * uploadUrl(upload); // '/uploads/<secret>/screen.png'
 */
export async function storeUpload(project: Project, uploader: User, file: UploadedFile): Promise<ProjectUpload> {
  if (file.data.length > maxUploadBytes()) throw new PayloadTooLargeError();
  const filename = sanitizeFilename(file.filename);
  const upload: ProjectUpload = {
    projectId: project.id,
    secret: randomBytes(16).toString('hex'),
    filename,
    contentType: contentTypeFor(filename, file.contentType),
    size: file.data.length,
    uploadedBy: uploader.id,
    createdAt: new Date().toISOString(),
  };
  const object = { Bucket: config().bucketName, Key: objectKey(upload) };
  await s3().send(new PutObjectCommand({ ...object, Body: file.data, ContentType: upload.contentType }));
  try {
    await transactWrite([
      projectIsLive(project.id),
      { Put: { TableName: tableName(), Item: uploadToItem(upload), ConditionExpression: 'attribute_not_exists(PK)' } },
    ]);
  } catch (error) {
    try {
      await s3().send(new DeleteObjectCommand(object));
    } catch {
      // Best effort: the error that matters is the write's. Should this delete fail as well, the
      // object stays under the project's prefix until the project is deleted.
    }
    if (error instanceof TransactionConditionFailed && error.failed.includes(0)) throw new NotFoundError('Project');
    throw error;
  }
  return upload;
}

/** The upload of a project with this secret and exactly this file name, if there is one. */
export async function findUpload(projectId: number, secret: string, filename: string): Promise<ProjectUpload | undefined> {
  if (!SECRET.test(secret)) return undefined;
  const { Item: item } = await db().send(
    new GetCommand({ TableName: tableName(), Key: projectKeys.upload(projectId, secret), ConsistentRead: true }),
  );
  const upload = item ? uploadFromItem(item) : undefined;
  return upload?.filename === filename ? upload : undefined;
}

/** The bytes of an upload; `undefined` when the object is gone (its project is being deleted). */
export async function readUpload(upload: ProjectUpload): Promise<Buffer | undefined> {
  try {
    const { Body } = await s3().send(new GetObjectCommand({ Bucket: config().bucketName, Key: objectKey(upload) }));
    return Body ? Buffer.from(await Body.transformToByteArray()) : undefined;
  } catch (error) {
    if (error instanceof NoSuchKey || (error as Error).name === 'NoSuchKey') return undefined;
    throw error;
  }
}
