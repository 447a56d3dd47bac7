/**
 * Creating and deleting deploy tokens (GitLab's `DeployTokens::CreateService` and
 * `DestroyService`): the model's validations answered as GitLab's service answers them, one
 * sentence in `{"message": …}` (400), then the token written with its pointer.
 */
import { randomBytes } from 'node:crypto';
import { sealSecret } from '../../platform/crypto/secret-box';
import { BadRequestError, NotFoundError, RecordNotFoundError } from '../../platform/http/errors';
import { digestToken } from '../../users';
import type { Holder } from '../store/keys';
import { DEPLOY_TOKEN_SCOPES, deleteDeployToken, deleteHolderTokens, insertDeployToken, newDeployTokenId, type DeployToken, type DeployTokenScope } from '../store/deploy-tokens';

/** GitLab's `DeployToken::DEPLOY_TOKEN_PREFIX`: every secret starts with it. */
export const DEPLOY_TOKEN_PREFIX = 'gldt-';

/** GitLab's `DeployToken::GITLAB_DEPLOY_TOKEN_NAME`: the token CI jobs are given. */
export const GITLAB_DEPLOY_TOKEN_NAME = 'gitlab-deploy-token';

const USERNAME_FORMAT = /^[a-zA-Z0-9.+_-]+$/;

export interface NewDeployToken {
  name: string;
  scopes: DeployTokenScope[];
  expiresAt?: string;
  username?: string;
}

/** Ruby's `Array#to_sentence`: `a`, `a and b`, `a, b, and c`. */
export function toSentence(parts: readonly string[]): string {
  if (parts.length <= 2) return parts.join(' and ');
  return `${parts.slice(0, -1).join(', ')}, and ${parts[parts.length - 1]}`;
}

/**
 * The model's validation messages, in GitLab's order (`errors.full_messages`); empty when valid.
 * The lengths of `name` and `username` (255) are checked with the parameters, before.
 */
export function deployTokenErrors(input: NewDeployToken): string[] {
  const errors: string[] = [];
  if (input.scopes.length === 0) errors.push("Scopes can't be blank");
  if (input.username !== undefined && !USERNAME_FORMAT.test(input.username)) errors.push("Username can contain only letters, digits, '_', '-', '+', and '.'");
  return errors;
}

/** A new random secret in GitLab's deploy token format. */
const newSecret = () => `${DEPLOY_TOKEN_PREFIX}${randomBytes(15).toString('base64url')}`;

/**
 * Creates a token for a live project or group; answers it with its secret (the only time the
 * secret is shown). A token named `gitlab-deploy-token` keeps its secret sealed for CI jobs.
 */
export async function createDeployToken(holder: Holder, creatorId: number, input: NewDeployToken): Promise<{ token: DeployToken; secret: string }> {
  const errors = deployTokenErrors(input);
  if (errors.length > 0) throw new BadRequestError(toSentence(errors));
  const secret = newSecret();
  const id = await newDeployTokenId();
  const token: DeployToken = {
    id,
    holder,
    name: input.name,
    username: input.username ?? `gitlab+deploy-token-${id}`,
    // Stored in GitLab's order, whatever order (and repeats) the request gave.
    scopes: DEPLOY_TOKEN_SCOPES.filter((scope) => input.scopes.includes(scope)),
    expiresAt: input.expiresAt ?? null,
    revoked: false,
    creatorId,
    createdAt: new Date().toISOString(),
    digest: digestToken(secret),
  };
  const sealed = input.name === GITLAB_DEPLOY_TOKEN_NAME ? await sealSecret(secret) : undefined;
  if ((await insertDeployToken(token, sealed)) === 'holder_gone') throw new NotFoundError(holder.kind === 'project' ? 'Project' : 'Group');
  return { token, secret };
}

/** Deletes a holder's token; `404 Not found` when it is not (or no longer) there. */
export async function removeDeployToken(token: DeployToken): Promise<void> {
  if ((await deleteDeployToken(token)) === 'gone') throw new RecordNotFoundError();
}

/** What goes with a deleted project (a removal step of the projects feature). */
export const removeProjectDeployTokens = (project: { id: number }) => deleteHolderTokens({ kind: 'project', id: project.id });

/** What goes with a deleted group (a removal step of the groups feature). */
export const removeGroupDeployTokens = (groupId: number) => deleteHolderTokens({ kind: 'group', id: groupId });
