/**
 * Project and group access tokens (GitLab's `ResourceAccessTokens::CreateService`, `RevokeService`,
 * `ProjectAccessTokens::RotateService`, `GroupAccessTokens::RotateService`): a token is a personal
 * access token of a bot user that is a member of the project or group; the token's abilities are
 * the bot's membership's (a group's bot reaches the group's subgroups and projects through
 * inherited membership, as any group member). The bot and its token are the users feature's
 * (`createResourceBot`); the membership is written here, with the same transaction as any member
 * (`store/members.ts`: a project or group deleted meanwhile takes no bot, a group bot at the owner
 * level is counted among the group's owners as any owner is).
 *
 * Who may manage them: a project's maintainers and owners (GitLab's `admin_project`), a group's
 * owners (`admin_group`), and admins, never a bot; a token's level never exceeds its creator's
 * (admins: owner).
 */
import { can, getMembership, isAdmin, membershipKeys, membershipFromItem, OWNER, type GroupSubject, type MemberSource, type ProjectSubject } from '../auth';
import { byKey, getMany } from '../platform/dynamo/batch';
import { queryCollection } from '../platform/dynamo/query';
import type { CollectionSource } from '../platform/http/pagination';
import { NotFoundError } from '../platform/http/errors';
import {
  badRequest,
  createResourceBot,
  deleteResourceBot,
  findResourceAccessToken,
  isTokenActive,
  resourceAccessTokensCollection,
  revokeToken,
  rotateToken,
  getUser,
  tokenFromItem,
  type AccessToken,
  type NewResourceBot,
  type User,
} from '../users';
import { ownerCountDelta, removeMembershipOf } from './commands';
import { insertMembership } from './store/members';

/** A project or group access token with its bot's access level there (null when the bot is no member any more). */
export interface ResourceAccessToken {
  token: AccessToken;
  accessLevel: number | null;
}

/** What holds the tokens: a project or a group, as the caller sees it. */
export type TokenHolder = ProjectSubject | GroupSubject;

const sourceOf = (subject: TokenHolder): MemberSource =>
  subject.kind === 'project' ? { kind: 'project', id: subject.project.id } : { kind: 'group', id: subject.group.id };

/** The caller's level in the project or group for the rule "no more than one's own": admins count as owners. */
const callerLevel = (user: User, subject: TokenHolder) => (isAdmin(user) ? OWNER : subject.kind === 'project' ? subject.access.level : subject.level);

/** Whether `user` may list, read, create, revoke and rotate the holder's tokens (`admin_project`, `admin_group`; never a bot). */
export function canManageAccessTokens(user: User, subject: TokenHolder): boolean {
  if (user.bot) return false;
  return subject.kind === 'project' ? can(user, 'admin_project', subject) : can(user, 'admin_group', subject);
}

/**
 * Creates a project or group access token: the bot user with its token, then the bot's membership
 * at `accessLevel`. Bad input and refusals are GitLab's 400s, with nothing written; a membership
 * that cannot be written removes the bot again.
 */
export async function createResourceAccessToken(
  user: User,
  subject: TokenHolder,
  input: NewResourceBot & { accessLevel: number },
): Promise<{ token: ResourceAccessToken; secret: string }> {
  if (!canManageAccessTokens(user, subject)) throw badRequest(`User does not have permission to create ${subject.kind} access token`);
  if (input.accessLevel > callerLevel(user, subject)) throw badRequest('Access level of the token contains permissions not held by the creating user');
  const source = sourceOf(subject);
  const { bot, token, secret } = await createResourceBot(source, input);
  const result = await insertMembership(
    {
      sourceKind: source.kind,
      sourceId: source.id,
      userId: bot.id,
      accessLevel: input.accessLevel,
      expiresAt: null,
      createdAt: new Date().toISOString(),
      createdById: user.id,
    },
    // A group's owners are counted (the last owner rule): an owner bot too, as any owner.
    ownerCountDelta(source, null, input.accessLevel) > 0,
  );
  if (result !== 'added') {
    await deleteResourceBot(bot.id);
    if (result === 'source_gone') throw new NotFoundError(source.kind === 'project' ? 'Project' : 'Group');
    throw badRequest('Could not provision access to the access token');
  }
  return { token: { token, accessLevel: input.accessLevel }, secret };
}

/**
 * The holder's tokens as a list source, by id, only those of `state` when given (checked on each
 * token read, `state` being a token's own field); for `paginate`, then {@link withAccessLevels}.
 */
export function resourceAccessTokenList(subject: TokenHolder, state: 'active' | 'inactive' | undefined): CollectionSource<AccessToken> {
  return {
    collection: resourceAccessTokensCollection(sourceOf(subject)),
    ascending: true,
    select: (item) => {
      const token = tokenFromItem(item);
      return state === undefined || isTokenActive(token) === (state === 'active') ? token : undefined;
    },
  };
}

/** The tokens of a page with their bots' access levels (one BatchGetItem of the bots' memberships). */
export async function withAccessLevels(subject: TokenHolder, tokens: AccessToken[]): Promise<ResourceAccessToken[]> {
  if (tokens.length === 0) return [];
  const source = sourceOf(subject);
  const find = byKey(await getMany(tokens.map((token) => membershipKeys.member(source, token.userId))));
  return tokens.map((token) => {
    const item = find(membershipKeys.member(source, token.userId));
    return { token, accessLevel: item ? membershipFromItem(item).accessLevel : null };
  });
}

/** One of the holder's tokens with its bot's level, or undefined. */
export async function findResourceAccessTokenOf(subject: TokenHolder, tokenId: number): Promise<ResourceAccessToken | undefined> {
  const source = sourceOf(subject);
  const token = await findResourceAccessToken(source, tokenId);
  if (!token) return undefined;
  const membership = await getMembership(source, token.userId);
  return { token, accessLevel: membership?.accessLevel ?? null };
}

/**
 * Revokes a project or group access token and removes its bot: the token is revoked first (it
 * stops working at once), then the bot's membership (an owner bot uncounted, as a deleted user is)
 * and the bot user with everything it has. GitLab answers 400 `<caller> cannot delete <bot>` to a
 * caller who may not manage the holder's tokens.
 */
export async function revokeResourceAccessToken(user: User, subject: TokenHolder, found: ResourceAccessToken): Promise<void> {
  const bot = await getUser(found.token.userId);
  if (!canManageAccessTokens(user, subject)) throw badRequest(`${user.name} cannot delete ${bot?.name ?? found.token.name}`);
  await revokeToken(found.token.userId, found.token.id);
  await removeBot(sourceOf(subject), found.token.userId);
}

/** Removes a bot's membership (no event: the bot is deleted next), then the bot. Internal. */
async function removeBot(source: MemberSource, botId: number): Promise<void> {
  await removeMembershipOf(source, botId);
  await deleteResourceBot(botId);
}

/**
 * Rotates a project or group access token (GitLab's `ProjectAccessTokens::RotateService`,
 * `GroupAccessTokens::RotateService`): the old one is revoked and a new one made for the same bot,
 * expiring on `expiresAt` or a week from today. The caller's level must encompass the bot's; a
 * revoked token answers 400.
 */
export async function rotateResourceAccessToken(
  user: User,
  subject: TokenHolder,
  found: ResourceAccessToken,
  expiresAt: string | undefined,
): Promise<{ token: ResourceAccessToken; secret: string }> {
  if ((found.accessLevel ?? 0) > callerLevel(user, subject)) throw badRequest('Not eligible to rotate token with access level higher than the user');
  const bot = await getUser(found.token.userId);
  if (!bot) throw badRequest('token already revoked');
  const rotated = await rotateToken(bot, found.token, expiresAt);
  return { token: { token: rotated.token, accessLevel: found.accessLevel }, secret: rotated.secret };
}

/**
 * Removes every bot of a project or group being deleted (GitLab deletes them with it): each
 * token's bot loses its membership and is deleted with its tokens. Idempotent: a retry finishes
 * the job. Internal to the two removal steps below.
 */
async function removeBotsOf(source: MemberSource): Promise<void> {
  const bots = new Set<number>();
  for await (const item of queryCollection(resourceAccessTokensCollection(source))) bots.add(tokenFromItem(item).userId);
  for (const botId of bots) await removeBot(source, botId);
}

/** A deleted project's bots go with it: the projects feature's removal step (`removeWithProject`), wired by the Lambda entries. */
export const removeProjectBots = (project: { id: number }): Promise<void> => removeBotsOf({ kind: 'project', id: project.id });

/** A deleted group's bots go with it: the groups feature's removal step (`removeWithGroup`), wired by the Lambda entries. */
export const removeGroupBots = (groupId: number): Promise<void> => removeBotsOf({ kind: 'group', id: groupId });
