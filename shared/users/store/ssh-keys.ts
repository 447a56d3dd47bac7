/** SSH keys: in their owner's partition, fingerprint unique across all users, findable by id (GSI1). */
import { nextId } from '../../platform/dynamo/counters';
import { userCollections, userIndexKeys, userKeys } from './keys';
import { getItem, queryAll, queryCollection, isId } from '../../platform/dynamo/query';
import { deleteChild, insertChild, type ChildInsertResult } from './children';
import { entityFields } from '../../platform/dynamo/items';

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

const fromItem = (item: Record<string, unknown>) => entityFields(item) as SshKey;

export async function insertSshKey(
  input: Omit<SshKey, 'id' | 'createdAt'>,
): Promise<{ result: ChildInsertResult; key: SshKey }> {
  const key: SshKey = { ...input, id: await nextId('ssh_keys'), createdAt: new Date().toISOString() };
  const result = await insertChild(
    key.userId,
    userKeys.sshKey(key.userId, key.id),
    { type: 'SshKey', ...userIndexKeys.sshKeyById(key.id), ...key },
    [userKeys.claims.sshFingerprint(key.fingerprintSha256)],
  );
  return { result, key };
}

export async function listSshKeys(userId: number): Promise<SshKey[]> {
  return (await queryAll(userCollections.userSshKeys(userId))).map(fromItem);
}

export async function getSshKey(userId: number, keyId: number): Promise<SshKey | undefined> {
  if (!isId(keyId)) return undefined;
  const item = await getItem(userKeys.sshKey(userId, keyId));
  return item ? fromItem(item) : undefined;
}

/** Finds a key by its global id through GSI1 (eventually consistent, like any GSI read). */
export async function findSshKeyById(keyId: number): Promise<SshKey | undefined> {
  if (!isId(keyId)) return undefined;
  for await (const item of queryCollection(userCollections.sshKeyById(keyId))) return fromItem(item);
  return undefined;
}

export async function deleteSshKey(userId: number, keyId: number): Promise<SshKey | undefined> {
  if (!isId(keyId)) return undefined;
  const item = await deleteChild(userKeys.sshKey(userId, keyId));
  return item ? fromItem(item) : undefined;
}
