/**
 * Access tokens (personal and impersonation). The secret is never stored: only its SHA-256
 * digest, as the key of a claim item that points at the token (used to authenticate). The token item itself lives
 * in its owner's partition, so listing a user's tokens is one Query.
 */
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { createHash, randomBytes } from 'node:crypto';
import type { Scope } from '../../platform/http/context';
import { getMany } from '../../platform/dynamo/batch';
import { db, tableName } from '../../platform/dynamo/client';
import { ifConditionHolds } from '../../platform/dynamo/conditional';
import { nextId } from '../../platform/dynamo/counters';
import { entityFields } from '../../platform/dynamo/items';
import { getItem, queryCollection, type Item } from '../../platform/dynamo/query';
import { childAccess, insertChild, type ChildInsertResult } from './children';
import { userCollections, userIndexKeys, userKeys } from './keys';
import { userFromItem, type User } from './users';

export type TokenScope = Scope;

export interface AccessToken {
  id: number;
  userId: number;
  name: string;
  scopes: TokenScope[];
  impersonation: boolean;
  revoked: boolean;
  /** First day the token no longer works (`YYYY-MM-DD`, from 00:00 UTC), or null for no expiry. */
  expiresAt: string | null;
  /** What the token is for (personal access tokens), or null. */
  description?: string | null;
  createdAt: string;
  digest: string;
}

/** SHA-256 hex digest of a token secret: what is stored and looked up. */
export const digestToken = (secret: string): string => createHash('sha256').update(secret, 'utf8').digest('hex');

/** A new random secret in GitLab's personal-access-token format. */
export const generateTokenSecret = (): string => `glpat-${randomBytes(15).toString('base64url')}`;

const tokenToItem = (token: AccessToken): Item => ({ type: 'AccessToken', ...token });
const tokenFromItem = (item: Item): AccessToken => entityFields(item) as AccessToken;

/**
 * Stores a token for a live user. `secret` defaults to a fresh random one; a fixed secret is only
 * for bootstrap (`ROOT_TOKEN`). Returns the token and its secret — the only time the secret
 * exists — and `user_gone` when the user does not exist (or is being deleted), `claim_taken` when
 * the secret's digest is already a token's.
 */
export async function createToken(
  userId: number,
  input: { name: string; scopes: TokenScope[]; impersonation: boolean; expiresAt: string | null; description?: string | null; secret?: string },
): Promise<{ result: ChildInsertResult; token: AccessToken; secret: string }> {
  const secret = input.secret ?? generateTokenSecret();
  const token: AccessToken = {
    id: await nextId('access_tokens'),
    userId,
    name: input.name,
    scopes: input.scopes,
    impersonation: input.impersonation,
    revoked: false,
    expiresAt: input.expiresAt,
    ...(input.impersonation ? {} : { description: input.description ?? null }),
    createdAt: new Date().toISOString(),
    digest: digestToken(secret),
  };
  const item = { ...tokenToItem(token), ...(token.impersonation ? {} : userIndexKeys.personalToken(token.id)) };
  const result = await insertChild(userId, userKeys.token(userId, token.id), item, [userKeys.tokenDigest(token.digest)]);
  return { result, token, secret };
}

const tokens = childAccess({ key: userKeys.token, collection: userCollections.userTokens, fromItem: tokenFromItem });

/** One token of a user, or undefined. */
export const getToken = tokens.get;
/** A user's tokens (personal and impersonation), by id. */
export const listTokens = tokens.list;

/** Every personal access token, by id (GSI1, eventually consistent), for a list to page. */
export const personalTokensCollection = () => userCollections.personalTokens();
export { tokenFromItem };

/** A personal access token by its id alone (GSI1, eventually consistent), or undefined. */
export async function findPersonalTokenById(tokenId: number): Promise<AccessToken | undefined> {
  if (!Number.isSafeInteger(tokenId) || tokenId <= 0) return undefined;
  const sortKey = userIndexKeys.personalToken(tokenId).GSI1SK;
  for await (const item of queryCollection({ ...userCollections.personalTokens(), prefix: sortKey })) return tokenFromItem(item);
  return undefined;
}

/**
 * Revokes a token that is not revoked yet: the revoked token, or undefined when it does not exist
 * or was revoked already (by a concurrent rotation, say).
 */
export async function revokeActiveToken(userId: number, tokenId: number): Promise<AccessToken | undefined> {
  const result = await ifConditionHolds(
    db().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: userKeys.token(userId, tokenId),
        UpdateExpression: 'SET revoked = :true',
        ConditionExpression: 'attribute_exists(PK) AND revoked = :false',
        ExpressionAttributeValues: { ':true': true, ':false': false },
        ReturnValues: 'ALL_NEW',
      }),
    ),
  );
  return result?.Attributes ? tokenFromItem(result.Attributes) : undefined;
}

/** Revokes a token; idempotent. Returns the revoked token, or undefined if it does not exist. */
export async function revokeToken(userId: number, tokenId: number): Promise<AccessToken | undefined> {
  const result = await ifConditionHolds(
    db().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: userKeys.token(userId, tokenId),
        UpdateExpression: 'SET revoked = :true',
        ConditionExpression: 'attribute_exists(PK)',
        ExpressionAttributeValues: { ':true': true },
        ReturnValues: 'ALL_NEW',
      }),
    ),
  );
  return result?.Attributes ? tokenFromItem(result.Attributes) : undefined;
}

/**
 * Whether the token can be used today (UTC): not revoked and not expired. As GitLab's
 * `Expirable#expired?` (`expires_at <= Time.current`, the date read as 00:00 UTC), a token is
 * expired from the first moment of its expiry day: `expires_at` is the first day it no longer works.
 */
export function isTokenActive(token: AccessToken, today = new Date().toISOString().slice(0, 10)): boolean {
  return !token.revoked && (token.expiresAt === null || token.expiresAt > today);
}

/**
 * Finds the token and its owner for a presented secret: one GetItem on the digest pointer, then
 * one BatchGet of the token and the user. Returns undefined for unknown secrets.
 */
export async function findTokenBySecret(secret: string): Promise<{ token: AccessToken; user: User | undefined } | undefined> {
  const pointer = await getItem(userKeys.tokenDigest(digestToken(secret)));
  if (!pointer) return undefined;
  const userKey = userKeys.user(pointer.userId);
  const tokenKey = { PK: userKey.PK, SK: pointer.childSK as string };
  const items = await getMany([userKey, tokenKey]);
  const tokenItem = items.find((i) => i.SK === tokenKey.SK);
  const userItem = items.find((i) => i.SK === userKey.SK);
  if (!tokenItem) return undefined;
  return { token: tokenFromItem(tokenItem), user: userItem && !userItem.deleting ? userFromItem(userItem) : undefined };
}
