/**
 * Writes of the protected branches API (`ProtectedBranches::ApiService`): protect a name or
 * pattern with one push and one merge level (maintainers when not given), change whether force
 * pushes are allowed, unprotect.
 */
import { ConflictError, RecordNotFoundError, ValidationError } from '../../platform/http/errors';
import {
  deleteProtectedBranch,
  getProtectedBranch,
  insertProtectedBranch,
  updateProtectedBranch,
  type ProtectedBranch,
  type ProtectedBranchChanges,
  type ProtectedBranchFields,
} from '../store/protected-branches';

/** The longest name or pattern protected (GitLab's `ProtectedRef` name, 255 characters). */
const MAX_NAME_LENGTH = 255;

/** Protects a name; 409 `Protected branch '<name>' already exists` when it is. */
export async function createProtectedBranch(projectId: number, name: string, fields: ProtectedBranchFields): Promise<ProtectedBranch> {
  if (name.length > MAX_NAME_LENGTH) throw new ValidationError({ name: [`is too long (maximum is ${MAX_NAME_LENGTH} characters)`] });
  // Read first, so a name already protected is refused before any id is allocated (the insert's
  // condition still decides a race).
  const created = (await getProtectedBranch(projectId, name)) ? 'exists' : await insertProtectedBranch(projectId, name, fields);
  if (created === 'exists') throw new ConflictError(`Protected branch '${name}' already exists`);
  if (created === 'project_gone') throw new RecordNotFoundError();
  return created;
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
export async function removeProtectedBranch(projectId: number, name: string): Promise<void> {
  if (!(await deleteProtectedBranch(projectId, name))) throw new RecordNotFoundError();
}
