/**
 * Deploy tokens (GitLab's `DeployToken` with its `ProjectDeployToken` / `GroupDeployToken`): one
 * item per token in its holder's partition (`DEPLOY_TOKENS#PROJECT#<id>` or `…#GROUP#<id>`,
 * listed by id with one Query), and one pointer per token keyed by the SHA-256 digest of its
 * secret (`DEPLOY_TOKEN_DIGEST#<digest>`), which carries what git authentication decides on
 * (username, scopes, expiry, holder), so a clone reads one item. Tokens are never edited (GitLab's
 * API creates and deletes them), so the copy on the pointer never drifts; both are written and
 * deleted together.
 *
 * The secret itself is never stored, with one exception: a token named `gitlab-deploy-token` is
 * handed to CI jobs (`CI_DEPLOY_PASSWORD`), so its secret is also kept sealed
 * (`platform/crypto/secret-box.ts`) in an item of its own beside it (`CI_SECRET#<id>`), which
 * only the CI variables read. This module neither seals nor opens.
 */
import { deleteMany } from '../../platform/dynamo/batch';
import { tableName } from '../../platform/dynamo/client';
import { nextId } from '../../platform/dynamo/counters';
import { entityFields } from '../../platform/dynamo/items';
import { getEntity, getItem, queryAll, type Item } from '../../platform/dynamo/query';
import { transactOr } from '../../platform/dynamo/transactions';
import { groupIsLive } from '../../namespaces';
import { projectIsLive } from '../../projects';
import { DEPLOY_TOKEN_SEQUENCE, deployTokenCollections, deployTokenKeys, type Holder } from './keys';

/** GitLab's `DeployToken::AVAILABLE_SCOPES`, in its order (the order `scopes` is answered in). */
export const DEPLOY_TOKEN_SCOPES = [
  'read_repository',
  'read_registry',
  'write_registry',
  'read_package_registry',
  'write_package_registry',
  'read_virtual_registry',
  'write_virtual_registry',
] as const;
export type DeployTokenScope = (typeof DEPLOY_TOKEN_SCOPES)[number];

export interface DeployToken {
  id: number;
  holder: Holder;
  name: string;
  /** The given username, or GitLab's default `gitlab+deploy-token-<id>`. */
  username: string;
  scopes: DeployTokenScope[];
  /** ISO timestamp from which the token no longer works, or null (never expires). */
  expiresAt: string | null;
  revoked: boolean;
  creatorId: number;
  createdAt: string;
  /** SHA-256 digest of the secret: the key of its pointer. */
  digest: string;
}

/** What git authentication reads by digest: the token's pointer. */
export type DeployTokenPointer = Pick<DeployToken, 'id' | 'holder' | 'username' | 'scopes' | 'expiresAt' | 'revoked'>;

/** A token's secret for CI, sealed, with what CI needs of the token. */
export interface CiSecret {
  tokenId: number;
  username: string;
  expiresAt: string | null;
  revoked: boolean;
  secretSealed: string;
}

export const deployTokenFromItem = (item: Item): DeployToken => entityFields(item) as DeployToken;

export const newDeployTokenId = () => nextId(DEPLOY_TOKEN_SEQUENCE);

const pointerOf = (token: DeployToken): DeployTokenPointer => ({
  id: token.id,
  holder: token.holder,
  username: token.username,
  scopes: token.scopes,
  expiresAt: token.expiresAt,
  revoked: token.revoked,
});

/**
 * Adds a token and its pointer (and its sealed secret for CI, when given) while the holder is live,
 * in one transaction; `holder_gone` when the project or group is gone or being deleted.
 */
export function insertDeployToken(token: DeployToken, ciSecretSealed?: string): Promise<'holder_gone' | undefined> {
  const put = (item: Item) => ({ Put: { TableName: tableName(), Item: item, ConditionExpression: 'attribute_not_exists(PK)' } });
  const ciSecret: CiSecret | undefined = ciSecretSealed === undefined
    ? undefined
    : { tokenId: token.id, username: token.username, expiresAt: token.expiresAt, revoked: token.revoked, secretSealed: ciSecretSealed };
  return transactOr(
    {
      holder: token.holder.kind === 'project' ? projectIsLive(token.holder.id) : groupIsLive(token.holder.id),
      token: put({ ...deployTokenKeys.token(token.holder, token.id), type: 'DeployToken', ...token }),
      pointer: put({ ...deployTokenKeys.digest(token.digest), type: 'DeployTokenPointer', ...pointerOf(token) }),
      ciSecret: ciSecret && put({ ...deployTokenKeys.ciSecret(token.holder, token.id), type: 'DeployTokenCiSecret', ...ciSecret }),
    },
    [['holder', 'holder_gone']],
  );
}

export function getDeployToken(holder: Holder, tokenId: number): Promise<DeployToken | undefined> {
  return getEntity(deployTokenKeys.token(holder, tokenId), deployTokenFromItem);
}

/** The token whose secret has this digest, as authentication needs it (one GetItem), or undefined. */
export async function deployTokenByDigest(digest: string): Promise<DeployTokenPointer | undefined> {
  const item = await getItem(deployTokenKeys.digest(digest));
  return item ? (entityFields(item) as DeployTokenPointer) : undefined;
}

/** A holder's sealed CI secrets (tokens named `gitlab-deploy-token`), by id: one Query. */
export async function ciSecretsOf(holder: Holder): Promise<CiSecret[]> {
  return (await queryAll(deployTokenCollections.ciSecrets(holder))).map((item) => entityFields(item) as CiSecret);
}

/** Deletes a token, its pointer and its CI secret together (the token stops working with it); `gone` when it was no longer there. */
export function deleteDeployToken(token: DeployToken): Promise<'gone' | undefined> {
  const remove = (key: Item) => ({ Delete: { TableName: tableName(), Key: key } });
  return transactOr(
    {
      token: { Delete: { TableName: tableName(), Key: deployTokenKeys.token(token.holder, token.id), ConditionExpression: 'attribute_exists(PK)' } },
      pointer: remove(deployTokenKeys.digest(token.digest)),
      ciSecret: remove(deployTokenKeys.ciSecret(token.holder, token.id)),
    },
    [['token', 'gone']],
  );
}

/** Deletes every token of a holder with their pointers and CI secrets (the project or group is being deleted). */
export async function deleteHolderTokens(holder: Holder): Promise<void> {
  const items = await queryAll(deployTokenCollections.holder(holder));
  const digests = items.filter((item) => item.type === 'DeployToken').map((item) => deployTokenKeys.digest(String(item.digest)));
  // Pointers first: a crash midway leaves tokens a retry finds again, never a pointer without its token.
  await deleteMany(digests);
  await deleteMany(items.map((item) => ({ PK: String(item.PK), SK: String(item.SK) })));
}
