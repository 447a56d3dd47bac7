/** Which names may be branches and tags (GitLab's `Gitlab::GitRefValidator`, `Branches::ValidateNewService`). */
import { BRANCH_PREFIX } from '../queries/revisions';
import { MAX_REF_NAME_BYTES } from '../store/refs';

/**
 * Whether a name may be a branch or tag (`Gitlab::GitRefValidator.validate`: git's ref name rules
 * for `refs/heads/<name>`, and no `refs/heads/`, `refs/remotes/`, `refs/tags/`, `-` prefix, nor `HEAD`).
 */
export function isValidRefName(name: string): boolean {
  if (name === '' || name === 'HEAD' || name === '@' || name.startsWith('-')) return false;
  if (['refs/heads/', 'refs/remotes/', 'refs/tags/'].some((prefix) => name.startsWith(prefix))) return false;
  if (Buffer.byteLength(`${BRANCH_PREFIX}${name}`) > MAX_REF_NAME_BYTES) return false;
  // eslint-disable-next-line no-control-regex
  if (/[\x00-\x20\x7f~^:?*[\\]/.test(name) || name.includes('..') || name.includes('@{') || name.includes('//')) return false;
  if (name.startsWith('/') || name.endsWith('/') || name.endsWith('.')) return false;
  return name.split('/').every((component) => !component.startsWith('.') && !component.endsWith('.lock'));
}

/** `Branches::ValidateNewService`: why a name cannot be a new branch, or `undefined`. */
export function validateNewBranchName(name: string, exists: boolean): string | undefined {
  if (!isValidRefName(name)) return 'Branch name is invalid';
  if (exists) return 'Branch already exists';
  return undefined;
}
