/**
 * The search entries' keys (users, projects, groups, personal namespaces) stay inside the key
 * space each feature declares, and sort by id so a term's entries list the items in id order.
 */
import { describe, expect, it } from 'vitest';
import { keySpace as namespaceSpace, namespaceSearchCollections, namespaceSearchKeys } from '../../shared/namespaces/store/keys';
import type { Key, KeySpace } from '../../shared/platform/dynamo/keys';
import { keySpace as projectSpace, projectSearchCollections, projectSearchKeys } from '../../shared/projects/store/keys';
import { keySpace as userSpace, userSearchCollections, userSearchKeys } from '../../shared/users/store/keys';
import { keySpaceChecks } from '../support/key-space';

const cases: Array<[string, KeySpace, (term: string, id: number) => Key, (term: string) => ReturnType<typeof projectSearchCollections.entries>]> = [
  ['users: name and username', userSpace, userSearchKeys.profile, userSearchCollections.profile],
  ['users: email', userSpace, userSearchKeys.email, userSearchCollections.email],
  ['projects', projectSpace, projectSearchKeys.entry, projectSearchCollections.entries],
  ['groups', namespaceSpace, namespaceSearchKeys.group, namespaceSearchCollections.groups],
  ['personal namespaces', namespaceSpace, namespaceSearchKeys.personal, namespaceSearchCollections.personal],
];

describe.each(cases)('search entries of %s', (_name, space, key, collection) => {
  it('lie in the declared key space, and the collection of a term reads them', () => {
    const checks = keySpaceChecks(space);
    const entry = key('=jo li', 42);
    checks.tableKey(entry);
    checks.collection(collection('=jo li'));
    expect(collection('=jo li').partitionValue).toBe(entry.PK);
  });

  it('sort by id', () => {
    expect(key('log', 9).SK < key('log', 10).SK).toBe(true);
  });
});
