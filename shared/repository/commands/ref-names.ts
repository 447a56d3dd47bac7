/** Which names may be branches and tags (GitLab's `Gitlab::GitRefValidator`, `Branches::ValidateNewService`). */
import { BRANCH_PREFIX } from '../queries/revisions';
import { MAX_REF_NAME_BYTES } from '../store/refs';

/**
 * Whether a full ref name is well formed (git's `check-ref-format`): under `refs/`, no control
 * characters, spaces or `~^:?*[\\`, no `..`, `@{` or empty component, no component starting with
 * `.` or ending with `.lock`, not ending with `/` or `.`; and short enough to be a key.
 */
export function isValidRefFormat(fullName: string): boolean {
  if (!fullName.startsWith('refs/') || Buffer.byteLength(fullName) > MAX_REF_NAME_BYTES) return false;
  // eslint-disable-next-line no-control-regex
  if (/[\x00-\x20\x7f~^:?*[\\]/.test(fullName) || fullName.includes('..') || fullName.includes('@{')) return false;
  if (fullName.endsWith('/') || fullName.endsWith('.')) return false;
  return fullName.split('/').every((component) => component !== '' && !component.startsWith('.') && !component.endsWith('.lock'));
}

/**
 * Whether a name may be a branch or tag (`Gitlab::GitRefValidator.validate`: git's ref name rules
 * for `refs/heads/<name>`, and no `refs/heads/`, `refs/remotes/`, `refs/tags/`, `-` prefix, nor `HEAD`).
 */
export function isValidRefName(name: string): boolean {
  if (name === '' || name === 'HEAD' || name === '@' || name.startsWith('-')) return false;
  if (['refs/heads/', 'refs/remotes/', 'refs/tags/'].some((prefix) => name.startsWith(prefix))) return false;
  return isValidRefFormat(`${BRANCH_PREFIX}${name}`);
}

/** `Branches::ValidateNewService`: why a name cannot be a new branch, or `undefined`. */
export function validateNewBranchName(name: string, exists: boolean): string | undefined {
  if (!isValidRefName(name)) return 'Branch name is invalid';
  if (exists) return 'Branch already exists';
  return undefined;
}
