/** What the protected branches and protected tags APIs read alike: a project's protections in the order GitLab pages them, one by its exact name. */
import { RecordNotFoundError } from '../../platform/http/errors';
import type { ProtectedRefFields } from '../store/protected-refs';

/**
 * Protections oldest first (by id, GitLab's default order of a paged list); `search` keeps those
 * containing it (case-insensitively, as GitLab's `ProtectedBranchesFinder`).
 */
export function protectionsById<T extends ProtectedRefFields>(protections: T[], search?: string): T[] {
  const term = search?.toLowerCase();
  return protections.filter((protection) => !term || protection.name.toLowerCase().includes(term)).sort((a, b) => a.id - b.id);
}

/** A protection read by its exact name (a pattern by the pattern); `404 Not found` when there is none, as GitLab's `find_by!`. */
export async function protectionOrNotFound<T>(read: Promise<T | undefined>): Promise<T> {
  const protection = await read;
  if (!protection) throw new RecordNotFoundError();
  return protection;
}
