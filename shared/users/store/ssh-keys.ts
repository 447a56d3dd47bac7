/** SSH keys: in their owner's partition, fingerprint unique across all users, findable by id (GSI1). */
import { nextId } from '../../platform/dynamo/counters';
import { entityFields } from '../../platform/dynamo/items';
import { getEntity, getItem, isId, queryCollection, type Item } from '../../platform/dynamo/query';
import { childAccess, insertChild, type ChildInsertResult } from './children';
import { userCollections, userIndexKeys, userKeys } from './keys';

export interface SshKey {
  id: number;
  userId: number;
  title: string;
  /** The normalized public key line. */
  key: string;
  fingerprint: string;
  fingerprintSha256: string;
  createdAt: string;
}

const fromItem = (item: Item) => entityFields(item) as SshKey;

export async function insertSshKey(
  input: Omit<SshKey, 'id' | 'createdAt'>,
): Promise<{ result: ChildInsertResult; key: SshKey }> {
  const key: SshKey = { ...input, id: await nextId('ssh_keys'), createdAt: new Date().toISOString() };
  const result = await insertChild(
    key.userId,
    userKeys.sshKey(key.userId, key.id),
    { type: 'SshKey', ...userIndexKeys.sshKeyById(key.id), ...userIndexKeys.sshKeyByMd5(key.fingerprint), ...key },
    [userKeys.claims.sshFingerprint(key.fingerprintSha256)],
  );
  return { result, key };
}

const sshKeys = childAccess({ key: userKeys.sshKey, collection: userCollections.userSshKeys, fromItem });

/** A user's SSH keys, by id. */
export const listSshKeys = sshKeys.list;
/** One SSH key of a user, or undefined. */
export const getSshKey = sshKeys.get;
/** Deletes an SSH key and its fingerprint claim; returns it, or undefined when it was not there. */
export const deleteSshKey = sshKeys.remove;

/** Finds a key by its global id through GSI1 (eventually consistent, like any GSI read). */
export async function findSshKeyById(keyId: number): Promise<SshKey | undefined> {
  if (!isId(keyId)) return undefined;
  for await (const item of queryCollection(userCollections.sshKeyById(keyId))) return fromItem(item);
  return undefined;
}

/**
 * Finds a key by its fingerprint: an OpenSSH `SHA256:…` one through its uniqueness claim (which
 * names the owner and the key's item: strongly consistent), an MD5 `aa:bb:…` one through GSI2.
 */
export async function findSshKeyByFingerprint(fingerprint: { sha256: string } | { md5: string }): Promise<SshKey | undefined> {
  if ('md5' in fingerprint) {
    for await (const item of queryCollection(userCollections.sshKeyByMd5(fingerprint.md5))) return fromItem(item);
    return undefined;
  }
  const claim = await getItem(userKeys.claims.sshFingerprint(fingerprint.sha256));
  if (typeof claim?.userId !== 'number' || typeof claim.childSK !== 'string') return undefined;
  return getEntity({ PK: userKeys.user(claim.userId).PK, SK: claim.childSK }, fromItem);
}
