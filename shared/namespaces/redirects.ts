/**
 * Redirect routes (GitLab's `RedirectRoute`): a project or namespace's former full path, so that
 * the API and git over HTTP still find a project by the path it had before a rename, a transfer
 * or its owner's username change (GitLab's `find_by_full_path(…, follow_redirects: true)`, which
 * `find_project` uses; groups are looked up without it, so only project lookups follow them here too).
 *
 * - Written in the rename's or transfer's own transaction ({@link redirectFrom}): a project's old
 *   full path names the project; a namespace's old full path (a group's, or a user's old username)
 *   names the namespace, and stands for every path beneath it (`old-group/sub/project`), so a
 *   namespace move writes one item however many descendants move (GitLab writes one per
 *   descendant route).
 * - Dropped when a write takes a full path (a new user, group or project, a rename or transfer to
 *   it): the redirect at the path in the write's transaction ({@link dropRedirectAt}), then those
 *   beneath it ({@link dropRedirectsBeneath}, after the write: GitLab's
 *   `RedirectRoute.matching_path_and_descendants(path).delete_all`), so `new-owner/project` never
 *   reaches a project that lived under the path's former holder.
 * - A redirect whose target is gone (deleted) names nothing: the lookup answers not found, and
 *   the path is free to take (taking it drops the item).
 *
 * Keys: the partition of the path's top-level segment, sorted by full path (`redirectRouteKeys`),
 * so a path's prefixes and everything beneath a path are each in one partition.
 *
 * Cost: nothing on the hit path; a path not found costs one BatchGetItem of the redirect keys of
 * its prefixes (at most {@link MAX_SEGMENTS}, each in both key formats: see
 * `redirectRouteKeys.legacyRedirectRoute`), the longest one found winning. Dropping beneath a
 * path: one Query of its range (usually empty), then BatchWriteItem deletes of what it found.
 */
import { deleteMany, getMany } from '../platform/dynamo/batch';
import { tableName } from '../platform/dynamo/client';
import type { Key } from '../platform/dynamo/keys';
import { queryCollection } from '../platform/dynamo/query';
import { redirectRouteCollections, redirectRouteKeys } from './store/keys';

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

/**
 * The transaction item dropping a redirect at `fullPath` kept in the first key format
 * (`redirectRouteKeys.legacyRedirectRoute`); written last in the transactions that take a path.
 */
export const dropLegacyRedirectAt = (fullPath: string) => ({ Delete: { TableName: tableName(), Key: redirectRouteKeys.legacyRedirectRoute(fullPath) } });

/**
 * Drops the redirects beneath `fullPath` (`a/b/…` for `a/b`), once a write took it: one Query of
 * the range, then batched deletes, a page at a time. Idempotent: a write that failed after its
 * transaction leaves them to the next write taking the path. Returns how many were dropped.
 */
export async function dropRedirectsBeneath(fullPath: string): Promise<number> {
  let dropped = 0;
  let batch: Key[] = [];
  for await (const item of queryCollection(redirectRouteCollections.beneath(fullPath), { pageSize: 100 })) {
    batch.push({ PK: String(item.PK), SK: String(item.SK) });
    if (batch.length === 100) {
      await deleteMany(batch);
      dropped += batch.length;
      batch = [];
    }
  }
  if (batch.length > 0) await deleteMany(batch);
  return dropped + batch.length;
}

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
  const items = await getMany(prefixes.flatMap((prefix) => [redirectRouteKeys.redirectRoute(prefix), redirectRouteKeys.legacyRedirectRoute(prefix)]));
  const byPath = new Map(items.map((item) => [String(item.path).toLowerCase(), item]));
  const whole = prefixes[0];
  for (const prefix of prefixes) {
    const item = byPath.get(prefix.toLowerCase());
    if (!item) continue;
    const kind = item.kind === 'project' ? 'project' : 'namespace';
    if (kind === 'project' && prefix !== whole) continue;
    return { target: { kind, id: Number(item.targetId) }, rest: whole.slice(prefix.length) };
  }
  return undefined;
}
