/**
 * The User entity: its item shape, and every read and write of users and their uniqueness
 * claims (username/namespace path, primary email, external identities). Concurrency rules:
 * claims are created with `attribute_not_exists` in the same transaction as the user, and
 * every update is conditioned on the version it read, so two racing writers can't both win.
 */
import { isDeepStrictEqual } from 'node:util';
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { db, tableName } from '../../platform/dynamo/client';
import { nextId } from '../../platform/dynamo/counters';
import { getItem, isId, type Item, getEntity, queryCollection } from '../../platform/dynamo/query';
import { ifConditionHolds, markDeleting } from '../../platform/dynamo/conditional';
import type { Key } from '../../platform/dynamo/keys';
import {
  dropLegacyRedirectAt,
  dropRedirectAt,
  namespaceKeys,
  namespaceToItem,
  personalNamespace,
  personalNamespaceSearchKeys,
  personalNamespaceUpdate,
  putSearchEntries,
  redirectFrom,
  removeSearchEntries,
} from '../../namespaces';
import { getMany } from '../../platform/dynamo/batch';
import { searchTerms } from '../../platform/search';
import { userCollections, userIndexKeys, userKeys, userSearchKeys } from './keys';
import { ConditionFailed, transact, type TransactItem } from '../../platform/dynamo/transactions';
import { deleteClaim, entityFields, isLive, putClaim } from '../../platform/dynamo/items';
import type { StoredAvatar } from '../avatars';
import { eachInIdOrder, type MigrationStep } from '../../platform/dynamo/migrations';

/**
 * GitLab's user states (`app/models/user.rb`'s state machine, less `ldap_blocked`: there is no
 * directory synchronisation). Only `active` authenticates; `blocked`, `blocked_pending_approval`
 * and `banned` are GitLab's `blocked?` (`isBlockedState`).
 */
export type UserState = 'active' | 'blocked' | 'deactivated' | 'banned' | 'blocked_pending_approval';

/** GitLab's `blocked?`: true for the states that count as blocked. */
export const isBlockedState = (state: UserState): boolean => state === 'blocked' || state === 'banned' || state === 'blocked_pending_approval';

/** A user's status (GitLab's `UserStatus`): emoji, message, availability, and when it clears itself. */
export interface UserStatus {
  emoji: string;
  message: string | null;
  availability: 'not_set' | 'busy';
  /** When the status stops showing (`clear_status_after`), ISO timestamp; null: never. */
  clearStatusAt: string | null;
}

/** A user's preferences (GitLab's `UserPreference`, the fields the API exposes). */
export interface UserPreferences {
  viewDiffsFileByFile: boolean;
  showWhitespaceInDiffs: boolean;
  passUserIdentitiesToCiJwt: boolean;
}

export interface Identity {
  provider: string;
  externUid: string;
}

export interface User {
  id: number;
  username: string;
  name: string;
  email: string;
  state: UserState;
  admin: boolean;
  bio: string;
  location: string;
  skype: string;
  linkedin: string;
  twitter: string;
  websiteUrl: string;
  organization: string;
  projectsLimit: number;
  canCreateGroup: boolean;
  canCreateProject?: boolean;
  external: boolean;
  /** A project bot (GitLab's `user_type: project_bot`, made for a project access token): no password, only its token authenticates it. */
  bot?: boolean;
  /**
   * The ghost user (GitLab's `user_type: ghost`, `Users::Internal.ghost`): made once, on the first
   * deletion of a user, to show as the author of deleted users' contributions (`ghost.ts`); it
   * cannot be deleted, blocked, edited, nor given credentials.
   */
  ghost?: boolean;
  /** scrypt digest of the password, `salt:hash` (hex); never returned. */
  passwordDigest: string | null;
  /** Set when an admin sets the password: the user must change it at next sign-in. */
  passwordExpiresAt: string | null;
  confirmedAt: string | null;
  createdAt: string;
  updatedAt: string;
  lastSignInAt: string | null;
  currentSignInAt: string | null;
  lastActivityOn: string | null;
  colorSchemeId: number;
  twoFactorEnabled: boolean;
  identities: Identity[];
  namespaceId: number;
  /** Incremented by every update; updates are conditioned on it (optimistic locking). */
  version: number;
  /** Set while the user is being deleted: the user no longer authenticates nor accepts new children. */
  deleting?: boolean;
  /** The user's avatar (`PUT /user/avatar`, `avatar` of create and update); its bytes are in S3 (`userObjects.avatar`). */
  avatar?: StoredAvatar;
  /** The user's status (`PUT /user/status`); written on its own (`writeUserStatus`), never by an edit. */
  status?: UserStatus;
  /** How many users follow this one / this one follows; `ADD`ed with the follow items (`store/follows.ts`), never by an edit. */
  followersCount?: number;
  followingCount?: number;
  /** `PUT /user/preferences`; written on its own (`writeUserPreferences`). */
  preferences?: UserPreferences;
}

/**
 * A new user's record: every field at its default, as GitLab creates a user (active, confirmed
 * now, no password, empty profile), then `fields`. Used by user creation and by the ghost user.
 */
export function newUserRecord(fields: Pick<User, 'id' | 'namespaceId' | 'username' | 'name' | 'email' | 'projectsLimit'> & Partial<User>): User {
  const now = new Date().toISOString();
  return {
    state: 'active',
    admin: false,
    bio: '',
    location: '',
    skype: '',
    linkedin: '',
    twitter: '',
    websiteUrl: '',
    organization: '',
    canCreateGroup: true,
    external: false,
    passwordDigest: null,
    passwordExpiresAt: null,
    confirmedAt: now,
    createdAt: now,
    updatedAt: now,
    lastSignInAt: null,
    currentSignInAt: null,
    lastActivityOn: null,
    colorSchemeId: 1,
    twoFactorEnabled: false,
    identities: [],
    version: 1,
    ...fields,
  };
}

export function userToItem(user: User): Item {
  return {
    ...userKeys.user(user.id),
    ...userIndexKeys.userList(user.id),
    ...userIndexKeys.userState(user.state, user.id),
    ...(user.lastActivityOn ? userIndexKeys.userActivity(user.lastActivityOn, user.id) : {}),
    type: 'User',
    ...user,
  };
}

export function userFromItem(item: Item): User {
  return entityFields(item) as User;
}

export async function getUser(id: number): Promise<User | undefined> {
  const user = await getUserRecord(id);
  return user && !user.deleting ? user : undefined;
}

/** The user item even while it is being deleted (to finish an interrupted deletion). */
export async function getUserRecord(id: number): Promise<User | undefined> {
  if (!isId(id)) return undefined;
  return getEntity(userKeys.user(id), userFromItem);
}

async function claimOwner(key: Key): Promise<number | undefined> {
  const item = await getItem(key);
  return item?.userId as number | undefined;
}

export async function findUserByUsername(username: string): Promise<User | undefined> {
  const id = await claimOwner(namespaceKeys.claims.namespacePath(username));
  return id ? getUser(id) : undefined;
}

export async function findUserByIdentity(provider: string, externUid: string): Promise<User | undefined> {
  const id = await claimOwner(userKeys.claims.identity(provider, externUid));
  return id ? getUser(id) : undefined;
}

type UserWriteListener = (userId: number) => void;
const userWriteListeners: UserWriteListener[] = [];

/**
 * Calls `listener` after every write of a user item made in this process (update, state change,
 * activity, deletion), whether it succeeded or not: what authentication keeps of a user for a
 * moment (`store/tokens.ts`) is dropped at once.
 */
export function onUserWritten(listener: UserWriteListener): void {
  userWriteListeners.push(listener);
}

/** Awaits a write of user `id`, then tells the listeners (also when it failed: its outcome may be unknown). */
async function writingUser<T>(id: number, write: Promise<T>): Promise<T> {
  try {
    return await write;
  } finally {
    for (const listener of userWriteListeners) listener(id);
  }
}

/** A condition that the user exists and is not being deleted (guards writes of child items). */
export const userIsLive = (userId: number) => isLive(userKeys.user(userId));

const statsUpdate = (changes: Record<string, number>): TransactItem => {
  const names: Record<string, string> = {};
  const values: Record<string, number> = {};
  const parts = Object.entries(changes).map(([field, delta], i) => {
    names[`#f${i}`] = field;
    values[`:d${i}`] = delta;
    return `#f${i} :d${i}`;
  });
  return {
    Update: {
      TableName: tableName(),
      Key: userKeys.stats(),
      UpdateExpression: `ADD ${parts.join(', ')}`,
      ExpressionAttributeNames: names,
      ExpressionAttributeValues: values,
    },
  };
};

/** The fields whose values a user claims (unique across users), in the order a failure reports them. */
const CLAIM_FIELDS = ['username', 'email', 'extern_uid'] as const;
export type UserClaimField = (typeof CLAIM_FIELDS)[number];

/** A claim of one of the user's values (its key), and which field it is. */
interface UserClaim {
  key: Key;
  field: UserClaimField;
}

/** Claim items written with a user: username/namespace path, primary email, identities. */
function userClaims(user: User): UserClaim[] {
  return [
    { key: namespaceKeys.claims.namespacePath(user.username), field: 'username' },
    { key: userKeys.claims.email(user.email), field: 'email' },
    ...user.identities.map((identity) => ({
      key: userKeys.claims.identity(identity.provider, identity.externUid),
      field: 'extern_uid' as const,
    })),
  ];
}

/** Transaction entries writing (or releasing) `claims`, one entry per field, so a failure names the field. */
function claimEntries(claims: UserClaim[], write: (key: Key) => TransactItem): Record<UserClaimField, TransactItem[]> {
  const entries = (field: UserClaimField) => claims.filter((claim) => claim.field === field).map(({ key }) => write(key));
  return { username: entries('username'), email: entries('email'), extern_uid: entries('extern_uid') };
}

/** `<field>_taken` for the first field (in {@link CLAIM_FIELDS} order) whose claim made `error`, if any. */
const takenField = (error: ConditionFailed): `${UserClaimField}_taken` | undefined => {
  const field = CLAIM_FIELDS.find((name) => error.failedOn(name));
  return field && `${field}_taken`;
};

/** Fresh ids for a new user and its personal namespace (from the `users` and `namespaces` sequences). */
export async function newUserIds(): Promise<{ id: number; namespaceId: number }> {
  const [id, namespaceId] = await Promise.all([nextId('users'), nextId('namespaces')]);
  return { id, namespaceId };
}

export type UserInsertResult = 'created' | `${UserClaimField}_taken` | 'id_taken';

/**
 * Creates the user, its personal namespace and all its claims in one transaction.
 * @returns `created`, `<field>_taken` when a claimed value (username, email, identity) is someone
 *   else's, or `id_taken` when the user's or namespace's id is already used.
 */
export async function insertUser(user: User): Promise<UserInsertResult> {
  return (await insertUserWith(user, {})) as UserInsertResult;
}

/**
 * {@link insertUser} with `extra` named entries in the same transaction (the ghost user's pointer):
 * `<name>_failed` when one of them made it fail.
 */
export async function insertUserWith(user: User, extra: Record<string, TransactItem>): Promise<UserInsertResult | `${string}_failed`> {
  const claimed = { userId: user.id, namespaceId: user.namespaceId };
  try {
    await transact({
      ...extra,
      user: { Put: { TableName: tableName(), Item: userToItem(user), ConditionExpression: 'attribute_not_exists(PK)' } },
      namespace: {
        Put: {
          TableName: tableName(),
          Item: namespaceToItem(
            personalNamespace({ id: user.namespaceId, username: user.username, ownerId: user.id, createdAt: user.createdAt, avatar: user.avatar }),
          ),
          ConditionExpression: 'attribute_not_exists(PK)',
        },
      },
      ...claimEntries(userClaims(user), (key) => putClaim(key, claimed)),
      // The username is the personal namespace's full path: a redirect left there is dropped (GitLab's
      // `delete_conflicting_redirects`; those beneath it by the command, after the write).
      redirect: dropRedirectAt(user.username),
      stats: statsUpdate({ all: 1, [user.state]: 1 }),
      legacyRedirect: dropLegacyRedirectAt(user.username),
    });
    return 'created';
  } catch (error) {
    if (!(error instanceof ConditionFailed)) throw error;
    // An extra entry's failure first (it is the caller's reason to retry differently).
    const failedExtra = Object.keys(extra).find((name) => error.failedOn(name));
    return failedExtra !== undefined ? `${failedExtra}_failed` : (takenField(error) ?? 'id_taken');
  }
}

export type UserReplaceResult = 'updated' | `${UserClaimField}_taken` | 'conflict';

/**
 * Attributes of the user item only their own writes set: the activity day ({@link recordActivity}),
 * the status, preferences and follow counts. An edit leaves them as they are now.
 */
const ACTIVITY_ATTRIBUTES = new Set(['lastActivityOn', 'GSI3PK', 'GSI3SK', 'status', 'preferences', 'followersCount', 'followingCount']);

/**
 * The edit of a user item: an UpdateItem of the attributes `next` changes (set, or removed when
 * gone), conditioned on the version read and on the user not being deleted. Not a Put of the
 * whole item: the activity day (`recordActivity`, an UpdateItem that leaves the version alone so
 * that activity never fails an edit) may have been written since `previous` was read, and is
 * kept.
 */
function userUpdate(previous: User, next: User): TransactItem {
  const before = userToItem(previous);
  const after = userToItem({ ...next, version: previous.version + 1 });
  const names: Record<string, string> = { '#version': 'version' };
  const values: Record<string, unknown> = { ':version': previous.version };
  const sets: string[] = [];
  const removes: string[] = [];
  for (const name of new Set([...Object.keys(before), ...Object.keys(after)])) {
    if (name === 'PK' || name === 'SK' || ACTIVITY_ATTRIBUTES.has(name) || isDeepStrictEqual(before[name], after[name])) continue;
    const alias = `#a${Object.keys(names).length}`;
    names[alias] = name;
    if (after[name] === undefined) removes.push(alias);
    else {
      values[`:${alias.slice(1)}`] = after[name];
      sets.push(`${alias} = :${alias.slice(1)}`);
    }
  }
  return {
    Update: {
      TableName: tableName(),
      Key: userKeys.user(previous.id),
      // `version` always changes, so there is always something to set.
      UpdateExpression: `SET ${sets.join(', ')}${removes.length > 0 ? ` REMOVE ${removes.join(', ')}` : ''}`,
      ConditionExpression: '#version = :version AND attribute_not_exists(deleting)',
      ExpressionAttributeNames: names,
      ExpressionAttributeValues: values,
    },
  };
}


/**
 * Replaces a user with `next`, moving claims whose values changed. Conditioned on the version of
 * `previous` (and on the user not being deleted), so a concurrent update makes this one fail
 * instead of silently losing a write.
 * @returns `updated`, `<field>_taken` when a newly claimed value is someone else's, or `conflict`
 *   when the user changed (or a released claim stopped being ours) since `previous` was read.
 */
export async function replaceUser(previous: User, next: User): Promise<UserReplaceResult> {
  return writingUser(previous.id, replaceUserItem(previous, next));
}

async function replaceUserItem(previous: User, next: User): Promise<UserReplaceResult> {
  const before = new Map(userClaims(previous).map((c) => [c.key.PK, c]));
  const after = new Map(userClaims(next).map((c) => [c.key.PK, c]));
  const added = [...after.values()].filter((c) => !before.has(c.key.PK));
  const removed = [...before.values()].filter((c) => !after.has(c.key.PK));
  // A new username moves the personal namespace's path: its old path redirects to the namespace
  // (and so every project under it, as a group rename does), and what redirected at the new one is dropped.
  const moved = previous.username.toLowerCase() !== next.username.toLowerCase();
  try {
    await transact({
      ...claimEntries(added, (key) => putClaim(key, { userId: next.id, namespaceId: next.namespaceId })),
      user: userUpdate(previous, next),
      released: removed.map(({ key }) => deleteClaim(key, next.id)),
      // The personal namespace follows the username, and shows its owner's avatar.
      namespace: personalNamespaceUpdate(next.namespaceId, {
        username: previous.username !== next.username ? next.username : undefined,
        avatar: previous.avatar?.token === next.avatar?.token ? undefined : (next.avatar ?? null),
      }),
      stats: previous.state !== next.state && statsUpdate({ [previous.state]: -1, [next.state]: 1 }),
      newRedirect: moved && redirectFrom(previous.username, { kind: 'namespace', id: next.namespaceId }),
      takenRedirect: moved && dropRedirectAt(next.username),
      legacyRedirect: moved && dropLegacyRedirectAt(next.username),
    });
    return 'updated';
  } catch (error) {
    if (!(error instanceof ConditionFailed)) throw error;
    return takenField(error) ?? 'conflict';
  }
}

/**
 * Marks a user as being deleted (again, when finishing an interrupted deletion); false if it does
 * not exist. With `onlyInState` (a rejected sign-up), only while the user is in that state (or
 * already marked): a concurrent state change (an approval) wins over the mark, or loses to it.
 */
export async function markUserDeleting(id: number, onlyInState?: UserState): Promise<boolean> {
  if (!onlyInState) return writingUser(id, markDeleting(userKeys.user(id)));
  return writingUser(
    id,
    ifConditionHolds(
      db().send(
        new UpdateCommand({
          TableName: tableName(),
          Key: userKeys.user(id),
          UpdateExpression: 'SET deleting = :true',
          ConditionExpression: 'attribute_exists(PK) AND (attribute_exists(deleting) OR #state = :state)',
          ExpressionAttributeNames: { '#state': 'state' },
          ExpressionAttributeValues: { ':true': true, ':state': onlyInState },
        }),
      ),
    ),
  ).then((written) => written !== undefined);
}

/**
 * Removes the user item, its namespace and its claims, and updates the stats, atomically; only
 * once: `gone` when the user item is no longer there (a concurrent deletion won).
 */
export async function removeUser(user: User): Promise<'deleted' | 'gone'> {
  return writingUser(user.id, removeUserItems(user));
}

async function removeUserItems(user: User): Promise<'deleted' | 'gone'> {
  try {
    await transact({
      user: { Delete: { TableName: tableName(), Key: userKeys.user(user.id), ConditionExpression: 'attribute_exists(PK)' } },
      namespace: { Delete: { TableName: tableName(), Key: namespaceKeys.namespace(user.namespaceId) } },
      claims: userClaims(user).map(({ key }) => ({ Delete: { TableName: tableName(), Key: key } })),
      stats: statsUpdate({ all: -1, [user.state]: -1 }),
    });
    return 'deleted';
  } catch (error) {
    if (error instanceof ConditionFailed) return 'gone';
    throw error;
  }
}

/** Totals of users (`all`, `active`, `blocked`), maintained by every create, delete and state change. */
export async function userStats(): Promise<Record<string, number>> {
  const item = await getItem(userKeys.stats());
  return { all: Number(item?.all ?? 0), active: Number(item?.active ?? 0), blocked: Number(item?.blocked ?? 0) };
}

/**
 * Records that the user was active today. At most one write per user per day: the write is
 * skipped when the user item already says today, and conditioned so racing requests write once.
 */
export async function recordActivity(user: User, day: string): Promise<void> {
  if (user.lastActivityOn === day) return;
  await writingUser(user.id, ifConditionHolds(
    db().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: userKeys.user(user.id),
        UpdateExpression: 'SET lastActivityOn = :day, GSI3PK = :gsi3pk, GSI3SK = :gsi3sk',
        ConditionExpression: 'attribute_exists(PK) AND (attribute_not_exists(lastActivityOn) OR lastActivityOn <> :day)',
        ExpressionAttributeValues: { ':day': day, ...prefixValues(userIndexKeys.userActivity(day, user.id)) },
      }),
    ),
  ));
}

/** The attributes a user's edits never write, each set on its own (`changeUserAttribute`). */
type OwnAttribute = 'status' | 'preferences';

/** How many times a change of an own attribute is computed again after losing a race. */
const ATTRIBUTE_ATTEMPTS = 5;

/**
 * Sets (or, when `next` gives `undefined`, removes) one attribute a user's edits never write
 * (`status`, `preferences`), computed by `next` from the user as read: an UpdateItem conditioned on
 * the user existing, not being deleted, and the attribute still being what `next` saw (two
 * requests changing different fields both count); on a lost race the user is read again and `next`
 * asked again. The version is left alone (an edit racing it neither fails nor undoes it). Answers
 * what was written, or `gone` when there is no such user (or it is being deleted).
 */
export async function changeUserAttribute<K extends OwnAttribute>(user: User, name: K, next: (user: User) => User[K]): Promise<{ value: User[K] } | 'gone'> {
  let current: User | undefined = user;
  for (let attempt = 0; attempt < ATTRIBUTE_ATTEMPTS && current && !current.deleting; attempt++) {
    const was = current[name];
    const value = next(current);
    const written = await writingUser(current.id, ifConditionHolds(
      db().send(
        new UpdateCommand({
          TableName: tableName(),
          Key: userKeys.user(current.id),
          UpdateExpression: value === undefined ? 'REMOVE #a' : 'SET #a = :v',
          ConditionExpression: `attribute_exists(PK) AND attribute_not_exists(deleting) AND ${was === undefined ? 'attribute_not_exists(#a)' : '#a = :was'}`,
          ExpressionAttributeNames: { '#a': name },
          ...(value === undefined && was === undefined ? {} : { ExpressionAttributeValues: { ...(value === undefined ? {} : { ':v': value }), ...(was === undefined ? {} : { ':was': was }) } }),
        }),
      ),
    ));
    if (written !== undefined) return { value };
    current = await getUser(current.id);
  }
  if (current && !current.deleting) throw new Error(`user ${user.id}: ${name} kept changing`);
  return 'gone';
}

const prefixValues = (attrs: { GSI3PK: string; GSI3SK: string }) => ({ ':gsi3pk': attrs.GSI3PK, ':gsi3sk': attrs.GSI3SK });

// ---------------------------------------------------------------------------------------------
// Search entries (the namespaces feature's `search-index.ts`): a user is found by name and
// username (`SEARCH_USERS#<term>`), by primary email for admins (`SEARCH_USER_EMAILS#<term>`), and
// its personal namespace by the username (`SEARCH_USER_NAMESPACES#<term>`). The commands add them
// before the user's write and remove what it dropped after it.
// ---------------------------------------------------------------------------------------------

/** Users by id (one BatchGetItem per 100, consistent), including ones being deleted; missing ones left out. */
export async function getUsers(ids: number[]): Promise<User[]> {
  return (await getMany(ids.filter(isId).map((id) => userKeys.user(id)))).map(userFromItem);
}

/** The id of the user whose primary or secondary email is `email` (its claim), if any. */
export const userIdByEmail = (email: string): Promise<number | undefined> => claimOwner(userKeys.claims.email(email));

/** Every search entry key of a user as it is. */
export function userSearchEntryKeys(user: Pick<User, 'id' | 'name' | 'username' | 'email' | 'namespaceId'>): Key[] {
  return [
    ...searchTerms(user.name, user.username).map((term) => userSearchKeys.profile(term, user.id)),
    ...searchTerms(user.email).map((term) => userSearchKeys.email(term, user.id)),
    ...personalNamespaceSearchKeys(user.username, user.namespaceId),
  ];
}

const entryId = (key: Key) => `${key.PK}\u0000${key.SK}`;

/**
 * Writes the entries `next` has and `previous` (undefined for a new user) has not, for the user
 * version `version`, before the user's write; returns the keys `next` no longer has, for
 * {@link removeUserSearchEntries} after the write succeeded.
 */
export async function addUserSearchEntries(previous: User | undefined, next: User, version: number): Promise<Key[]> {
  const before = previous ? userSearchEntryKeys(previous) : [];
  const after = userSearchEntryKeys(next);
  const had = new Set(before.map(entryId));
  const has = new Set(after.map(entryId));
  await putSearchEntries(after.filter((key) => !had.has(entryId(key))), { userId: next.id, namespaceId: next.namespaceId }, version);
  return before.filter((key) => !has.has(entryId(key)));
}

/** Removes entries after the write that dropped them (`version`: the version it wrote), or all of a deleted user's (no version). */
export const removeUserSearchEntries = (keys: Key[], version?: number): Promise<void> => removeSearchEntries(keys, version);

/**
 * The data migration that writes every search entry of every user (the all-users index, a Query
 * page at a time; idempotent), for users written before search entries existed: resumable, a
 * checkpoint after each user.
 */
export const backfillUserSearchEntries: MigrationStep = eachInIdOrder(
  async function* liveUsers(after) {
    for await (const item of queryCollection(userCollections.users(after))) {
      const user = userFromItem(item);
      if (!user.deleting) yield user;
    }
  },
  (user) => user.id,
  async (user) => {
    await putSearchEntries(userSearchEntryKeys(user), { userId: user.id, namespaceId: user.namespaceId }, user.version);
    return 1;
  },
);
