/**
 * The users feature's keys stay inside the key space it declares (`keySpace` in
 * `shared/users/store/keys.ts`), which the platform's key-spaces test checks against every other
 * feature's: each key builder, index attribute and collection is called with sample arguments.
 */
import { expect, it } from 'vitest';
import type { Collection, Key } from '../../shared/platform/dynamo/keys';
import { keySpace, userCollections, userIndexKeys, userKeys } from '../../shared/users/store/keys';
import { describeKeySpace } from '../support/key-space';

/** Every table key builder, with sample arguments (the type makes a new builder without a sample a compile error). */
const tableKeys = {
  user: () => userKeys.user(7),
  sshKey: () => userKeys.sshKey(7, 12),
  email: () => userKeys.email(7, 13),
  token: () => userKeys.token(7, 14),
  gpgKey: () => userKeys.gpgKey(7, 15),
  tokenDigest: () => userKeys.tokenDigest('9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08'),
  stats: () => userKeys.stats(),
  following: () => userKeys.following(7, 16),
  follower: () => userKeys.follower(7, 17),
} satisfies Record<Exclude<keyof typeof userKeys, 'claims'>, () => Key>;

const claimKeys = {
  email: () => userKeys.claims.email('Alice@Example.com'),
  sshFingerprint: () => userKeys.claims.sshFingerprint('SHA256:nThbg6kXUpJWGl7E1IGOCspRomTxdCARLviKw6E5SY8'),
  gpgFingerprint: () => userKeys.claims.gpgFingerprint('0A97802013A6CEA87C3AA5C2193BACA5F342091E'),
  gpgKeyid: () => userKeys.claims.gpgKeyid('6721B3015B09B343'),
  identity: () => userKeys.claims.identity('LDAP', 'uid=alice,ou=people'),
  internalUser: () => userKeys.claims.internalUser('ghost'),
} satisfies Record<keyof typeof userKeys.claims, () => Key>;

const indexKeys = {
  userList: () => userIndexKeys.userList(7),
  userState: () => userIndexKeys.userState('blocked', 7),
  userActivity: () => userIndexKeys.userActivity('2024-05-06', 7),
  sshKeyById: () => userIndexKeys.sshKeyById(12),
  personalToken: () => userIndexKeys.personalToken(9),
  resourceAccessToken: [() => userIndexKeys.resourceAccessToken({ kind: 'project', id: 3 }, 9), () => userIndexKeys.resourceAccessToken({ kind: 'group', id: 4 }, 9)],
  sshKeyByMd5: () => userIndexKeys.sshKeyByMd5('52:7f:22:b3:0c:4e:1a:9d:2f:61:0b:3c:88:aa:01:fe'),
} satisfies Record<keyof typeof userIndexKeys, (() => Record<string, string>) | Array<() => Record<string, string>>>;

const collections = {
  users: () => userCollections.users(),
  usersInState: () => userCollections.usersInState('active'),
  usersActiveSince: () => userCollections.usersActiveSince('2024-05-06'),
  userSshKeys: () => userCollections.userSshKeys(7),
  userEmails: () => userCollections.userEmails(7),
  userTokens: () => userCollections.userTokens(7),
  userGpgKeys: () => userCollections.userGpgKeys(7),
  userPartition: () => userCollections.userPartition(7),
  sshKeyById: () => userCollections.sshKeyById(12),
  personalTokens: () => userCollections.personalTokens(),
  resourceAccessTokens: [() => userCollections.resourceAccessTokens({ kind: 'project', id: 3 }), () => userCollections.resourceAccessTokens({ kind: 'group', id: 4 })],
  sshKeyByMd5: () => userCollections.sshKeyByMd5('52:7f:22:b3:0c:4e:1a:9d:2f:61:0b:3c:88:aa:01:fe'),
  userFollowing: () => userCollections.userFollowing(7),
  userFollowers: () => userCollections.userFollowers(7),
} satisfies Record<keyof typeof userCollections, (() => Collection) | Array<() => Collection>>;

describeKeySpace(
  {
    feature: 'users',
    keySpace,
    keys: { name: 'userKeys', builders: userKeys, samples: tableKeys, claims: claimKeys },
    indexKeys: { name: 'userIndexKeys', builders: userIndexKeys, samples: indexKeys },
    collections: { name: 'userCollections', builders: userCollections, samples: collections, wholePartition: ['userPartition'] },
    outside: { PK: 'USER#000000000007', SK: 'WIDGET#000000000001' },
  },
  () => {
    it('lists each child item in the collection that reads it', () => {
      // Prepare
      const within = (key: Key, collection: Collection) =>
        !collection.index && key.PK === collection.partitionValue && key.SK.startsWith(collection.prefix ?? '');
      // Assess
      expect(within(userKeys.sshKey(7, 12), userCollections.userSshKeys(7))).toBe(true);
      expect(within(userKeys.email(7, 13), userCollections.userEmails(7))).toBe(true);
      expect(within(userKeys.following(7, 16), userCollections.userFollowing(7))).toBe(true);
      expect(within(userKeys.follower(7, 17), userCollections.userFollowers(7))).toBe(true);
      expect(within(userKeys.token(7, 14), userCollections.userTokens(7))).toBe(true);
      expect(within(userKeys.gpgKey(7, 15), userCollections.userGpgKeys(7))).toBe(true);
      expect(within(userKeys.email(7, 13), userCollections.userSshKeys(7))).toBe(false);
      for (const key of [userKeys.user(7), userKeys.sshKey(7, 12), userKeys.email(7, 13), userKeys.token(7, 14), userKeys.gpgKey(7, 15)]) {
        expect(within(key, userCollections.userPartition(7))).toBe(true);
      }
    });
  },
);
