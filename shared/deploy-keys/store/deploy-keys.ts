/**
 * Deploy keys (GitLab's `DeployKey`) and their links to projects (`DeployKeysProject`). A key is
 * one item in its own partition (`DEPLOY_KEY#<id>`), indexed for the instance's lists (GSI1 every
 * key, GSI2 the public ones), with its links beside it (`PROJECT#<project id>`); each link is also
 * in the project's partition (`PROJECT_DEPLOY_KEYS#<project id>`, by key id), which the project's
 * list reads. Both copies of a link, and the key's `linkCount`, are written in one transaction, so
 * a key knows exactly how many projects use it: the unlink that leaves a private key unused deletes
 * it (and its fingerprint claim) in the same transaction, conditioned on the count it read.
 *
 * A key's SHA-256 fingerprint is claimed with the users feature's SSH fingerprint claim, so a
 * deploy key never shares a fingerprint with a user's SSH key, nor with another deploy key. The
 * store returns results (`'project_gone'`, `'claim_taken'`, `undefined`, ...), never HTTP errors.
 */
import { tableName } from '../../platform/dynamo/client';
import { nextId } from '../../platform/dynamo/counters';
import { entityFields, putClaim } from '../../platform/dynamo/items';
import { addIndexEntry, eachInIdOrder, type MigrationStep } from '../../platform/dynamo/migrations';
import { getEntity, getItem, queryAll, queryCollection, type Item } from '../../platform/dynamo/query';
import { heldAs, transactOr } from '../../platform/dynamo/transactions';
import { projectIsLive } from '../../projects';
import { userKeys } from '../../users';
import { DEPLOY_KEY_SEQUENCE, deployKeyCollections, deployKeyIndexKeys, deployKeyKeys } from './keys';

export interface DeployKey {
  id: number;
  title: string;
  /** The normalized public key line (`<type> <base64>[ <comment>]`). */
  key: string;
  /** MD5, `aa:bb:…`. */
  fingerprint: string;
  /** OpenSSH's `SHA256:…`. */
  fingerprintSha256: string;
  /** Public keys are the instance's (created by admins): any maintainer may enable them, and they outlive their last project. */
  public: boolean;
  /** Who created it (GitLab's `user_id`). */
  userId: number;
  createdAt: string;
  expiresAt: string | null;
  /** How many projects use it. */
  linkCount: number;
}

/** A key's link to a project (GitLab's `DeployKeysProject`). */
export interface DeployKeyLink {
  keyId: number;
  projectId: number;
  canPush: boolean;
  createdAt: string;
  /** When `can_push` last changed (absent on links never edited). */
  updatedAt?: string;
}

export const deployKeyFromItem = (item: Item): DeployKey => entityFields(item) as DeployKey;
export const linkFromItem = (item: Item): DeployKeyLink => entityFields(item) as DeployKeyLink;

export const newDeployKeyId = () => nextId(DEPLOY_KEY_SEQUENCE);

const fingerprintClaim = (key: Pick<DeployKey, 'fingerprintSha256'>) => userKeys.claims.sshFingerprint(key.fingerprintSha256);

const linkItems = (link: DeployKeyLink, condition?: string) => [
  {
    Put: {
      TableName: tableName(),
      Item: { ...deployKeyKeys.projectLink(link.projectId, link.keyId), type: 'DeployKeysProject', ...link },
      ...(condition ? { ConditionExpression: condition } : {}),
    },
  },
  { Put: { TableName: tableName(), Item: { ...deployKeyKeys.keyLink(link.keyId, link.projectId), type: 'DeployKeyLink', ...link } } },
];

function keyItem(key: DeployKey): Item {
  return {
    ...deployKeyKeys.key(key.id),
    type: 'DeployKey',
    ...deployKeyIndexKeys.all(key.id),
    ...(key.public ? deployKeyIndexKeys.public(key.id) : {}),
    ...deployKeyIndexKeys.md5(key.fingerprint),
    ...key,
  };
}

/**
 * Writes a new key with its fingerprint claim and, when given, its first link (while the project
 * is live): `claim_taken` when the fingerprint is anyone's already, `project_gone` when the
 * project is gone or being deleted.
 */
export function insertDeployKey(key: DeployKey, link?: DeployKeyLink): Promise<'claim_taken' | 'project_gone' | undefined> {
  return transactOr(
    {
      project: link !== undefined && projectIsLive(link.projectId),
      key: { Put: { TableName: tableName(), Item: keyItem(key), ConditionExpression: 'attribute_not_exists(PK)' } },
      claim: putClaim(fingerprintClaim(key), { deployKeyId: key.id }),
      link: link !== undefined && linkItems(link),
    },
    [['project', 'project_gone'], ['claim', 'claim_taken']],
  );
}

/**
 * Links an existing key to a live project: `already_linked` when the project has it already,
 * `key_gone` when the key was deleted meanwhile, `project_gone` as above.
 */
export function linkDeployKey(link: DeployKeyLink): Promise<'already_linked' | 'key_gone' | 'project_gone' | undefined> {
  return transactOr(
    {
      project: projectIsLive(link.projectId),
      key: {
        Update: {
          TableName: tableName(),
          Key: deployKeyKeys.key(link.keyId),
          UpdateExpression: 'ADD linkCount :one',
          ConditionExpression: 'attribute_exists(PK)',
          ExpressionAttributeValues: { ':one': 1 },
        },
      },
      link: linkItems(link, 'attribute_not_exists(PK)'),
    },
    [['project', 'project_gone'], ['link', 'already_linked'], ['key', 'key_gone']],
  );
}

/**
 * Removes a link (both copies); the key goes with it when it is private and this was its last
 * project (GitLab's `destroyed_when_orphaned`), with its fingerprint claim. Conditioned on the
 * key's `linkCount` as read: `retry` when a concurrent link or unlink changed it, `gone` when the
 * link was no longer there.
 */
export function unlinkDeployKey(key: DeployKey, projectId: number): Promise<'gone' | 'retry' | undefined> {
  const orphaned = !key.public && key.linkCount <= 1;
  const counted = { ConditionExpression: 'linkCount = :count', ExpressionAttributeValues: { ':count': key.linkCount } };
  return transactOr(
    {
      link: { Delete: { TableName: tableName(), Key: deployKeyKeys.projectLink(projectId, key.id), ConditionExpression: 'attribute_exists(PK)' } },
      keyLink: { Delete: { TableName: tableName(), Key: deployKeyKeys.keyLink(key.id, projectId) } },
      key: orphaned
        ? heldAs({ Delete: { TableName: tableName(), Key: deployKeyKeys.key(key.id), ...counted } }, keyItem(key))
        : {
            Update: {
              TableName: tableName(),
              Key: deployKeyKeys.key(key.id),
              UpdateExpression: 'ADD linkCount :minus',
              ...counted,
              ExpressionAttributeValues: { ...counted.ExpressionAttributeValues, ':minus': -1 },
            },
          },
      claim: orphaned && { Delete: { TableName: tableName(), Key: fingerprintClaim(key) } },
    },
    [['link', 'gone'], ['key', 'retry']],
  );
}

/**
 * Edits a link's `can_push` (both copies) and its key's title, together; `gone` when the link (or
 * the key) was removed meanwhile.
 */
export function updateDeployKeysProject(link: DeployKeyLink, change: { canPush?: boolean; title?: string; at: string }): Promise<'gone' | undefined> {
  const setCanPush = (key: Item) =>
    change.canPush !== undefined && {
      Update: {
        TableName: tableName(),
        Key: key,
        UpdateExpression: 'SET canPush = :canPush, updatedAt = :at',
        ConditionExpression: 'attribute_exists(PK)',
        ExpressionAttributeValues: { ':canPush': change.canPush, ':at': change.at },
      },
    };
  return transactOr(
    {
      link: setCanPush(deployKeyKeys.projectLink(link.projectId, link.keyId)),
      keyLink: setCanPush(deployKeyKeys.keyLink(link.keyId, link.projectId)),
      key: change.title !== undefined && {
        Update: {
          TableName: tableName(),
          Key: deployKeyKeys.key(link.keyId),
          UpdateExpression: 'SET #title = :title',
          ConditionExpression: 'attribute_exists(PK)',
          ExpressionAttributeNames: { '#title': 'title' },
          ExpressionAttributeValues: { ':title': change.title },
        },
      },
    },
    [['link', 'gone'], ['keyLink', 'gone'], ['key', 'gone']],
  );
}

export function getDeployKey(keyId: number): Promise<DeployKey | undefined> {
  return getEntity(deployKeyKeys.key(keyId), deployKeyFromItem);
}

export function getProjectLink(projectId: number, keyId: number): Promise<DeployKeyLink | undefined> {
  return getEntity(deployKeyKeys.projectLink(projectId, keyId), linkFromItem);
}

/** The deploy key holding a SHA-256 fingerprint's claim: its id, or `'user_key'` when a user's SSH key holds it, or undefined. */
export async function fingerprintHolder(fingerprintSha256: string): Promise<number | 'user_key' | undefined> {
  const claim = await getItem(fingerprintClaim({ fingerprintSha256 }));
  if (!claim) return undefined;
  return typeof claim.deployKeyId === 'number' ? claim.deployKeyId : 'user_key';
}

/**
 * The deploy key with a fingerprint: a SHA-256 one through the claim it holds (strongly
 * consistent), an MD5 one through GSI3.
 */
export async function findDeployKeyByFingerprint(fingerprint: { sha256: string } | { md5: string }): Promise<DeployKey | undefined> {
  if ('md5' in fingerprint) {
    for await (const item of queryCollection(deployKeyCollections.byMd5(fingerprint.md5))) return deployKeyFromItem(item);
    return undefined;
  }
  const holder = await fingerprintHolder(fingerprint.sha256);
  return typeof holder === 'number' ? getDeployKey(holder) : undefined;
}

/** The data migration giving keys written before GSI3 their MD5 entry (idempotent; resumes after the last key done). */
export const indexDeployKeyFingerprints: MigrationStep = eachInIdOrder(
  (after) => queryCollection(deployKeyCollections.all(after)),
  (item) => Number(item.id),
  async (item) => {
    const written = await addIndexEntry(deployKeyKeys.key(Number(item.id)), deployKeyIndexKeys.md5(String(item.fingerprint)));
    return written ? 1 : 0;
  },
);

/** A key's links, by project id (one Query of its partition). */
export async function linksOfKey(keyId: number): Promise<DeployKeyLink[]> {
  return (await queryAll(deployKeyCollections.keyLinks(keyId))).map(linkFromItem);
}

/** A project's links, by key id (one Query; the project's removal). */
export async function linksOfProject(projectId: number): Promise<DeployKeyLink[]> {
  return (await queryAll(deployKeyCollections.projectLinks(projectId))).map(linkFromItem);
}
