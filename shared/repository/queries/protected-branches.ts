/** Protected branch reads: a project's protections (filtered by name), and one by its exact name. */
import { getProtectedBranch, listProtectedBranches, type ProtectedBranch } from '../store/protected-branches';
import { protectionOrNotFound, protectionsById } from './protected-refs';

/** A project's protected names, oldest first; `search` keeps those containing it (case-insensitively). */
export async function listProjectProtectedBranches(projectId: number, search?: string): Promise<ProtectedBranch[]> {
  return protectionsById(await listProtectedBranches(projectId), search);
}

/** A protection by its exact name (a pattern by the pattern); `404 Not found` otherwise. */
export const findProtectedBranchOrNotFound = (projectId: number, name: string): Promise<ProtectedBranch> => protectionOrNotFound(getProtectedBranch(projectId, name));
