/**
 * Project and group bot users, as GitLab's `ResourceAccessTokens::CreateService` makes them for a
 * project or group access token: a user named after the token, with username
 * `<project|group>_<id>_bot_<32 hex>` and email `<username>@noreply.<host>`, confirmed, without a
 * password (it cannot sign in: only its token authenticates), marked `bot` (GitLab's
 * `project_bot` user type, for groups' bots too). Its one personal access token carries the
 * project's or group's id, which indexes it there (`PROJECT_ACCESS_TOKENS#<id>`,
 * `GROUP_ACCESS_TOKENS#<id>`). The membership that gives the bot its access is the members
 * feature's (which builds on this one).
 */
import { randomBytes } from 'node:crypto';
import { config } from '../../platform/config';
import { BadRequestError, ConflictError } from '../../platform/http/errors';
import { replaceUser, type User } from '../store/users';
import type { TokenResource } from '../store/keys';
import type { AccessToken, TokenScope } from '../store/tokens';
import { createAccessToken } from './credentials';
import { deleteUser } from './delete-user';
import { createUser } from './users';

/** GitLab's `PersonalAccessToken::MAX_PERSONAL_ACCESS_TOKEN_LIFETIME_IN_DAYS`. */
export const MAX_TOKEN_LIFETIME_DAYS = 365;

const dayFromToday = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10);

/** GitLab's `400 Bad request - <reason>` (`bad_request!(service.message)`). */
export const badRequest = (reason: string) => new BadRequestError(`400 Bad request - ${reason}`);

export interface NewResourceBot {
  /** The token's name, also the bot's. */
  name: string;
  scopes: TokenScope[];
  /** First day without access; GitLab's default when omitted: the longest lifetime allowed (365 days). */
  expiresAt: string | undefined;
  description: string | null;
}

/**
 * Checks a project or group access token's fields as GitLab's `PersonalAccessToken` validations do, before
 * anything is written: expiry in the future and within 365 days, name and description at most 255
 * characters. Returns the expiry day to store.
 */
export function validateResourceToken(input: NewResourceBot): string {
  const today = dayFromToday(0);
  const expiresAt = input.expiresAt ?? dayFromToday(MAX_TOKEN_LIFETIME_DAYS);
  const latest = dayFromToday(MAX_TOKEN_LIFETIME_DAYS);
  if (input.name.trim() === '') throw badRequest("Name can't be blank");
  if (input.name.length > 255) throw badRequest('Name is too long (maximum is 255 characters)');
  if (input.description !== null && input.description.length > 255) throw badRequest('Description is too long (maximum is 255 characters)');
  if (expiresAt <= today) throw badRequest('Expires at must be in the future');
  if (expiresAt > latest) throw badRequest(`Expires at must be before ${latest}`);
  return expiresAt;
}

/**
 * Creates a project's or group's bot user and its access token (the secret returned once). Three writes: the
 * user (with its namespace and claims, `createUser`), its `bot` mark (version-conditioned), then
 * the token; a failure after the first removes the bot again. Until it is marked the new user has
 * no password nor token, so nothing can act as it.
 *
 * @throws BadRequestError for invalid fields (nothing written).
 */
export async function createResourceBot(resource: TokenResource, input: NewResourceBot): Promise<{ bot: User; token: AccessToken; secret: string }> {
  const expiresAt = validateResourceToken(input);
  const username = `${resource.kind}_${resource.id}_bot_${randomBytes(16).toString('hex')}`;
  const created = await createUser({ username, email: `${username}@noreply.${new URL(config().externalUrl).hostname}`, name: input.name, confirm: true });
  try {
    const bot: User = { ...created, bot: true, updatedAt: new Date().toISOString() };
    if ((await replaceUser(created, bot)) !== 'updated') throw new ConflictError('The bot user was modified by another request; try again');
    bot.version = created.version + 1;
    const { token, secret } = await createAccessToken(bot, {
      name: input.name,
      scopes: input.scopes,
      impersonation: false,
      expiresAt,
      description: input.description,
      resource,
    });
    return { bot, token, secret };
  } catch (error) {
    await deleteUser(created.id);
    throw error;
  }
}

/**
 * Deletes a project's or group's bot user with its token (GitLab schedules the bot's deletion when its token
 * is revoked): the users feature's `deleteUser`, so the token's digest pointer, the namespace and
 * the claims go too. The caller removes the bot's membership first.
 */
export async function deleteResourceBot(botId: number): Promise<void> {
  await deleteUser(botId);
}
