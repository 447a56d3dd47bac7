/**
 * GitLab's namespace path rule, shared by usernames (a user's personal namespace path) and group
 * paths: letters, digits, `_`, `-`, `.`; not starting with `-`, not ending in `.`, `.git`, `.atom`.
 */
const PATH = /^[a-zA-Z0-9_.][a-zA-Z0-9_.-]*$/;

export const NAMESPACE_PATH_MESSAGE =
  "can contain only letters, digits, '_', '-' and '.'. Cannot start with '-' or end in '.', '.git' or '.atom'.";

export function isValidNamespacePath(path: string): boolean {
  return PATH.test(path) && !path.endsWith('.') && !/\.(git|atom)$/i.test(path);
}
