/**
 * File types by name, as GitLab tells them (`File.extname`, `Gitlab::FileTypeDetection`'s media
 * types): for avatars and uploads, whose content type comes from the extension.
 */

/**
 * The extension of a file name, lower-cased and without the dot, as Ruby's `File.extname` finds
 * it: `a.tar.gz` → `gz`, `.png` (a dot file) → `''`, `README` → `''`.
 */
export const extensionOf = (filename: string): string => {
  const name = filename.replace(/^\.+/, '');
  const dot = name.lastIndexOf('.');
  return dot <= 0 ? '' : name.slice(dot + 1).toLowerCase();
};

/** Media types by extension: images, video, audio and the common text and archive formats. */
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

/**
 * The media type a file's extension names, if it is a known one.
 * @example mediaTypeOf('logo.PNG') // 'image/png'
 */
export const mediaTypeOf = (filename: string): string | undefined => MEDIA_TYPES[extensionOf(filename)];
