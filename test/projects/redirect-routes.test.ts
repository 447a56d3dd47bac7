/**
 * Redirect routes keyed for GitLab's `matching_path_and_descendants`: every redirect in the
 * partition of its top-level segment, by lower-cased full path, so the redirects beneath a path
 * are one range (and a path's prefixes one partition); the range does not reach siblings that
 * merely share a prefix (`group/ab` is not beneath `group/a`).
 */
import { describe, expect, it } from 'vitest';
import { redirectRouteCollections, redirectRouteKeys, keySpace } from '../../shared/namespaces/store/keys';

describe('redirect route keys', () => {
  it('live in the partition of the top-level segment, sorted by full path', () => {
    expect(redirectRouteKeys.redirectRoute('Group/Sub/Project')).toEqual({ PK: 'REDIRECT_ROUTE#group', SK: 'REDIRECT_ROUTE#group/sub/project' });
    expect(redirectRouteKeys.redirectRoute('Alice')).toEqual({ PK: 'REDIRECT_ROUTE#alice', SK: 'REDIRECT_ROUTE#alice' });
    expect(keySpace.sortKeys['REDIRECT_ROUTE#']).toEqual(['REDIRECT_ROUTE#', 'REDIRECT_ROUTE']);
  });

  it('the range beneath a path holds its descendants only', () => {
    const beneath = redirectRouteCollections.beneath('Group/A');
    expect(beneath).toMatchObject({ partitionValue: 'REDIRECT_ROUTE#group', prefix: 'REDIRECT_ROUTE#group/a/' });
    const inRange = (path: string) => {
      const key = redirectRouteKeys.redirectRoute(path);
      return key.PK === beneath.partitionValue && key.SK.startsWith(beneath.prefix!);
    };
    expect(inRange('group/a/project')).toBe(true);
    expect(inRange('group/a/sub/project')).toBe(true);
    expect(inRange('group/a')).toBe(false);
    expect(inRange('group/ab/project')).toBe(false);
    expect(inRange('other/a/project')).toBe(false);
  });
});
