/**
 * The auth feature's keys (memberships) stay inside the key space it declares (`keySpace` in
 * `shared/auth/store/keys.ts`), which the platform's key-spaces test checks against every other
 * feature's: each key builder, index attribute and collection is called with sample arguments.
 * Memberships live in the partitions of their groups and projects, which other features own.
 */
import { expect, it } from 'vitest';
import { keySpace, membershipCollections, membershipIndexKeys, membershipKeys, type MemberSource } from '../../shared/auth/store/keys';
import { membershipToItem } from '../../shared/auth/store/memberships';
import type { Collection, Key } from '../../shared/platform/dynamo/keys';
import { describeKeySpace } from '../support/key-space';

const GROUP: MemberSource = { kind: 'group', id: 3 };
const PROJECT: MemberSource = { kind: 'project', id: 42 };

/** Every table key builder, with sample arguments for each kind of source. */
const tableKeys = {
  member: [() => membershipKeys.member(GROUP, 7), () => membershipKeys.member(PROJECT, 7)],
} satisfies Record<keyof typeof membershipKeys, Array<() => Key>>;

const indexKeys = {
  userMembership: [() => membershipIndexKeys.userMembership(7, GROUP), () => membershipIndexKeys.userMembership(7, PROJECT)],
} satisfies Record<keyof typeof membershipIndexKeys, Array<() => Record<string, string>>>;

const collections = {
  members: [() => membershipCollections.members(GROUP), () => membershipCollections.members(PROJECT)],
  userMemberships: [
    () => membershipCollections.userMemberships(7),
    () => membershipCollections.userMemberships(7, 'group'),
    () => membershipCollections.userMemberships(7, 'project'),
  ],
} satisfies Record<keyof typeof membershipCollections, Array<() => Collection>>;

describeKeySpace(
  {
    feature: 'auth',
    keySpace,
    keys: { name: 'membershipKeys', builders: membershipKeys, samples: tableKeys },
    indexKeys: { name: 'membershipIndexKeys', builders: membershipIndexKeys, samples: indexKeys },
    collections: { name: 'membershipCollections', builders: membershipCollections, samples: collections },
    outside: { PK: 'PROJECT#000000000042', SK: 'STAR#000000000007' },
  },
  () => {
    it.each([GROUP, PROJECT])('writes a membership of a %o where its collections read it', (source) => {
      // Prepare
      const item = membershipToItem({ sourceKind: source.kind, sourceId: source.id, userId: 7, accessLevel: 30, expiresAt: null, createdAt: '2024-05-06T00:00:00.000Z', createdById: 1 });
      const within = (collection: Collection) =>
        item[collection.partitionAttribute] === collection.partitionValue && String(item[collection.sortAttribute]).startsWith(collection.prefix ?? '');
      // Assess
      expect(within(membershipCollections.members(source))).toBe(true);
      expect(within(membershipCollections.userMemberships(7))).toBe(true);
      expect(within(membershipCollections.userMemberships(7, source.kind))).toBe(true);
      expect(within(membershipCollections.userMemberships(7, source.kind === 'group' ? 'project' : 'group'))).toBe(false);
    });
  },
);
