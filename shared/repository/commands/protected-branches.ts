/**
 * Writes of the protected branches API (`ProtectedBranches::ApiService`): protect a name or
 * pattern with one push and one merge level (maintainers when not given), change whether force
 * pushes are allowed, unprotect.
 */
import { ConflictError, RecordNotFoundError } from '../../platform/http/errors';
import {
  deleteProtectedBranch,
  getProtectedBranch,
  insertProtectedBranch,
  updateProtectedBranch,
  type ProtectedBranch,
  type ProtectedBranchChanges,
  type ProtectedBranchFields,
} from '../store/protected-branches';
import { protectName, unprotectName } from './protected-refs';

/** Protects a name; 409 `Protected branch '<name>' already exists` when it is. */
export function createProtectedBranch(projectId: number, name: string, fields: ProtectedBranchFields): Promise<ProtectedBranch> {
  return protectName(
    name,
    () => getProtectedBranch(projectId, name),
    () => insertProtectedBranch(projectId, name, fields),
    () => new ConflictError(`Protected branch '${name}' already exists`),
  );
}

/** Changes a protection as read; a protection changed meanwhile is read again and changed. */
export async function editProtectedBranch(branch: ProtectedBranch, changes: ProtectedBranchChanges): Promise<ProtectedBranch> {
  let current: ProtectedBranch | undefined = branch;
  for (let attempt = 0; current && attempt < 3; attempt++) {
    const updated = await updateProtectedBranch(current, changes);
    if (updated !== 'stale') return updated;
    current = await getProtectedBranch(branch.projectId, branch.name);
  }
  if (!current) throw new RecordNotFoundError();
  throw new ConflictError('Protected branch changed meanwhile, try again');
}

/** Unprotects a name; `404 Not found` when it is not protected (any more). */
export const removeProtectedBranch = (projectId: number, name: string): Promise<void> => unprotectName(deleteProtectedBranch(projectId, name));
