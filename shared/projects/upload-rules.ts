/**
 * Project uploads (GitLab's `FileUploader`): files attached to a project, addressed by a random
 * secret and their file name, `/uploads/<secret>/<filename>` relative to the project. These are
 * the rules, as pure functions: file names, Markdown and content types are GitLab's
 * (`Gitlab::FileTypeDetection`, `Gitlab::FileMarkdownLinkBuilder`, CarrierWave's sanitizing), and
 * the web paths uploads are served at. Where the bytes are kept: `store/uploads.ts`.
 */
import { extensionOf, mediaTypeOf } from '../platform/http/file-types';

/** Shown inline in Markdown (`![alt](url)`) and served inline: GitLab's safe images, videos, audio. */
const EMBEDDABLE_EXTENSIONS = new Set([
  ...['png', 'jpg', 'jpeg', 'gif', 'bmp', 'tiff', 'ico', 'webp'],
  ...['mp4', 'm4v', 'mov', 'webm', 'ogv'],
  ...['mp3', 'oga', 'ogg', 'spx', 'wav'],
]);
/** Embedded in Markdown like an image, but may carry scripts: always served as an attachment. */
const DANGEROUS_EMBEDDABLE_EXTENSIONS = new Set(['svg']);

const OCTET_STREAM = 'application/octet-stream';
/** Longest stored file name (a file-system name limit, as GitLab stores uploads on disk). */
const MAX_FILENAME_LENGTH = 255;

/** The extension of a file name (`a.tar.gz` → `gz`), the rule avatars follow too. */
export { extensionOf };

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
  const byExtension = mediaTypeOf(filename);
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

/** Where uploads are served: `<namespace>/<project>/uploads/<secret>/<filename>`, the namespace maybe nested. */
export interface UploadPath {
  projectPath: string;
  secret: string;
  filename: string;
}

/** An upload secret: 32 hex characters (128 random bits). */
export const isUploadSecret = (secret: string): boolean => /^[0-9a-f]{32}$/.test(secret);

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
  if (marker !== 'uploads' || !isUploadSecret(secret)) return undefined;
  return { projectPath: segments.slice(0, -3).join('/'), secret, filename };
}

/** The upload's URL relative to its project (the response's `url`, the Markdown's target). */
export const uploadUrl = (upload: { secret: string; filename: string }): string => `/uploads/${upload.secret}/${upload.filename}`;
