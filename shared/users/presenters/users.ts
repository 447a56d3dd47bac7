/**
 * Response entities of the Users API, in GitLab's forms. Which form a caller gets is decided by
 * the route (public for everyone, single-user for one user, admin for admins); serializers never
 * look at permissions themselves.
 */
import { config } from '../../platform/config';
import { avatarUrl } from '../avatars';
import type { Email } from '../store/emails';
import type { GpgKey } from '../store/gpg-keys';
import type { SshKey } from '../store/ssh-keys';
import { isTokenActive, type AccessToken } from '../store/tokens';
import type { User, UserStatus } from '../store/users';

/** Public form: what anyone may see of any user. */
export function presentUserPublic(user: User) {
  return {
    id: user.id,
    username: user.username,
    name: user.name,
    state: user.state,
    avatar_url: avatarUrl('user', user.id, user.avatar),
    web_url: `${config().externalUrl}/${user.username}`,
  };
}

/** Single-user form (`GET /users/:id` for non-admins): public profile fields added. */
export function presentUserSingle(user: User) {
  return {
    ...presentUserPublic(user),
    created_at: user.createdAt,
    bio: user.bio || null,
    location: user.location || null,
    skype: user.skype,
    linkedin: user.linkedin,
    twitter: user.twitter,
    website_url: user.websiteUrl,
    organization: user.organization,
    // GitLab's `bot?`: a project access token's bot user (`commands/bots.ts`).
    bot: user.bot === true,
    // GitLab's `Entities::User`: how many users follow this one / it follows (maintained with the follows).
    followers: user.followersCount ?? 0,
    following: user.followingCount ?? 0,
  };
}

/** The admin form minus sign-in details, as embedded in `GET /keys/:id` and `GET /keys?fingerprint=` (a user's or a deploy key's owner). */
export function presentUserAdminCore(user: User) {
  return {
    ...presentUserSingle(user),
    email: user.email,
    color_scheme_id: user.colorSchemeId,
    projects_limit: user.projectsLimit,
    current_sign_in_at: user.currentSignInAt,
    identities: user.identities.map((i) => ({ provider: i.provider, extern_uid: i.externUid })),
    can_create_group: user.canCreateGroup,
    can_create_project: user.projectsLimit > 0,
    two_factor_enabled: user.twoFactorEnabled,
  };
}

/** Admin form: for admins, and for the current user about themselves. */
export function presentUserAdmin(user: User) {
  return {
    ...presentUserAdminCore(user),
    last_sign_in_at: user.lastSignInAt,
    confirmed_at: user.confirmedAt,
    last_activity_on: user.lastActivityOn,
    external: user.external,
  };
}

/** `GET /user` as an admin using sudo: also `is_admin` and the token that authenticated the call. */
export function presentUserWithSudo(user: User, privateToken: string) {
  return { ...presentUserAdmin(user), is_admin: user.admin, private_token: privateToken };
}

export function presentSshKey(key: SshKey) {
  return { id: key.id, title: key.title, key: key.key, created_at: key.createdAt };
}

/** GitLab's `GpgKey` entity. */
export function presentGpgKey(key: GpgKey) {
  return { id: key.id, key: key.key, created_at: key.createdAt };
}

export function presentSshKeyWithUser(key: SshKey, user: User) {
  return { ...presentSshKey(key), user: presentUserAdminCore(user) };
}

export function presentEmail(email: Email) {
  return { id: email.id, email: email.email };
}

/**
 * Impersonation token. The secret exists only when the token was just created; afterwards only its
 * digest is stored, so lists and reads never carry it.
 */
/** GitLab's `PersonalAccessToken` entity; `token` only where the secret was just made (create, rotate). */
export function presentPersonalAccessToken(token: AccessToken, secret?: string) {
  return {
    id: token.id,
    name: token.name,
    revoked: token.revoked,
    created_at: token.createdAt,
    description: token.description ?? null,
    scopes: token.scopes,
    user_id: token.userId,
    last_used_at: null,
    active: isTokenActive(token),
    expires_at: token.expiresAt,
    ...(secret ? { token: secret } : {}),
  };
}

export function presentImpersonationToken(token: AccessToken, secret?: string) {
  return {
    id: token.id,
    name: token.name,
    revoked: token.revoked,
    created_at: token.createdAt,
    scopes: token.scopes,
    user_id: token.userId,
    active: isTokenActive(token),
    expires_at: token.expiresAt,
    impersonation: token.impersonation,
    ...(secret ? { token: secret } : {}),
  };
}

export function presentUserActivity(user: User) {
  return { username: user.username, last_activity_on: user.lastActivityOn, last_activity_at: user.lastActivityOn };
}

const escapeHtml = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&#39;');

/**
 * GitLab's `UserStatus` entity; without a status every field is null (GitLab presents `{}`).
 * `message_html` is the message HTML-escaped (GitLab renders its emoji codes as `<gl-emoji>` too).
 */
export function presentUserStatus(status: UserStatus | undefined) {
  return {
    emoji: status?.emoji ?? null,
    message: status?.message ?? null,
    availability: status?.availability ?? null,
    message_html: status?.message != null ? escapeHtml(status.message) : null,
    clear_status_at: status?.clearStatusAt ?? null,
  };
}

/** GitLab's `UserPreferences` entity. */
export function presentUserPreferences(user: User) {
  const preferences = user.preferences;
  return {
    id: user.id,
    user_id: user.id,
    view_diffs_file_by_file: preferences?.viewDiffsFileByFile ?? false,
    show_whitespace_in_diffs: preferences?.showWhitespaceInDiffs ?? true,
    pass_user_identities_to_ci_jwt: preferences?.passUserIdentitiesToCiJwt ?? false,
  };
}
