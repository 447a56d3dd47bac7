/**
 * Writes of the protected tags API (`ProtectedTags::CreateService`, `destroy_conditionally!`):
 * protect a name or pattern with one create level, unprotect it. A name protected already is
 * GitLab's model validation: 422 `{"message":["Name has already been taken"]}`.
 */
import { ApiError } from '../../platform/http/errors';
import { deleteProtectedTag, getProtectedTag, insertProtectedTag, type ProtectedTag } from '../store/protected-tags';
import { protectName, unprotectName } from './protected-refs';

/** Protects a name; 422 `Name has already been taken` when it is. */
export function createProtectedTag(projectId: number, name: string, createAccessLevel: number): Promise<ProtectedTag> {
  return protectName(
    name,
    () => getProtectedTag(projectId, name),
    () => insertProtectedTag(projectId, name, createAccessLevel),
    () => new ApiError(422, { message: ['Name has already been taken'] }),
  );
}

/** Unprotects a name; `404 Not found` when it is not protected (any more). */
export const removeProtectedTag = (projectId: number, name: string): Promise<void> => unprotectName(deleteProtectedTag(projectId, name));
