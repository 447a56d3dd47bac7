/**
 * Project access tokens (GitLab's `ResourceAccessTokens::CreateService`, `RevokeService`,
 * `ProjectAccessTokens::RotateService`): a token is a personal access token of a bot user that is a
 * member of the project; the token's abilities are the bot's membership's. The bot and its token
 * are the users feature's (`createProjectBot`); the membership is written here, with the same
 * transaction as any member (`store/members.ts`), so a project deleted meanwhile takes no bot.
 *
 * Who may manage them: the project's maintainers and owners, and admins (GitLab's
 * `admin_project`), never a bot; a token's level never exceeds its creator's (admins: owner).
 */
import { can, getMembership, isAdmin, membershipKeys, membershipFromItem, OWNER, type MemberSource, type ProjectSubject } from '../auth';
import { byKey, getMany } from '../platform/dynamo/batch';
import { queryCollection } from '../platform/dynamo/query';
import type { CollectionSource } from '../platform/http/pagination';
import { NotFoundError } from '../platform/http/errors';
import {
  badRequest,
  createProjectBot,
  deleteProjectBot,
  findProjectAccessToken,
  isTokenActive,
  projectAccessTokensCollection,
  revokeToken,
  rotateToken,
  getUser,
  tokenFromItem,
  type AccessToken,
  type NewProjectBot,
  type User,
} from '../users';
import { insertMembership, removeMembership } from './store/members';

/** A project access token with its bot's access level in the project (null when the bot is no member any more). */
export interface ProjectAccessToken {
  token: AccessToken;
  accessLevel: number | null;
}

const sourceOf = (subject: ProjectSubject): MemberSource => ({ kind: 'project', id: subject.project.id });

/** The caller's level in the project for the rule "no more than one's own": admins count as owners. */
const callerLevel = (user: User, subject: ProjectSubject) => (isAdmin(user) ? OWNER : subject.access.level);

/** Whether `user` may list, read, create, revoke and rotate the project's tokens (GitLab's `admin_project`; never a bot). */
export const canManageAccessTokens = (user: User, subject: ProjectSubject): boolean => !user.bot && can(user, 'admin_project', subject);

/**
 * Creates a project access token: the bot user with its token, then the bot's membership at
 * `accessLevel`. Bad input and refusals are GitLab's 400s, with nothing written; a membership that
 * cannot be written removes the bot again.
 */
export async function createProjectAccessToken(
  user: User,
  subject: ProjectSubject,
  input: NewProjectBot & { accessLevel: number },
): Promise<{ token: ProjectAccessToken; secret: string }> {
  if (!canManageAccessTokens(user, subject)) throw badRequest('User does not have permission to create project access token');
  if (input.accessLevel > callerLevel(user, subject)) throw badRequest('Access level of the token contains permissions not held by the creating user');
  const { bot, token, secret } = await createProjectBot(subject.project.id, input);
  const result = await insertMembership(
    {
      sourceKind: 'project',
      sourceId: subject.project.id,
      userId: bot.id,
      accessLevel: input.accessLevel,
      expiresAt: null,
      createdAt: new Date().toISOString(),
      createdById: user.id,
    },
    false,
  );
  if (result !== 'added') {
    await deleteProjectBot(bot.id);
    if (result === 'source_gone') throw new NotFoundError('Project');
    throw badRequest('Could not provision access to the access token');
  }
  return { token: { token, accessLevel: input.accessLevel }, secret };
}

/**
 * The project's tokens as a list source, by id, only those of `state` when given (checked on each
 * token read, `state` being a token's own field); for `paginate`, then {@link withAccessLevels}.
 */
export function projectAccessTokenList(subject: ProjectSubject, state: 'active' | 'inactive' | undefined): CollectionSource<AccessToken> {
  return {
    collection: projectAccessTokensCollection(subject.project.id),
    ascending: true,
    select: (item) => {
      const token = tokenFromItem(item);
      return state === undefined || isTokenActive(token) === (state === 'active') ? token : undefined;
    },
  };
}

/** The tokens of a page with their bots' access levels (one BatchGetItem of the bots' memberships). */
export async function withAccessLevels(subject: ProjectSubject, tokens: AccessToken[]): Promise<ProjectAccessToken[]> {
  if (tokens.length === 0) return [];
  const source = sourceOf(subject);
  const find = byKey(await getMany(tokens.map((token) => membershipKeys.member(source, token.userId))));
  return tokens.map((token) => {
    const item = find(membershipKeys.member(source, token.userId));
    return { token, accessLevel: item ? membershipFromItem(item).accessLevel : null };
  });
}

/** One of the project's tokens with its bot's level, or undefined. */
export async function findProjectAccessTokenOf(subject: ProjectSubject, tokenId: number): Promise<ProjectAccessToken | undefined> {
  const token = await findProjectAccessToken(subject.project.id, tokenId);
  if (!token) return undefined;
  const membership = await getMembership(sourceOf(subject), token.userId);
  return { token, accessLevel: membership?.accessLevel ?? null };
}

/**
 * Revokes a project access token and removes its bot: the token is revoked first (it stops
 * working at once), then the bot's membership and the bot user with everything it has. GitLab
 * answers 400 `<caller> cannot delete <bot>` to a caller who may not manage the project's tokens.
 */
export async function revokeProjectAccessToken(user: User, subject: ProjectSubject, found: ProjectAccessToken): Promise<void> {
  const bot = await getUser(found.token.userId);
  if (!canManageAccessTokens(user, subject)) throw badRequest(`${user.name} cannot delete ${bot?.name ?? found.token.name}`);
  await revokeToken(found.token.userId, found.token.id);
  await removeBotMembership(sourceOf(subject), found.token.userId);
  await deleteProjectBot(found.token.userId);
}

/** How often the removal of a bot's membership reads it again after a concurrent edit. */
const MAX_ATTEMPTS = 5;

/** Removes a bot's membership of a project (no event: the bot is deleted next), re-reading it after a concurrent edit. Internal. */
async function removeBotMembership(source: MemberSource, botId: number): Promise<void> {
  for (let attempt = 1; attempt <= MAX_ATTEMPTS; attempt++) {
    const membership = await getMembership(source, botId);
    if (!membership || (await removeMembership(membership, 0)) === 'done') return;
  }
  throw new Error(`could not remove the membership of bot ${botId} in project ${source.id}`);
}

/**
 * Rotates a project access token (GitLab's `ProjectAccessTokens::RotateService`): the old one is
 * revoked and a new one made for the same bot, expiring on `expiresAt` or a week from today. The
 * caller's level must encompass the bot's; a revoked token answers 400.
 */
export async function rotateProjectAccessToken(
  user: User,
  subject: ProjectSubject,
  found: ProjectAccessToken,
  expiresAt: string | undefined,
): Promise<{ token: ProjectAccessToken; secret: string }> {
  if ((found.accessLevel ?? 0) > callerLevel(user, subject)) throw badRequest('Not eligible to rotate token with access level higher than the user');
  const bot = await getUser(found.token.userId);
  if (!bot) throw badRequest('token already revoked');
  const rotated = await rotateToken(bot, found.token, expiresAt);
  return { token: { token: rotated.token, accessLevel: found.accessLevel }, secret: rotated.secret };
}

/**
 * Removes every bot of a project being deleted (GitLab deletes a project's bots with it): each
 * token's bot loses its membership and is deleted with its tokens. Idempotent: a retry finishes
 * the job. For the projects feature's removal steps (`removeWithProject`), wired by the Lambda
 * entries.
 */
export async function removeProjectBots(project: { id: number }): Promise<void> {
  const source: MemberSource = { kind: 'project', id: project.id };
  const bots = new Set<number>();
  for await (const item of queryCollection(projectAccessTokensCollection(project.id))) bots.add(tokenFromItem(item).userId);
  for (const botId of bots) {
    await removeBotMembership(source, botId);
    await deleteProjectBot(botId);
  }
}
