/**
 * Redirect routes (`shared/namespaces/redirects.ts`): the prefixes a former path is looked up by,
 * longest first, and the key each is stored under (case-insensitive, in the namespaces' key space).
 */
import { describe, expect, it } from 'vitest';
import { dropLegacyRedirectAt, dropRedirectAt, pathPrefixes, redirectFrom } from '../../shared/namespaces/redirects';
import { keySpace, redirectRouteKeys } from '../../shared/namespaces/store/keys';

describe('pathPrefixes', () => {
  it('lists the prefixes of a path, longest first', () => {
    expect(pathPrefixes('a/b/c')).toEqual(['a/b/c', 'a/b', 'a']);
    expect(pathPrefixes('a')).toEqual(['a']);
    expect(pathPrefixes('')).toEqual([]);
  });

  it('looks a very deep path up by its first 21 segments only', () => {
    const deep = Array.from({ length: 30 }, (_, i) => `s${i}`).join('/');
    expect(pathPrefixes(deep)).toHaveLength(21);
  });
});

describe('redirect route items', () => {
  it('are keyed by the lower-cased path, in the partition of its top segment, which the namespaces feature declares', () => {
    const key = redirectRouteKeys.redirectRoute('Group/Project');
    expect(key).toEqual({ PK: 'REDIRECT_ROUTE#group', SK: 'REDIRECT_ROUTE#group/project' });
    expect(redirectRouteKeys.legacyRedirectRoute('Group/Project')).toEqual({ PK: 'REDIRECT_ROUTE#group/project', SK: 'REDIRECT_ROUTE' });
    expect(keySpace.partitions).toContain('REDIRECT_ROUTE#');
    expect(keySpace.sortKeys['REDIRECT_ROUTE#']).toEqual(['REDIRECT_ROUTE#', 'REDIRECT_ROUTE']);
  });

  it('record the target, and a taken path drops the item at that key', () => {
    expect(redirectFrom('Old/Path', { kind: 'project', id: 7 }).Put.Item).toMatchObject({ ...redirectRouteKeys.redirectRoute('old/path'), kind: 'project', targetId: 7, path: 'Old/Path' });
    expect(dropRedirectAt('OLD/path').Delete.Key).toEqual(redirectRouteKeys.redirectRoute('old/path'));
    expect(dropLegacyRedirectAt('OLD/path').Delete.Key).toEqual(redirectRouteKeys.legacyRedirectRoute('old/path'));
  });
});
