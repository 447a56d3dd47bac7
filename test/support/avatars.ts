/** Avatar uploads and downloads for the avatar tests of users, groups and projects. */
import { randomBytes } from 'node:crypto';
import { baseUrl } from './api';

/** Bytes standing for an image (avatars are checked by extension, as GitLab's `image?`). */
export const image = (size = 64): Buffer => Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), randomBytes(size)]);

/** A multipart body with `avatar` (sent with media type `type`) and other `fields`. */
export function avatarForm(filename: string, data: Buffer, fields: Record<string, string> = {}, type = 'image/png'): FormData {
  const body = new FormData();
  for (const [name, value] of Object.entries(fields)) body.append(name, value);
  body.append('avatar', new Blob([data], { type }), filename);
  return body;
}

/** The file at an `avatar_url` (absolute, like GitLab's), anonymously or with `token`. */
export async function download(url: string, token?: string) {
  const response = await fetch(new URL(new URL(url).pathname, `${baseUrl()}/`), { headers: token ? { 'PRIVATE-TOKEN': token } : {} });
  return { status: response.status, type: response.headers.get('content-type'), data: Buffer.from(await response.arrayBuffer()) };
}
