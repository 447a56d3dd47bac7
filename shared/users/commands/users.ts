/**
 * User lifecycle writes: validation (GitLab's model errors), creation with a personal namespace,
 * updates that move uniqueness claims, and block/unblock. Deleting a user reaches into projects
 * and members, so it lives apart (`delete-user.ts`).
 */
import { hashPassword } from '../../platform/crypto/password';
import { ApiError, ConflictError, NotFoundError, ValidationError } from '../../platform/http/errors';
import { dropRedirectsBeneath, isValidNamespacePath, NAMESPACE_PATH_MESSAGE, reservedPathMessage } from '../../namespaces';
import { assertValidAvatar, deleteAvatarObject, newStoredAvatar, putAvatarObject, type AvatarChange, type StoredAvatar } from '../avatars';
import { refuseForGhost } from '../ghost';
import { userObjects } from '../store/keys';
import { addUserSearchEntries, insertUser, newUserIds, newUserRecord, removeUserSearchEntries, replaceUser, userSearchEntryKeys, type Identity, type User, type UserClaimField } from '../store/users';
import { notifyUserCreated } from '../lifecycle';

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
  /** A new avatar image, or `''` to remove it (validated with the other fields, stored in S3). */
  avatar?: AvatarChange;
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
  assertValidAvatar(fields.avatar);
}

/** Where a user's avatar's bytes are. */
const avatarKey = (userId: number, avatar: StoredAvatar) => userObjects.avatar(userId, avatar.token, avatar.filename);

/**
 * Writes the bytes of a new avatar (before the user item that will name it); `undefined` when the
 * change is a removal or there is none.
 */
async function stageAvatar(userId: number, change: AvatarChange | undefined): Promise<StoredAvatar | undefined> {
  if (!change) return undefined;
  const avatar = newStoredAvatar(change);
  await putAvatarObject(avatarKey(userId, avatar), avatar, change.data);
  return avatar;
}

/** Deletes the bytes of an avatar no item names (a staged one whose write failed, or a replaced one). */
async function dropAvatar(userId: number, avatar: StoredAvatar | undefined): Promise<void> {
  if (avatar) await deleteAvatarObject(avatarKey(userId, avatar));
}

/** Sets (or with `''` removes) a user's avatar on the user about to be written. */
function withAvatar(user: User, change: AvatarChange | undefined, staged: StoredAvatar | undefined): User {
  if (change === undefined) return user;
  const { avatar: _previous, ...rest } = user;
  return staged ? { ...rest, avatar: staged } : rest;
}

/** GitLab's message when a claimed value is someone else's, by the store's `<field>_taken` result. */
const TAKEN_MESSAGES: Record<`${UserClaimField}_taken`, string> = {
  username_taken: 'Username has already been taken',
  email_taken: 'Email has already been taken',
  extern_uid_taken: 'Extern uid has already been taken',
};

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
  const { id, namespaceId } = await newUserIds();
  const blank = newUserRecord({
    id,
    namespaceId,
    username: input.username,
    name: input.name,
    email: input.email,
    projectsLimit: DEFAULT_PROJECTS_LIMIT,
    ...(input.confirm === false ? { confirmedAt: null } : {}),
  });
  // With reset_password the user sets a password through the reset link; none is stored now.
  const user = await applyFields(blank, input.reset_password ? { ...input, password: undefined } : input);
  user.passwordExpiresAt = null; // A password given at creation is not an admin reset.
  const staged = await stageAvatar(id, input.avatar);
  if (staged) user.avatar = staged;
  // Search entries first (a superset of the truth); a user that was not written takes them back.
  await addUserSearchEntries(undefined, user, user.version);
  const result = await insertUser(user);
  if (result === 'created') {
    // The username took its path: former paths beneath it redirect no more (the one at it went with the write).
    await dropRedirectsBeneath(user.username);
    await notifyUserCreated(user);
    return user;
  }
  await removeUserSearchEntries(userSearchEntryKeys(user));
  await dropAvatar(id, staged);
  // An id already in use (never expected from the sequences) has always answered as a taken username.
  throw new ConflictError(TAKEN_MESSAGES[result === 'id_taken' ? 'username_taken' : result]);
}

/**
 * Updates a user's profile. A username or email already taken by someone else answers 404 with the
 * reason, as the API specification requires for user modification (GitLab's own docs note it).
 */
export async function updateUser(user: User, fields: UserFields): Promise<User> {
  assertValid(fields);
  refuseForGhost(user);
  const staged = await stageAvatar(user.id, fields.avatar);
  const next = withAvatar(await applyFields(user, fields), fields.avatar, staged);
  next.updatedAt = new Date().toISOString();
  // New search entries before the write, the ones it dropped after it (only if it was written).
  const dropped = await addUserSearchEntries(user, next, user.version + 1);
  const result = await replaceUser(user, next);
  if (result !== 'updated') await dropAvatar(user.id, staged);
  if (result === 'conflict') throw new ConflictError('The user was modified by another request; try again');
  if (result !== 'updated') throw new ApiError(404, { message: `404 ${TAKEN_MESSAGES[result]}` });
  await removeUserSearchEntries(dropped, user.version + 1);
  // A new username moved the namespace (its old path now redirects): former paths beneath the new one redirect no more.
  if (user.username.toLowerCase() !== next.username.toLowerCase()) await dropRedirectsBeneath(next.username);
  // The replaced (or removed) avatar's bytes, once no item names them.
  if (fields.avatar !== undefined && user.avatar?.token !== next.avatar?.token) await dropAvatar(user.id, user.avatar);
  return { ...next, version: user.version + 1 };
}

/**
 * Removes a user's identity with a provider (`DELETE /users/:id/identities/:provider`), releasing
 * its `extern_uid` claim; `404 Identity Not Found` when the user has none with that provider.
 */
export async function removeIdentity(user: User, provider: string): Promise<void> {
  const identities = user.identities.filter((identity) => identity.provider !== provider);
  if (identities.length === user.identities.length) throw new NotFoundError('Identity');
  const result = await replaceUser(user, { ...user, identities, updatedAt: new Date().toISOString() });
  if (result !== 'updated') throw new ConflictError('The user was modified by another request; try again');
}
