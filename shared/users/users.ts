/**
 * User lifecycle rules: validation (GitLab's model errors), creation with a personal namespace,
 * updates that move uniqueness claims, block/unblock, and complete deletion.
 */
import { DeleteCommand } from '@aws-sdk/lib-dynamodb';
import { hashPassword } from '../platform/crypto/password';
import { config } from '../platform/config';
import { db } from '../platform/dynamo/client';
import { nextId } from '../platform/dynamo/counters';
import { type Key } from '../platform/dynamo/keys';
import { projectCollections, getProject, projectFromItem, deleteProject, unstarProject } from '../projects';
import { userCollections } from './store/keys';
import { queryCollection } from '../platform/dynamo/query';
import { TransactionConditionFailed } from '../platform/dynamo/transactions';
import { paginate, paginateArray, type Page, type PageLinkBase, type PaginationParams } from '../platform/http/pagination';
import { addedClaims, findUserByIdentity, findUserByUsername, getUserRecord, insertUser, markUserDeleting, removeUser, replaceUser, userClaims, userFromItem, userStats, type Identity, type User, type UserState } from './store/users';
import { ApiError, ConflictError, NotModifiedError, ValidationError } from '../platform/http/errors';
import { removeAllMembershipsOf } from '../members';
import { isValidNamespacePath, NAMESPACE_PATH_MESSAGE, reservedPathMessage } from '../groups';

export const DEFAULT_PROJECTS_LIMIT = 100000;

/** The profile fields an admin may set on create and update (already parsed, snake_case API names). */
export interface UserFields {
  email?: string;
  username?: string;
  name?: string;
  password?: string;
  skype?: string;
  linkedin?: string;
  twitter?: string;
  website_url?: string;
  organization?: string;
  projects_limit?: number;
  extern_uid?: string;
  provider?: string;
  bio?: string;
  location?: string;
  admin?: boolean;
  can_create_group?: boolean;
  external?: boolean;
}

export interface CreateUserInput extends UserFields {
  email: string;
  username: string;
  name: string;
  reset_password?: boolean;
  confirm?: boolean;
}

const EMAIL = /^[^@\s]+@[^@\s]+$/;
const MAX_LENGTH = 255;

/** GitLab's model validations, as `{ field: [messages] }`; empty when valid. */
export function validateUserFields(fields: UserFields): Record<string, string[]> {
  const errors: Record<string, string[]> = {};
  const add = (field: string, message: string) => (errors[field] ??= []).push(message);
  if (fields.username !== undefined) {
    const u = fields.username;
    if (!isValidNamespacePath(u)) add('username', NAMESPACE_PATH_MESSAGE);
    const reserved = reservedPathMessage(u, 'top');
    if (reserved) add('username', reserved);
    if (u.length > MAX_LENGTH) add('username', `is too long (maximum is ${MAX_LENGTH} characters)`);
  }
  if (fields.email !== undefined && (!EMAIL.test(fields.email) || fields.email.length > MAX_LENGTH)) add('email', 'is invalid');
  if (fields.name !== undefined) {
    if (fields.name.trim() === '') add('name', "can't be blank");
    if (fields.name.length > MAX_LENGTH) add('name', `is too long (maximum is ${MAX_LENGTH} characters)`);
  }
  if (fields.password !== undefined && fields.password.length < 8) add('password', 'is too short (minimum is 8 characters)');
  if (fields.password !== undefined && fields.password.length > 128) add('password', 'is too long (maximum is 128 characters)');
  if (fields.projects_limit !== undefined && fields.projects_limit < 0) add('projects_limit', 'must be greater than or equal to 0');
  for (const field of ['skype', 'linkedin', 'twitter', 'website_url', 'organization', 'bio', 'location'] as const) {
    const value = fields[field];
    if (value !== undefined && value.length > MAX_LENGTH) add(field, `is too long (maximum is ${MAX_LENGTH} characters)`);
  }
  if ((fields.extern_uid === undefined) !== (fields.provider === undefined)) {
    add(fields.extern_uid === undefined ? 'extern_uid' : 'provider', "can't be blank");
  }
  return errors;
}

function assertValid(fields: UserFields): void {
  const errors = validateUserFields(fields);
  if (Object.keys(errors).length > 0) throw new ValidationError(errors);
}

const CONFLICT_MESSAGES: Record<string, string> = {
  username: 'Username has already been taken',
  email: 'Email has already been taken',
  extern_uid: 'Extern uid has already been taken',
};

/** Which field's claim made a transaction fail, given the claims in transaction order and their offset. */
function takenField(error: TransactionConditionFailed, claims: Array<{ field: string }>, offset: number): string | undefined {
  for (const index of error.failed) {
    const claim = claims[index - offset];
    if (claim) return claim.field;
  }
  return undefined;
}

/** Applies profile fields onto a user (no validation, no persistence). */
async function applyFields(user: User, fields: UserFields): Promise<User> {
  const next: User = { ...user, identities: [...user.identities] };
  if (fields.email !== undefined) next.email = fields.email;
  if (fields.username !== undefined) next.username = fields.username;
  if (fields.name !== undefined) next.name = fields.name;
  if (fields.skype !== undefined) next.skype = fields.skype;
  if (fields.linkedin !== undefined) next.linkedin = fields.linkedin;
  if (fields.twitter !== undefined) next.twitter = fields.twitter;
  if (fields.website_url !== undefined) next.websiteUrl = fields.website_url;
  if (fields.organization !== undefined) next.organization = fields.organization;
  if (fields.bio !== undefined) next.bio = fields.bio;
  if (fields.location !== undefined) next.location = fields.location;
  if (fields.projects_limit !== undefined) next.projectsLimit = fields.projects_limit;
  if (fields.admin !== undefined) next.admin = fields.admin;
  if (fields.can_create_group !== undefined) next.canCreateGroup = fields.can_create_group;
  if (fields.external !== undefined) next.external = fields.external;
  if (fields.password !== undefined) {
    next.passwordDigest = await hashPassword(fields.password);
    // An admin-set password must be changed by the user at next sign-in.
    next.passwordExpiresAt = new Date().toISOString();
  }
  if (fields.extern_uid !== undefined && fields.provider !== undefined) {
    const identity: Identity = { provider: fields.provider, externUid: fields.extern_uid };
    next.identities = [...next.identities.filter((i) => i.provider !== identity.provider), identity];
  }
  return next;
}

/**
 * Creates a user and its personal namespace.
 * @throws ValidationError for invalid fields; ConflictError when username/email/identity is taken.
 */
export async function createUser(input: CreateUserInput): Promise<User> {
  assertValid(input);
  const now = new Date().toISOString();
  const [id, namespaceId] = await Promise.all([nextId('users'), nextId('namespaces')]);
  const blank: User = {
    id,
    username: input.username,
    name: input.name,
    email: input.email,
    state: 'active',
    admin: false,
    bio: '',
    location: '',
    skype: '',
    linkedin: '',
    twitter: '',
    websiteUrl: '',
    organization: '',
    projectsLimit: DEFAULT_PROJECTS_LIMIT,
    canCreateGroup: true,
    external: false,
    passwordDigest: null,
    passwordExpiresAt: null,
    confirmedAt: input.confirm === false ? null : now,
    createdAt: now,
    updatedAt: now,
    lastSignInAt: null,
    currentSignInAt: null,
    lastActivityOn: null,
    colorSchemeId: 1,
    twoFactorEnabled: false,
    identities: [],
    namespaceId,
    version: 1,
  };
  // With reset_password the user sets a password through the reset link; none is stored now.
  const user = await applyFields(blank, input.reset_password ? { ...input, password: undefined } : input);
  user.passwordExpiresAt = null; // A password given at creation is not an admin reset.
  try {
    await insertUser(user);
  } catch (error) {
    if (error instanceof TransactionConditionFailed) {
      const field = takenField(error, userClaims(user), 2);
      throw new ConflictError(CONFLICT_MESSAGES[field ?? 'username']);
    }
    throw error;
  }
  return user;
}

/**
 * Updates a user's profile. A username or email already taken by someone else answers 404 with the
 * reason, as the API specification requires for user modification (GitLab's own docs note it).
 */
export async function updateUser(user: User, fields: UserFields): Promise<User> {
  assertValid(fields);
  const next = await applyFields(user, fields);
  next.updatedAt = new Date().toISOString();
  try {
    await replaceUser(user, next);
  } catch (error) {
    if (error instanceof TransactionConditionFailed) {
      const field = takenField(error, addedClaims(user, next), 0);
      if (field) throw new ApiError(404, { message: `404 ${CONFLICT_MESSAGES[field]}` });
      throw new ConflictError('The user was modified by another request; try again');
    }
    throw error;
  }
  return { ...next, version: user.version + 1 };
}

/** Moves a user between `active` and `blocked`; returns false when it already was in `to`. */
export async function setUserState(user: User, to: UserState): Promise<boolean> {
  if (user.state === to) return false;
  await replaceUser(user, { ...user, state: to, updatedAt: new Date().toISOString() });
  return true;
}

/**
 * Deletes a user and everything stored under it (keys, emails, tokens, and the claims and digest
 * pointers each of them lists in `ownedKeys`, the namespace), its personal projects, its
 * memberships and its stars. The user is first marked as deleting — it stops authenticating and
 * no new child can be added — so nothing is orphaned; a crash midway is finished by a retry.
 * Returns the deleted user, or undefined when there was none.
 */
export async function deleteUser(id: number): Promise<User | undefined> {
  // The record even if marked deleting: a retry finishes a deletion that was interrupted.
  const user = await getUserRecord(id);
  if (!user) return undefined;
  if (!(await markUserDeleting(id))) return undefined;
  // What the user owns or belongs to elsewhere: personal projects, memberships, stars.
  for await (const item of queryCollection(projectCollections.namespaceProjects(user.namespaceId))) {
    // The index may lag a rename: delete the project as it is now.
    const project = await getProject(projectFromItem(item).id);
    if (project) await deleteProject(project);
  }
  await removeAllMembershipsOf(id);
  for await (const item of queryCollection(projectCollections.userStars(id))) {
    const project = await getProject(Number(item.projectId));
    if (project) await unstarProject(project, user).catch((error) => (error instanceof NotModifiedError ? undefined : Promise.reject(error)));
  }
  for await (const item of queryCollection(userCollections.userPartition(id))) {
    if (item.SK === 'USER') continue;
    const owned = (item.ownedKeys as Key[] | undefined) ?? [];
    await Promise.all(owned.map((Key) => db().send(new DeleteCommand({ TableName: config().tableName, Key }))));
    await db().send(new DeleteCommand({ TableName: config().tableName, Key: { PK: item.PK, SK: item.SK } }));
  }
  try {
    await removeUser(user);
  } catch (error) {
    if (error instanceof TransactionConditionFailed) return undefined; // a concurrent deletion won
    throw error;
  }
  return { ...user, deleting: undefined };
}

export interface UserListFilters {
  active?: boolean;
  blocked?: boolean;
  search?: string;
  username?: string;
  extern_uid?: string;
  provider?: string;
  external?: boolean;
  sort?: 'asc' | 'desc';
}

/**
 * One page of users. `username` and `extern_uid`+`provider` are exact lookups on their claims;
 * `active`/`blocked` read the per-state index; `search` and `external` filter after the read (see
 * ACCESS_PATTERNS.md). `searchEmails` lets admins match email addresses too.
 */
export async function listUsers(
  filters: UserListFilters,
  pagination: PaginationParams,
  link: PageLinkBase,
  options: { searchEmails: boolean },
): Promise<Page<User>> {
  const search = filters.search?.toLowerCase();
  const matches = (user: User): boolean =>
    (!filters.active || user.state === 'active') &&
    (!filters.blocked || user.state === 'blocked') &&
    (!filters.external || user.external) &&
    (!search ||
      user.username.toLowerCase().includes(search) ||
      user.name.toLowerCase().includes(search) ||
      (options.searchEmails && user.email.toLowerCase().includes(search)));

  if (filters.username !== undefined || (filters.extern_uid !== undefined && filters.provider !== undefined)) {
    const user =
      filters.username !== undefined
        ? await findUserByUsername(filters.username)
        : await findUserByIdentity(filters.provider!, filters.extern_uid!);
    return paginateArray(pagination, link, user && matches(user) ? [user] : []);
  }

  const state = filters.blocked ? 'blocked' : filters.active ? 'active' : undefined;
  const filtered = Boolean(search || filters.external || (filters.active && filters.blocked));
  return paginate(pagination, link, {
    collection: state ? userCollections.usersInState(state) : userCollections.users(),
    ascending: filters.sort === 'asc',
    select: (item) => {
      const user = userFromItem(item);
      return !user.deleting && matches(user) ? user : undefined;
    },
    total: filtered ? undefined : async () => (await userStats())[state ?? 'all'],
  });
}
