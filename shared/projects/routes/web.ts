/**
 * GitLab's web routes outside `/api/v4`: uploaded files,
 * `GET /:namespace/:project/uploads/:secret/:filename` (the namespace may be nested), and avatars,
 * `GET /uploads/-/system/<user|project|group>/avatar/:id/:filename` (every `avatar_url`). User
 * avatars are public, as GitLab serves them; a project's and a group's follow the project's or the
 * group's visibility (404 to whoever may not read it).
 *
 * The catalog declares it as the greedy root resource `/{path+}`, so API Gateway also sends there
 * every GET no other resource matches: the web entry (`functions/web/handler.ts`) answers those
 * with the gateway's own 404 (`{"error":"404 Not Found"}`) when {@link isUploadAddress} says no,
 * before anything else runs, so an unknown route never turns into a 401 because of a bad token.
 */
import type { APIGatewayProxyEvent } from 'aws-lambda';
import * as z from 'zod';
import { avatarHeaders, findGroupOrNotFound, groupAvatarFile, parseAvatarPath, type StoredAvatar } from '../../namespaces';
import { userAvatarFile, type User } from '../../users';
import { NotFoundError, RouteNotFoundError } from '../../platform/http/errors';
import { p, required } from '../../platform/http/params';
import { route, type RoutesOf } from '../../platform/http/route';
import type { catalog } from '../catalog';
import { findProjectOrNotFound } from '../finders';
import { projectAvatarFile } from '../queries/avatars';
import { uploadedFile } from '../queries/uploads';
import { contentDispositionFor, parseUploadPath } from '../upload-rules';

/** Internal: the project (404 `{"message":"404 Not Found"}` when the caller cannot read it, as GitLab's web 404). */
async function findReadableProject(projectPath: string, user: User | null) {
  try {
    return (await findProjectOrNotFound(projectPath, user)).project;
  } catch (error) {
    if (error instanceof NotFoundError) throw new NotFoundError();
    throw error;
  }
}

/** Internal: the group (404 `{"message":"404 Not Found"}` when the caller cannot read it). */
async function findReadableGroup(groupId: number, user: User | null) {
  try {
    return (await findGroupOrNotFound(groupId, user)).group;
  } catch (error) {
    if (error instanceof NotFoundError) throw new NotFoundError();
    throw error;
  }
}

/** Internal: an avatar at its `avatar_url` path, or 404 `{"message":"404 Not Found"}`. */
async function serveAvatar(address: NonNullable<ReturnType<typeof parseAvatarPath>>, user: User | null) {
  let file: { avatar: StoredAvatar; data: Buffer } | undefined;
  if (address.owner === 'user') file = await userAvatarFile(address.id, address.filename);
  if (address.owner === 'project') file = await projectAvatarFile(await findReadableProject(String(address.id), user), address.filename);
  if (address.owner === 'group') file = await groupAvatarFile(await findReadableGroup(address.id, user), address.filename);
  if (!file) throw new NotFoundError();
  return { statusCode: 200, binary: { data: file.data, contentType: file.avatar.contentType }, headers: avatarHeaders(file.avatar) };
}

export const webRoutes = {
  'GET /:path+': route({
    anonymous: true,
    params: z.object({ path: required(p.string()) }),
    handler: async ({ params, user }) => {
      const avatar = parseAvatarPath(params.path);
      if (avatar) return serveAvatar(avatar, user);
      const address = parseUploadPath(params.path);
      if (!address) throw new RouteNotFoundError();
      const project = await findReadableProject(address.projectPath, user);
      const file = await uploadedFile(project.id, address.secret, address.filename);
      if (!file) throw new NotFoundError();
      const { upload, data } = file;
      return {
        statusCode: 200,
        binary: { data, contentType: upload.contentType },
        headers: { 'Content-Disposition': contentDispositionFor(upload.filename), 'X-Content-Type-Options': 'nosniff' },
      };
    },
  }),
} satisfies RoutesOf<typeof catalog.web>;

/** Whether the request's greedy path is a well-formed upload or avatar address (anything else is the gateway's 404). */
export function isUploadAddress(event: APIGatewayProxyEvent): boolean {
  const raw = event.pathParameters?.path;
  if (!raw) return false;
  try {
    const path = decodeURIComponent(raw);
    return parseUploadPath(path) !== undefined || parseAvatarPath(path) !== undefined;
  } catch {
    return false;
  }
}
