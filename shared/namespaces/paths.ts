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

/**
 * GitLab's `PathRegex::TOP_LEVEL_ROUTES`: first path segments the web app (and this service's
 * own routes: `/api/v4`, uploads) own, so no user or top-level group may take them.
 */
const TOP_LEVEL_ROUTES = new Set([
  '-', '.well-known', '404.html', '422.html', '500.html', '502.html', '503.html', 'abuse_reports', 'admin', 'api',
  'apple-touch-icon-precomposed.png', 'apple-touch-icon.png', 'assets', 'autocomplete', 'ci', 'dashboard', 'deploy.html',
  'explore', 'favicon.ico', 'files', 'groups', 'header_logo_dark.png', 'header_logo_light.png', 'health_check', 'help',
  'import', 'invites', 'jwt', 'koding', 'notification_settings', 'oauth', 'profile', 'projects', 'public', 'robots.txt',
  's', 'search', 'sent_notifications', 'slash-command-logo.png', 'snippets', 'u', 'unsubscribes', 'uploads', 'users',
]);

/**
 * GitLab's `PathRegex::PROJECT_WILDCARD_ROUTES` (its one-segment words): words that follow
 * `/<namespace>/<project>/` in routes with a second wildcard, so no project (nor subgroup,
 * whose paths share that position) may be named so.
 */
const PROJECT_WILDCARD_ROUTES = new Set([
  '-', 'badges', 'blame', 'blob', 'builds', 'commits', 'create', 'create_dir', 'edit', 'files', 'find_file', 'new',
  'preview', 'raw', 'refs', 'tree', 'update', 'wikis',
]);

/** Where a path sits: a user's or top-level group's namespace, a subgroup, or a project. */
export type PathPlace = 'top' | 'subgroup' | 'project';

/**
 * GitLab's reserved-name check (`NamespacePathValidator`, `ProjectPathValidator`), case-insensitive:
 * the error message for a reserved `path` at `place`, or `undefined` when it is free to use.
 *
 * @example
 * reservedPathMessage('api', 'top'); // 'api is a reserved name'
 * reservedPathMessage('api', 'project'); // undefined
 */
export function reservedPathMessage(path: string, place: PathPlace): string | undefined {
  const words = place === 'top' ? TOP_LEVEL_ROUTES : PROJECT_WILDCARD_ROUTES;
  return words.has(path.toLowerCase()) ? `${path} is a reserved name` : undefined;
}
