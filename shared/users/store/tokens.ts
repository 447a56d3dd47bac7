/**
 * Access tokens (personal and impersonation; a project or group access token is a personal one of
 * the project's or group's bot user, carrying `projectId` or `groupId` and indexed under it). The secret is never stored: only its SHA-256
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
import type { Key } from '../../platform/dynamo/keys';
import { entityFields } from '../../platform/dynamo/items';
import { getItem, queryCollection, type Item } from '../../platform/dynamo/query';
import { childAccess, insertChild, type ChildInsertResult } from './children';
import { userCollections, userIndexKeys, userKeys, type TokenResource } from './keys';
import { onUserWritten, userFromItem, type User } from './users';

/**
 * The scopes a token may hold: the ones routes declare (`Scope`), and the ones only project access
 * tokens are given here (`read_api`, `read_repository`, `write_repository`), stored as given.
 */
export type TokenScope = Scope | 'read_api' | 'read_repository' | 'write_repository';

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
  /** The project of a project access token (its owner is the project's bot user); absent otherwise. */
  projectId?: number;
  /** The group of a group access token (its owner is the group's bot user); absent otherwise. */
  groupId?: number;
  createdAt: string;
  digest: string;
}

/** SHA-256 hex digest of a token secret: what is stored and looked up. */
export const digestToken = (secret: string): string => createHash('sha256').update(secret, 'utf8').digest('hex');

/** A new random secret in GitLab's personal-access-token format. */
export const generateTokenSecret = (): string => `glpat-${randomBytes(15).toString('base64url')}`;

const tokenToItem = (token: AccessToken): Item => ({ type: 'AccessToken', ...token });
const tokenFromItem = (item: Item): AccessToken => entityFields(item) as AccessToken;

/** The project or group a resource access token is of, or undefined for a user's own token. */
export function tokenResource(token: Pick<AccessToken, 'projectId' | 'groupId'>): TokenResource | undefined {
  if (token.projectId !== undefined) return { kind: 'project', id: token.projectId };
  if (token.groupId !== undefined) return { kind: 'group', id: token.groupId };
  return undefined;
}

/** The fields that make a token a resource access token (`projectId` or `groupId`). */
const resourceFields = (resource: TokenResource | undefined): Pick<AccessToken, 'projectId' | 'groupId'> =>
  resource === undefined ? {} : resource.kind === 'project' ? { projectId: resource.id } : { groupId: resource.id };

/** What a new token is made of; `resource` makes it a project or group access token (of that resource's bot user). */
export interface NewToken {
  name: string;
  scopes: TokenScope[];
  impersonation: boolean;
  expiresAt: string | null;
  description?: string | null;
  resource?: TokenResource;
  secret?: string;
}

/**
 * Stores a token for a live user. `secret` defaults to a fresh random one; a fixed secret is only
 * for bootstrap (`ROOT_TOKEN`). Returns the token and its secret — the only time the secret
 * exists — and `user_gone` when the user does not exist (or is being deleted), `claim_taken` when
 * the secret's digest is already a token's.
 */
export async function createToken(
  userId: number,
  input: NewToken,
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
    ...resourceFields(input.resource),
    createdAt: new Date().toISOString(),
    digest: digestToken(secret),
  };
  const item = {
    ...tokenToItem(token),
    ...(token.impersonation ? {} : userIndexKeys.personalToken(token.id)),
    ...(input.resource === undefined ? {} : userIndexKeys.resourceAccessToken(input.resource, token.id)),
  };
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

/** A project's or group's access tokens, by id (GSI2, eventually consistent), for a list to page. */
export const resourceAccessTokensCollection = (resource: TokenResource) => userCollections.resourceAccessTokens(resource);

/** One access token of a project or group by id (GSI2, eventually consistent), or undefined. */
export async function findResourceAccessToken(resource: TokenResource, tokenId: number): Promise<AccessToken | undefined> {
  if (!Number.isSafeInteger(tokenId) || tokenId <= 0) return undefined;
  const sortKey = userIndexKeys.resourceAccessToken(resource, tokenId).GSI2SK;
  for await (const item of queryCollection({ ...userCollections.resourceAccessTokens(resource), prefix: sortKey })) return tokenFromItem(item);
  return undefined;
}

/** A personal access token by its id alone (GSI1, eventually consistent), or undefined. */
export async function findPersonalTokenById(tokenId: number): Promise<AccessToken | undefined> {
  if (!Number.isSafeInteger(tokenId) || tokenId <= 0) return undefined;
  const sortKey = userIndexKeys.personalToken(tokenId).GSI1SK;
  for await (const item of queryCollection({ ...userCollections.personalTokens(), prefix: sortKey })) return tokenFromItem(item);
  return undefined;
}

/** Awaits a write of a user's token, then forgets what authentication kept of the user's tokens (also when it failed). */
async function forgettingAfter<T>(userId: number, write: Promise<T>): Promise<T> {
  try {
    return await write;
  } finally {
    forgetCredentialsOf(userId);
  }
}

/**
 * Revokes a token that is not revoked yet: the revoked token, or undefined when it does not exist
 * or was revoked already (by a concurrent rotation, say).
 */
export async function revokeActiveToken(userId: number, tokenId: number): Promise<AccessToken | undefined> {
  const result = await forgettingAfter(userId, ifConditionHolds(
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
  ));
  return result?.Attributes ? tokenFromItem(result.Attributes) : undefined;
}

/** Revokes a token; idempotent. Returns the revoked token, or undefined if it does not exist. */
export async function revokeToken(userId: number, tokenId: number): Promise<AccessToken | undefined> {
  const result = await forgettingAfter(userId, ifConditionHolds(
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
  ));
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
 * What authentication read for a digest, kept in this process for at most `ttlMs` (internal;
 * exported for its tests). Keyed by the token's SHA-256 digest (the secret itself is never
 * kept), per owner so that a write of the owner or of any of their tokens forgets all of the
 * owner's entries at once.
 *
 * Revocation safety:
 * - in this process, every write that can change the answer (a token revoked or rotated, the owner
 *   blocked, changed, marked for deletion or deleted: `forgetOwner`) drops the owner's entries, and
 *   a read that was under way while such a write happened is neither kept nor shared with a later
 *   request (`generation`), so the next request reads the table again;
 * - elsewhere (other Lambda containers), an entry is used at most `ttlMs` after its read began,
 *   so a revoked token or a blocked user is refused everywhere within that time;
 * - expiry is not cached: the caller checks `expiresAt` against today on every use.
 * Unknown secrets are not kept (a token created elsewhere works at once).
 *
 * An entry older than `refreshAfterMs` is still answered (it is within its time to live) while
 * `reload` reads it again in the background, so that steady traffic with one token never waits
 * for a read: the re-read is a point read of the request's first turn, and so shares the
 * BatchGetItem of what the request reads first (`platform/dynamo/batch.ts`).
 */
export class RecentCredentials<V> {
  private readonly entries = new Map<string, { value: V; owner: number; readAt: number }>();
  /** Reads under way, by key: a request that comes meanwhile waits for it rather than reading too. */
  private readonly reading = new Map<string, { promise: Promise<V | undefined>; generation: number }>();
  private generation = 0;

  constructor(private readonly options: { ttlMs: number; refreshAfterMs?: number; maxEntries: number; now?: () => number }) {}

  private now(): number {
    return (this.options.now ?? Date.now)();
  }

  /** Marks the start of a read: pass it to {@link keep} once the read is done. */
  begin(): { generation: number; at: number } {
    return { generation: this.generation, at: this.now() };
  }

  /** The value kept for `key`, unless it is older than the time to live (or the clock went back). */
  get(key: string): V | undefined {
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    const age = this.now() - entry.readAt;
    if (age >= 0 && age < this.options.ttlMs) return entry.value;
    this.entries.delete(key);
    return undefined;
  }

  /** Keeps what a read begun at `started` found, unless an owner was forgotten meanwhile. */
  keep(key: string, owner: number, value: V, started: { generation: number; at: number }): void {
    if (started.generation !== this.generation) return;
    this.entries.delete(key);
    if (this.entries.size >= this.options.maxEntries) this.entries.delete(this.entries.keys().next().value!);
    this.entries.set(key, { value, owner, readAt: started.at });
  }

  /**
   * The value kept for `key`, else the result of the read of `key` under way (if it began after
   * the last forgetting), else that of `load()`, kept when found.
   */
  lookup(key: string, load: () => Promise<V | undefined>, ownerOf: (value: V) => number, reload?: (kept: V) => Promise<V | undefined>): Promise<V | undefined> {
    const kept = this.get(key);
    if (kept !== undefined) {
      // Due for a re-read (and none under way): read again in the background, answer what is kept.
      const age = this.now() - this.entries.get(key)!.readAt;
      if (reload && age >= (this.options.refreshAfterMs ?? Infinity) && !this.reading.has(key)) {
        this.read(key, () => reload(kept), ownerOf).catch(() => undefined); // a failed re-read leaves the entry to expire
      }
      return Promise.resolve(kept);
    }
    const inFlight = this.reading.get(key);
    if (inFlight && inFlight.generation === this.generation) return inFlight.promise;
    return this.read(key, load, ownerOf);
  }

  /** Internal: reads `key`, shared with lookups meanwhile; keeps what it found, or forgets the entry when it found nothing. */
  private read(key: string, load: () => Promise<V | undefined>, ownerOf: (value: V) => number): Promise<V | undefined> {
    const started = this.begin();
    const promise = load()
      .then((value) => {
        if (value !== undefined) this.keep(key, ownerOf(value), value, started);
        else if (started.generation === this.generation) this.entries.delete(key);
        return value;
      })
      .finally(() => {
        if (this.reading.get(key)?.promise === promise) this.reading.delete(key);
      });
    this.reading.set(key, { promise, generation: started.generation });
    return promise;
  }

  /** Forgets every entry of `owner`, and what reads under way will find. */
  forgetOwner(owner: number): void {
    this.generation++;
    for (const [key, entry] of this.entries) if (entry.owner === owner) this.entries.delete(key);
  }

  /** Forgets everything (tests). */
  clear(): void {
    this.generation++;
    this.entries.clear();
    this.reading.clear();
  }
}

/** A token and its owner as read, with where the token item is (`at`: to read both again without the digest pointer). */
type FoundToken = { token: AccessToken; user: User | undefined; at: Key };

/**
 * At most one second: the longest a revoked token or a blocked user may still work in another
 * process; read again in the background from half a second.
 */
const recentCredentials = new RecentCredentials<FoundToken>({ ttlMs: 1000, refreshAfterMs: 500, maxEntries: 1000 });

/** Forgets what authentication kept of a user's tokens (any write of the user or of their tokens). */
export const forgetCredentialsOf = (userId: number): void => recentCredentials.forgetOwner(userId);
/** Forgets every kept credential (tests that change the table behind the store's back). */
export const forgetRecentCredentials = (): void => recentCredentials.clear();
onUserWritten(forgetCredentialsOf);

/** A copy per request: a request may change its caller (`lastActivityOn`) without touching the kept one. */
const copyOf = ({ token, user, at }: FoundToken): FoundToken => ({
  at,
  token: { ...token, scopes: [...token.scopes] },
  user: user && { ...user, identities: user.identities?.map((identity) => ({ ...identity })) },
});

/**
 * Finds the token and its owner for a presented secret: one GetItem on the digest pointer, then
 * one BatchGet of the token and the user; what was read within the last second in this process is
 * answered without reading, and concurrent requests with one token share one read (see
 * {@link RecentCredentials}). Returns undefined for unknown secrets.
 */
export async function findTokenBySecret(secret: string): Promise<FoundToken | undefined> {
  const digest = digestToken(secret);
  const found = await recentCredentials.lookup(digest, () => readTokenByDigest(digest), ({ token }) => token.userId, ({ token, at }) => readTokenAt(token.userId, at));
  return found && copyOf(found);
}

async function readTokenByDigest(digest: string): Promise<FoundToken | undefined> {
  const pointer = await getItem(userKeys.tokenDigest(digest));
  if (!pointer) return undefined;
  return readTokenAt(pointer.userId, { PK: userKeys.user(pointer.userId).PK, SK: pointer.childSK as string });
}

/** Internal: the token item at `tokenKey` and its owner's item (one BatchGetItem); undefined when the token is gone. */
async function readTokenAt(userId: number, tokenKey: Key): Promise<FoundToken | undefined> {
  const userKey = userKeys.user(userId);
  const items = await getMany([userKey, tokenKey]);
  const tokenItem = items.find((i) => i.SK === tokenKey.SK);
  const userItem = items.find((i) => i.SK === userKey.SK);
  if (!tokenItem) return undefined;
  return { token: tokenFromItem(tokenItem), user: userItem && !userItem.deleting ? userFromItem(userItem) : undefined, at: tokenKey };
}
