/**
 * Redirect routes (GitLab's `RedirectRoute`): a project or group's former full path, so that the
 * API and git over HTTP still find a project by the path it had before a rename or a transfer
 * (GitLab's `find_by_full_path(…, follow_redirects: true)`, which `find_project` uses; groups are
 * looked up without it, so only project lookups follow them here too).
 *
 * - Written in the rename's or transfer's own transaction ({@link redirectFrom}): a project's old
 *   full path names the project; a group's old full path names the group, and stands for every
 *   path beneath it (`old-group/sub/project`), so a group move writes one item however many
 *   descendants move (GitLab writes one per descendant route).
 * - Dropped ({@link dropRedirectAt}) in the transaction of every write that takes a full path: a
 *   new project or group, a rename or transfer to it (GitLab's `delete_conflicting_redirects`).
 *   Redirects *beneath* a taken path are not dropped (GitLab drops them): a lookup reaches them
 *   only when the path is not found otherwise.
 * - A redirect whose target is gone (deleted) names nothing: the lookup answers not found, and
 *   the path is free to take (taking it drops the item).
 *
 * Cost: nothing on the hit path; a path not found costs one BatchGetItem of the redirect keys of
 * its prefixes (at most {@link MAX_SEGMENTS}), the longest one found winning.
 */
import { getMany } from '../platform/dynamo/batch';
import { tableName } from '../platform/dynamo/client';
import { redirectRouteKeys } from './store/keys';

export interface RedirectTarget {
  kind: 'project' | 'namespace';
  id: number;
}

/** A found redirect: what the longest redirected prefix of a path names, and the rest of the path (`''` or `/…`). */
export interface Redirect {
  target: RedirectTarget;
  rest: string;
}

/** GitLab nests groups at most 20 deep; a project adds one segment. Longer paths are looked up by their first segments only. */
const MAX_SEGMENTS = 21;

/** The transaction item recording `oldFullPath` as a former path of `target` (a rename or a transfer). */
export const redirectFrom = (oldFullPath: string, target: RedirectTarget) => ({
  Put: {
    TableName: tableName(),
    Item: { ...redirectRouteKeys.redirectRoute(oldFullPath), type: 'RedirectRoute', path: oldFullPath, kind: target.kind, targetId: target.id },
  },
});

/** The transaction item dropping any redirect at `fullPath`, which the write takes. */
export const dropRedirectAt = (fullPath: string) => ({ Delete: { TableName: tableName(), Key: redirectRouteKeys.redirectRoute(fullPath) } });

/** The prefixes of a full path, longest first: `a/b/c` → `a/b/c`, `a/b`, `a`. Internal (exported for tests). */
export function pathPrefixes(fullPath: string): string[] {
  const segments = fullPath.split('/').filter(Boolean).slice(0, MAX_SEGMENTS);
  return segments.map((_, i) => segments.slice(0, segments.length - i).join('/'));
}

/**
 * The redirect that applies to `fullPath`: of its prefixes, the longest that is a former path
 * (one BatchGetItem). A project redirect applies only to its whole path.
 */
export async function findRedirect(fullPath: string): Promise<Redirect | undefined> {
  const prefixes = pathPrefixes(fullPath);
  if (prefixes.length === 0) return undefined;
  const items = await getMany(prefixes.map((prefix) => redirectRouteKeys.redirectRoute(prefix)));
  const byPath = new Map(items.map((item) => [String(item.PK), item]));
  const whole = prefixes[0];
  for (const prefix of prefixes) {
    const item = byPath.get(redirectRouteKeys.redirectRoute(prefix).PK);
    if (!item) continue;
    const kind = item.kind === 'project' ? 'project' : 'namespace';
    if (kind === 'project' && prefix !== whole) continue;
    return { target: { kind, id: Number(item.targetId) }, rest: whole.slice(prefix.length) };
  }
  return undefined;
}
