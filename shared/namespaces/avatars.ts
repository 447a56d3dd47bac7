/**
 * Avatars (GitLab's `Avatarable` and `AvatarUploader`) of every owner that has one: groups here,
 * and users and projects in the features above, through `index.ts`: the `avatar` parameter (a
 * multipart file; `""` removes the avatar), GitLab's validation, the URL an avatar is served at,
 * its bytes in S3, and the order a change writes them in ({@link changeAvatar}). They live in the
 * lowest feature that owns avatars, so users, groups and projects share one set of rules.
 *
 * GitLab's rules: only images by extension (`png, jpg, jpeg, gif, bmp, tiff, ico, webp`), at most
 * 200 KiB, each failure a model error on `avatar` (400 `{"message":{"avatar":[…]}}`), checked
 * before anything is written. An avatar is served at
 * `<externalUrl>/uploads/-/system/<user|project|group>/avatar/<id>/<filename>` (the web group's
 * greedy route). Its bytes live under a key that also holds a random token, so a replaced avatar
 * never shares a key with the new one: the new object is written first, then the item, then the
 * old object is deleted.
 */
import { randomBytes } from 'node:crypto';
import * as z from 'zod';
import { config } from '../platform/config';
import type { UploadedFile } from '../platform/http/context';
import { extensionOf, mediaTypeOf } from '../platform/http/file-types';
import { ConflictError, ValidationError } from '../platform/http/errors';
import { bucketName, isNoSuchKey, s3 } from '../platform/s3/client';

/** GitLab's `AvatarUploader::SAFE_IMAGE_EXT`, in its order (the error message lists them). */
export const AVATAR_EXTENSIONS = ['png', 'jpg', 'jpeg', 'gif', 'bmp', 'tiff', 'ico', 'webp'] as const;

/** GitLab's `Avatarable::MAXIMUM_FILE_SIZE`: 200 KiB. */
export const MAX_AVATAR_BYTES = 200 * 1024;


/** What an owner item keeps of its avatar; the bytes are in S3 under a key built from these. */
export interface StoredAvatar {
  /** The sanitized file name (the URL's last segment). */
  filename: string;
  /** 32 hex characters: part of the object's key, new with every upload. */
  token: string;
  contentType: string;
}

/** Whose avatar: the URL's `<model>` segment. */
export type AvatarOwner = 'user' | 'project' | 'group';

/**
 * The `avatar` parameter: a multipart file part, or `""` (also `null`) to remove the avatar.
 * Any other value (a plain string) is Grape's `avatar is invalid`.
 */
export const avatarParam = z.preprocess(
  (value) => (value === null ? '' : value),
  z.union([z.literal(''), z.object({ filename: z.string(), contentType: z.string(), data: z.instanceof(Buffer) })]).optional(),
);

/** `PUT /user/avatar`'s `avatar`: a file only (absent or blank: `avatar is missing`, with `required`). */
export const avatarFileParam = z.preprocess(
  (value) => (value === '' || value === null ? undefined : value),
  z.object({ filename: z.string(), contentType: z.string(), data: z.instanceof(Buffer) }).optional(),
);

/** What the `avatar` parameter asks for: a new image, or `''` to remove it. */
export type AvatarChange = UploadedFile | '';


/**
 * GitLab's model errors for an avatar file (empty when it is acceptable).
 *
 * @example
 * avatarErrors({ filename: 'a.txt', contentType: 'text/plain', data }); // ['file format is not supported. …']
 */
export function avatarErrors(file: UploadedFile): string[] {
  const errors: string[] = [];
  if (!(AVATAR_EXTENSIONS as readonly string[]).includes(extensionOf(file.filename))) {
    errors.push(`file format is not supported. Please try one of the following supported formats: ${AVATAR_EXTENSIONS.join(', ')}`);
  }
  if (file.data.length > MAX_AVATAR_BYTES) errors.push('is too big (should be at most 200 KiB)');
  return errors;
}

/** Throws GitLab's 400 `{"message":{"avatar":[…]}}` for a file that is no acceptable avatar; removal (`''`) always passes. */
export function assertValidAvatar(change: AvatarChange | undefined): void {
  if (change === undefined || change === '') return;
  const errors = avatarErrors(change);
  if (errors.length > 0) throw new ValidationError({ avatar: errors });
}

/**
 * The name an avatar is stored and served under: the last path segment, characters other than
 * `A-Z a-z 0-9 . _ -` replaced by `_` (CarrierWave's sanitizing, ASCII only), at most 100.
 */
export function avatarFilename(filename: string): string {
  const base = filename.replace(/\\/g, '/').split('/').pop() ?? '';
  const name = base.replace(/[^A-Za-z0-9._-]/g, '_');
  const extension = extensionOf(name);
  return name.length > 100 ? `${name.slice(0, 99 - extension.length)}.${extension}` : name;
}

/** A new stored avatar for an accepted file (a fresh token, the type by extension, never the client's word). */
export function newStoredAvatar(file: UploadedFile): StoredAvatar {
  const filename = avatarFilename(file.filename);
  return { filename, token: randomBytes(16).toString('hex'), contentType: mediaTypeOf(filename)! };
}

/** Whether an item's `avatar` attribute is a stored avatar (items written before avatars have none). */
export function isStoredAvatar(value: unknown): value is StoredAvatar {
  const avatar = value as StoredAvatar | undefined;
  return typeof avatar?.filename === 'string' && typeof avatar.token === 'string' && typeof avatar.contentType === 'string';
}

/** Internal: the path an avatar is served at, below the service's root. */
export const avatarPath = (owner: AvatarOwner, id: number, filename: string): string => `/uploads/-/system/${owner}/avatar/${id}/${filename}`;

/**
 * The `avatar_url` of an owner: absolute, on the service, as GitLab's API answers it; `null`
 * without an avatar.
 *
 * @example
 * avatarUrl('user', 42, avatar); // 'https://git.example.com/uploads/-/system/user/avatar/42/me.png'
 */
export function avatarUrl(owner: AvatarOwner, id: number, avatar: StoredAvatar | undefined): string | null {
  return avatar ? `${config().externalUrl}${avatarPath(owner, id, avatar.filename)}` : null;
}

/** Where an avatar is served, parsed: `uploads/-/system/<owner>/avatar/<id>/<filename>`; `undefined` for any other path. */
export function parseAvatarPath(path: string): { owner: AvatarOwner; id: number; filename: string } | undefined {
  const match = /^\/*uploads\/-\/system\/(user|project|group)\/avatar\/([1-9][0-9]{0,15})\/([^/]+)$/.exec(path);
  if (!match) return undefined;
  return { owner: match[1] as AvatarOwner, id: Number(match[2]), filename: match[3] };
}

/** Writes an avatar's bytes under `key`. */
export async function putAvatarObject(key: string, avatar: StoredAvatar, data: Buffer): Promise<void> {
  const { client, sdk } = await s3();
  await client.send(new sdk.PutObjectCommand({ Bucket: bucketName(), Key: key, Body: data, ContentType: avatar.contentType }));
}

/** An avatar's bytes; `undefined` when the object is gone. */
export async function readAvatarObject(key: string): Promise<Buffer | undefined> {
  const { client, sdk } = await s3();
  try {
    const { Body } = await client.send(new sdk.GetObjectCommand({ Bucket: bucketName(), Key: key }));
    return Body ? Buffer.from(await Body.transformToByteArray()) : undefined;
  } catch (error) {
    if (isNoSuchKey(error)) return undefined;
    throw error;
  }
}

/**
 * Deletes an avatar's bytes, best effort: an object left behind (the delete failed) is never
 * served, since only the key its owner's item names is read.
 */
export async function deleteAvatarObject(key: string): Promise<void> {
  const { client, sdk } = await s3();
  try {
    await client.send(new sdk.DeleteObjectCommand({ Bucket: bucketName(), Key: key }));
  } catch {
    // Nothing reads an object its owner no longer names.
  }
}

/** The response headers of a served avatar (an image, inline, never sniffed). */
export const avatarHeaders = (avatar: StoredAvatar) => ({
  'Content-Disposition': `inline; filename="${avatar.filename}"`,
  'X-Content-Type-Options': 'nosniff',
});

/**
 * Changes an owner's avatar in GitLab's order, so that no item ever names missing bytes: the new
 * image's bytes first (under a key that is new), then the owner's item (`write`, conditioned as
 * the owner's edits are), then the replaced image's bytes are deleted. When `write` answers
 * `false` (the owner changed since it was read) the new bytes are dropped again and nothing has
 * changed: 409 with `conflictMessage`. The file was validated before ({@link assertValidAvatar}).
 *
 * @returns the avatar now stored (`undefined`: none), or `'unchanged'` when there was nothing to remove.
 * @example
 * const avatar = await changeAvatar(projectAvatar(project), change, {
 *   objectKey: (a) => projectAvatarObject(project.id, a.token, a.filename),
 *   write: async (a) => (await writeProjectAvatar(project, a, now)) === 'updated',
 *   conflictMessage: 'The project was modified by another request; try again',
 * });
 */
export async function changeAvatar(
  previous: StoredAvatar | undefined,
  change: AvatarChange,
  owner: { objectKey: (avatar: StoredAvatar) => string; write: (avatar: StoredAvatar | undefined) => Promise<boolean>; conflictMessage: string },
): Promise<StoredAvatar | undefined | 'unchanged'> {
  const avatar = change === '' ? undefined : newStoredAvatar(change);
  if (!avatar && !previous) return 'unchanged';
  if (avatar && change !== '') await putAvatarObject(owner.objectKey(avatar), avatar, change.data);
  if (!(await owner.write(avatar))) {
    if (avatar) await deleteAvatarObject(owner.objectKey(avatar));
    throw new ConflictError(owner.conflictMessage);
  }
  if (previous) await deleteAvatarObject(owner.objectKey(previous));
  return avatar;
}
