/**
 * The users feature's keys: every key, index attribute and collection of its items is built here,
 * and only here. Its access patterns are listed in ACCESS_PATTERNS.md beside this folder.
 */
import { afterId, type KeySpace, keys, pad, unique, tableCollection, indexCollection, type Key } from '../../platform/dynamo/keys';
import { readYourWrites } from '../../platform/dynamo/recent';

/** What holds a resource access token (GitLab's project and group access tokens): its bot user is a member of it. */
export interface TokenResource {
  kind: 'project' | 'group';
  id: number;
}

/** The GSI2 partition of a resource's access tokens. */
const resourceTokensPartition = (resource: TokenResource) => `${resource.kind === 'project' ? 'PROJECT' : 'GROUP'}_ACCESS_TOKENS#${resource.id}`;

export const userKeys = {
  user: (id: number): Key => ({ PK: `USER#${id}`, SK: 'USER' }),
  sshKey: (userId: number, keyId: number): Key => ({ PK: `USER#${userId}`, SK: `SSHKEY#${pad(keyId)}` }),
  email: (userId: number, emailId: number): Key => ({ PK: `USER#${userId}`, SK: `EMAIL#${pad(emailId)}` }),
  token: (userId: number, tokenId: number): Key => ({ PK: `USER#${userId}`, SK: `TOKEN#${pad(tokenId)}` }),
  gpgKey: (userId: number, keyId: number): Key => ({ PK: `USER#${userId}`, SK: `GPGKEY#${pad(keyId)}` }),
  /** `followerId` follows `followeeId`: in the follower's partition (its following list)… */
  following: (followerId: number, followeeId: number): Key => ({ PK: `USER#${followerId}`, SK: `FOLLOWING#${pad(followeeId)}` }),
  /** …and its mirror in the followee's (its followers list); both written and deleted in one transaction. */
  follower: (followeeId: number, followerId: number): Key => ({ PK: `USER#${followeeId}`, SK: `FOLLOWER#${pad(followerId)}` }),
  /** Points a token's SHA-256 digest at its owner and token id (authentication lookup). */
  tokenDigest: (digest: string): Key => ({ PK: `TOKEN_DIGEST#${digest}`, SK: 'TOKEN' }),
  /** The totals of users by state (`all`, `active`, `blocked`), for `X-Total` without counting. */
  stats: (): Key => keys.stats('USERS'),

  /** Uniqueness claims: an item whose existence reserves a value. */
  claims: {
    email: (email: string): Key => unique('EMAIL', email.toLowerCase()),
    sshFingerprint: (fingerprint: string): Key => unique('SSH_FINGERPRINT', fingerprint),
    /** A GPG key's primary fingerprint (upper-case hex). */
    gpgFingerprint: (fingerprint: string): Key => unique('GPG_FINGERPRINT', fingerprint),
    /** A GPG key id (upper-case hex), its primary key's or a subkey's: names the key's owner and item. */
    gpgKeyid: (keyid: string): Key => unique('GPG_KEYID', keyid),
    identity: (provider: string, externUid: string): Key =>
      unique('IDENTITY', `${provider.toLowerCase()}#${externUid}`),
    /** The one internal user of a kind (`ghost`): names its user id, written with that user (`ghost.ts`). */
    internalUser: (kind: 'ghost'): Key => unique('INTERNAL_USER', kind),
  },
} as const;

/**
 * The users feature's S3 object keys. A user's avatar: `users/<userId>/avatar/<token>/<filename>`
 * (the token is new with every upload, so a replaced avatar never shares a key with the new one).
 */
export const userObjects = {
  avatar: (userId: number, token: string, filename: string): string => `users/${userId}/avatar/${token}/${filename}`,
} as const;

/** Secondary-index attributes, written on the item they index. */
export const userIndexKeys = {
  /** GSI1: all users by id. */
  userList: (id: number) => ({ GSI1PK: 'USERS', GSI1SK: pad(id) }),
  /** GSI2: users of one state (`active`, `blocked`) by id. */
  userState: (state: string, id: number) => ({ GSI2PK: `USERS#${state}`, GSI2SK: pad(id) }),
  /** GSI3: users by last activity day, then id. */
  userActivity: (day: string, id: number) => ({ GSI3PK: 'USER_ACTIVITY', GSI3SK: `${day}#${pad(id)}` }),
  /** GSI1: an SSH key by its global id (for `GET /keys/:id`). */
  sshKeyById: (keyId: number) => ({ GSI1PK: `SSHKEY#${keyId}`, GSI1SK: 'SSHKEY' }),
  /** GSI1: every personal access token by id (for admins' `GET /personal_access_tokens`). */
  personalToken: (tokenId: number) => ({ GSI1PK: 'PERSONAL_TOKENS', GSI1SK: pad(tokenId) }),
  /** GSI2: a project or group access token (its bot's personal token) under its project or group, by id. */
  resourceAccessToken: (resource: TokenResource, tokenId: number) => ({ GSI2PK: resourceTokensPartition(resource), GSI2SK: pad(tokenId) }),
  /** GSI2: an SSH key by its MD5 fingerprint (for `GET /keys?fingerprint=aa:bb:…`). */
  sshKeyByMd5: (fingerprint: string) => ({ GSI2PK: `SSHKEY_MD5#${fingerprint}`, GSI2SK: 'SSHKEY' }),
} as const;

/** The ranges of items one Query reads. */
export const userCollections = {
  /** Every user by id; `after`: only those with a greater id. */
  users: (after?: number) => indexCollection('GSI1', 'USERS', afterId(after)),
  usersInState: (state: string) => indexCollection('GSI2', `USERS#${state}`),
  usersActiveSince: (day: string) => indexCollection('GSI3', 'USER_ACTIVITY', { from: day }),
  userSshKeys: (userId: number) => tableCollection(`USER#${userId}`, 'SSHKEY#'),
  userEmails: (userId: number) => tableCollection(`USER#${userId}`, 'EMAIL#'),
  userTokens: (userId: number) => tableCollection(`USER#${userId}`, 'TOKEN#'),
  userGpgKeys: (userId: number) => tableCollection(`USER#${userId}`, 'GPGKEY#'),
  /** The users a user follows / who follow a user, by their id. */
  userFollowing: (userId: number) => tableCollection(`USER#${userId}`, 'FOLLOWING#'),
  userFollowers: (userId: number) => tableCollection(`USER#${userId}`, 'FOLLOWER#'),
  /** Everything stored in a user's partition (used to delete a user completely). */
  userPartition: (userId: number) => tableCollection(`USER#${userId}`, ''),
  sshKeyById: (keyId: number) => indexCollection('GSI1', `SSHKEY#${keyId}`),
  sshKeyByMd5: (fingerprint: string) => indexCollection('GSI2', `SSHKEY_MD5#${fingerprint}`),
  personalTokens: () => indexCollection('GSI1', 'PERSONAL_TOKENS'),
  /** A project's or a group's access tokens, by id. */
  resourceAccessTokens: (resource: TokenResource) => indexCollection('GSI2', resourceTokensPartition(resource)),
} as const;

/**
 * Search entries (the namespaces feature's `search-index.ts`): one item per term
 * (`shared/platform/search.ts`) and user, sorted by user id. Names and usernames in one space,
 * primary emails in another (only admins search them).
 */
export const userSearchKeys = {
  profile: (term: string, userId: number): Key => ({ PK: `SEARCH_USERS#${term}`, SK: pad(userId) }),
  email: (term: string, userId: number): Key => ({ PK: `SEARCH_USER_EMAILS#${term}`, SK: pad(userId) }),
} as const;

/** The entries of one term, by user id. */
export const userSearchCollections = {
  profile: (term: string) => tableCollection(`SEARCH_USERS#${term}`, ''),
  email: (term: string) => tableCollection(`SEARCH_USER_EMAILS#${term}`, ''),
} as const;

/**
 * Index partitions whose lists show a write at once (read-your-writes journal,
 * `platform/dynamo/recent.ts`): the lists of all users (`USERS`, by state `USERS#<state>`),
 * admins' list of tokens and a token by id, project and group access tokens, SSH keys by id and MD5
 * fingerprint. A user is also found at once by username (a claim, U3) and by search (table
 * entries, U22).
 */
readYourWrites('USERS', 'PERSONAL_TOKENS', 'PROJECT_ACCESS_TOKENS#', 'GROUP_ACCESS_TOKENS#', 'SSHKEY#', 'SSHKEY_MD5#');

/** The prefixes this feature's items occupy (checked against every other feature's by a test). */
export const keySpace: KeySpace = {
  partitions: ['USER#', 'TOKEN_DIGEST#', 'UNIQUE#EMAIL#', 'UNIQUE#SSH_FINGERPRINT#', 'UNIQUE#GPG_FINGERPRINT#', 'UNIQUE#GPG_KEYID#', 'UNIQUE#IDENTITY#', 'UNIQUE#INTERNAL_USER#', 'STATS#USERS', 'SEARCH_USERS#', 'SEARCH_USER_EMAILS#'],
  sortKeys: {
    'USER#': ['USER', 'SSHKEY#', 'EMAIL#', 'TOKEN#', 'GPGKEY#', 'FOLLOWING#', 'FOLLOWER#'],
    'TOKEN_DIGEST#': ['TOKEN'],
    'UNIQUE#EMAIL#': ['UNIQUE'],
    'UNIQUE#SSH_FINGERPRINT#': ['UNIQUE'],
    'UNIQUE#GPG_FINGERPRINT#': ['UNIQUE'],
    'UNIQUE#GPG_KEYID#': ['UNIQUE'],
    'UNIQUE#IDENTITY#': ['UNIQUE'],
    'UNIQUE#INTERNAL_USER#': ['UNIQUE'],
    'STATS#USERS': ['STATS'],
    // Search entries: the user's zero-padded id.
    'SEARCH_USERS#': [''],
    'SEARCH_USER_EMAILS#': [''],
  },
  indexPartitions: { GSI1: ['USERS', 'SSHKEY#', 'PERSONAL_TOKENS'], GSI2: ['USERS#', 'SSHKEY_MD5#', 'PROJECT_ACCESS_TOKENS#', 'GROUP_ACCESS_TOKENS#'], GSI3: ['USER_ACTIVITY'] },
  sequences: ['users', 'ssh_keys', 'emails', 'access_tokens', 'gpg_keys', 'gpg_key_subkeys'],
};
