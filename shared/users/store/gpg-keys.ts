/**
 * GPG keys: in their owner's partition; the fingerprint and every key id (the primary key's and
 * each subkey's) claimed across all users, so a key is added once and a signature's issuer key id
 * finds its key with two strongly consistent reads.
 */
import { nextId, nextIds } from '../../platform/dynamo/counters';
import { entityFields } from '../../platform/dynamo/items';
import { getEntity, getItem, type Item } from '../../platform/dynamo/query';
import type { GpgUserInfo } from '../gpg-public-key';
import { childAccess, insertChild, type ChildInsertResult } from './children';
import { userCollections, userKeys } from './keys';

export interface GpgKey {
  id: number;
  userId: number;
  /** The armoured block as added, stripped. */
  key: string;
  fingerprint: string;
  primaryKeyid: string;
  /** Each subkey with its own id (GitLab's `GpgKeySubkey`), named by signatures it made. */
  subkeys: Array<{ id: number; keyid: string; fingerprint: string }>;
  userInfos: GpgUserInfo[];
  createdAt: string;
}

const fromItem = (item: Item) => entityFields(item) as GpgKey;

export async function insertGpgKey(input: Omit<GpgKey, 'id' | 'createdAt' | 'subkeys'> & { subkeys: Array<{ keyid: string; fingerprint: string }> }): Promise<{ result: ChildInsertResult; key: GpgKey }> {
  const [id, subkeyIds] = await Promise.all([nextId('gpg_keys'), nextIds('gpg_key_subkeys', input.subkeys.length)]);
  const key: GpgKey = { ...input, id, subkeys: input.subkeys.map((subkey, i) => ({ id: subkeyIds[i], ...subkey })), createdAt: new Date().toISOString() };
  const keyids = [key.primaryKeyid, ...key.subkeys.map((subkey) => subkey.keyid)];
  const result = await insertChild(key.userId, userKeys.gpgKey(key.userId, key.id), { type: 'GpgKey', ...key }, [
    userKeys.claims.gpgFingerprint(key.fingerprint),
    ...[...new Set(keyids)].map((keyid) => userKeys.claims.gpgKeyid(keyid)),
  ]);
  return { result, key };
}

const gpgKeys = childAccess({ key: userKeys.gpgKey, collection: userCollections.userGpgKeys, fromItem });

/** A user's GPG keys, by id. */
export const listGpgKeys = gpgKeys.list;
/** One GPG key of a user, or undefined. */
export const getGpgKey = gpgKeys.get;
/** Deletes a GPG key and its claims; returns it, or undefined when it was not there. */
export const deleteGpgKey = gpgKeys.remove;

/** The key whose primary key or a subkey has the key id `keyid` (16 hex digits), through its claim. */
export async function findGpgKeyByKeyid(keyid: string): Promise<GpgKey | undefined> {
  if (!/^[0-9A-Fa-f]{16}$/.test(keyid)) return undefined;
  const claim = await getItem(userKeys.claims.gpgKeyid(keyid.toUpperCase()));
  if (typeof claim?.userId !== 'number' || typeof claim.childSK !== 'string') return undefined;
  return getEntity({ PK: userKeys.user(claim.userId).PK, SK: claim.childSK }, fromItem);
}
