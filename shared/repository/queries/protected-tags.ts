/** Protected tag reads: a project's protected tags, and one by its exact name. */
import { getProtectedTag, listProtectedTags, type ProtectedTag } from '../store/protected-tags';
import { protectionOrNotFound, protectionsById } from './protected-refs';

/** A project's protected tags, oldest first. */
export async function listProjectProtectedTags(projectId: number): Promise<ProtectedTag[]> {
  return protectionsById(await listProtectedTags(projectId));
}

/** A protection by its exact name (a pattern by the pattern); `404 Not found` otherwise. */
export const findProtectedTagOrNotFound = (projectId: number, name: string): Promise<ProtectedTag> => protectionOrNotFound(getProtectedTag(projectId, name));
