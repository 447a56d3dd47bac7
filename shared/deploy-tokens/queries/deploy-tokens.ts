/**
 * Reads of deploy tokens: a holder's list (GitLab's `DeployTokens::TokensFinder`, by id, `active`
 * keeping only the usable ones), one by id (`deploy_tokens.find`: a missing one is `404 Not found`),
 * what a token presented to git may reach, and the token CI jobs are given.
 */
import { openSecret } from '../../platform/crypto/secret-box';
import { isId } from '../../platform/dynamo/query';
import type { DeployTokenCaller } from '../../platform/http/context';
import { RecordNotFoundError } from '../../platform/http/errors';
import type { CollectionSource } from '../../platform/http/pagination';
import { digestToken } from '../../users';
import { DEPLOY_TOKEN_PREFIX } from '../commands/deploy-tokens';
import { deployTokenCollections, type Holder } from '../store/keys';
import { ciSecretsOf, deployTokenByDigest, deployTokenFromItem, getDeployToken, type DeployToken } from '../store/deploy-tokens';

/**
 * Whether a token works now: not revoked, and not past `expires_at` (GitLab's `active` scope:
 * `expires_at >= NOW()`).
 */
export function isDeployTokenActive(token: Pick<DeployToken, 'revoked' | 'expiresAt'>, now = Date.now()): boolean {
  return !token.revoked && (token.expiresAt === null || Date.parse(token.expiresAt) >= now);
}

/** A holder's tokens, oldest first; `active`: only those that work now. */
export function deployTokenList(holder: Holder, active: boolean): CollectionSource<DeployToken> {
  return {
    collection: deployTokenCollections.tokens(holder),
    ascending: true,
    select: (item) => {
      const token = deployTokenFromItem(item);
      return !active || isDeployTokenActive(token) ? token : undefined;
    },
  };
}

/** The holder's token of that id; GitLab's `404 Not found` otherwise. */
export async function findDeployTokenOrNotFound(holder: Holder, tokenId: number): Promise<DeployToken> {
  const token = isId(tokenId) ? await getDeployToken(holder, tokenId) : undefined;
  if (!token) throw new RecordNotFoundError();
  return token;
}

/**
 * Whether a token of `holder` reaches a project (GitLab's `has_access_to?`): a project's token its
 * own project; a group's token the projects of the group and of its subgroups, at any depth.
 */
export function holderReaches(holder: Holder, project: { id: number }, namespace: { id: number; ancestorIds: readonly number[] }): boolean {
  if (holder.kind === 'project') return project.id === holder.id;
  return namespace.id === holder.id || namespace.ancestorIds.includes(holder.id);
}

/** What a deploy token presented to git gives: its scopes, and which projects it reaches. */
export interface DeployTokenGitAccess {
  tokenId: number;
  scopes: readonly string[];
  reaches: (project: { id: number }, namespace: { id: number; ancestorIds: readonly number[] }) => boolean;
}

/**
 * The active deploy token a git client presents (GitLab's `deploy_token_check`: the secret finds
 * the token, and the username must be the token's). Secrets without the deploy token prefix are
 * not looked up (no read: the other credentials' cost stays as it was). One GetItem otherwise.
 */
export async function deployTokenGitAccess(username: string, secret: string): Promise<DeployTokenGitAccess | undefined> {
  if (!secret.startsWith(DEPLOY_TOKEN_PREFIX) || !username) return undefined;
  const token = await deployTokenByDigest(digestToken(secret));
  if (!token || token.username !== username || !isDeployTokenActive(token)) return undefined;
  return { tokenId: token.id, scopes: token.scopes, reaches: (project, namespace) => holderReaches(token.holder, project, namespace) };
}

/**
 * The active deploy token presented to the API (GitLab's `deploy_token_from_request`): the
 * `Deploy-Token` header's secret alone, or HTTP Basic's, whose username must then be the token's.
 * As {@link deployTokenGitAccess}, secrets without the deploy token prefix cost no read.
 */
export async function deployTokenApiAccess(secret: string, username?: string): Promise<DeployTokenCaller | undefined> {
  if (!secret.startsWith(DEPLOY_TOKEN_PREFIX)) return undefined;
  const token = await deployTokenByDigest(digestToken(secret));
  if (!token || (username !== undefined && token.username !== username) || !isDeployTokenActive(token)) return undefined;
  return { id: token.id, username: token.username, scopes: token.scopes, reaches: (project, namespace) => holderReaches(token.holder, project, namespace) };
}

/**
 * The token a CI job of the project is given as `CI_DEPLOY_USER` / `CI_DEPLOY_PASSWORD` (GitLab's
 * `Ci::Build#gitlab_deploy_token`): the project's active token named `gitlab-deploy-token`, else
 * the one of the project's own group (not its ancestors', as GitLab). One Query per holder, read
 * together; only such tokens are read, whatever else the holders have.
 */
export async function gitlabDeployTokenFor(projectId: number, groupId: number | null): Promise<{ username: string; password: string } | undefined> {
  const [own, group] = await Promise.all([
    ciSecretsOf({ kind: 'project', id: projectId }),
    groupId === null ? [] : ciSecretsOf({ kind: 'group', id: groupId }),
  ]);
  const chosen = own.find((secret) => isDeployTokenActive(secret)) ?? group.find((secret) => isDeployTokenActive(secret));
  return chosen && { username: chosen.username, password: await openSecret(chosen.secretSealed) };
}
