/** Protected branch reads: a project's protections (filtered by name), and one by its exact name. */
import { RecordNotFoundError } from '../../platform/http/errors';
import { getProtectedBranch, listProtectedBranches, type ProtectedBranch } from '../store/protected-branches';

/**
 * A project's protected names, oldest first (by id, GitLab's default order of a paged list);
 * `search` keeps those containing it (case-insensitively, as GitLab's `ProtectedBranchesFinder`).
 */
export async function listProjectProtectedBranches(projectId: number, search?: string): Promise<ProtectedBranch[]> {
  const term = search?.toLowerCase();
  return (await listProtectedBranches(projectId))
    .filter((branch) => !term || branch.name.toLowerCase().includes(term))
    .sort((a, b) => a.id - b.id);
}

/** A protection by its exact name (a pattern by the pattern); `404 Not found` otherwise, as GitLab's `find_by!`. */
export async function findProtectedBranchOrNotFound(projectId: number, name: string): Promise<ProtectedBranch> {
  const branch = await getProtectedBranch(projectId, name);
  if (!branch) throw new RecordNotFoundError();
  return branch;
}
