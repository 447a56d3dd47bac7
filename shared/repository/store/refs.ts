/**
 * Refs: one item per ref in the project's partition. Every change is a compare-and-swap on the
 * value the pusher saw (as JGit's DFS ref database does): creating needs the ref to be absent,
 * updating and deleting need it to still hold the old id. Several changes are one transaction when
 * the client asked for an atomic push; otherwise each change stands or fails alone.
 */
import { DeleteCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { db, tableName } from '../../platform/dynamo/client';
import { queryAll, getItem } from '../../platform/dynamo/query';
import { ConditionFailed, heldAs, transact, transactOr, type TransactItem } from '../../platform/dynamo/transactions';
import { ifConditionHolds } from '../../platform/dynamo/conditional';
import { projectIsLive } from '../../projects';
import { repositoryCollections, repositoryKeys, type RepositoryKind } from './keys';

/** A ref and the object id it holds (`peeled`: the object an annotated tag finally points at). */
export interface Ref {
  name: string;
  oid: string;
  peeled?: string;
}

/**
 * A change of one ref: `oldOid` null creates it, `newOid` null deletes it. `peeled` is kept
 * beside the id when it names an annotated tag, so advertising refs never reads objects.
 */
export interface RefUpdate {
  name: string;
  oldOid: string | null;
  newOid: string | null;
  peeled?: string;
}

/** The longest ref name a sort key holds (DynamoDB allows 1024 bytes; `REF#` takes four). */
export const MAX_REF_NAME_BYTES = 1000;

const refFromItem = (item: Record<string, unknown>): Ref => ({
  name: (item.SK as string).slice((item.SK as string).indexOf('#') + 1),
  oid: item.oid as string,
  ...(item.peeled ? { peeled: item.peeled as string } : {}),
});

/** Every ref under `prefix` (all of them by default), in byte order. */
export async function listRefs(projectId: number, prefix = '', kind: RepositoryKind = 'project'): Promise<Ref[]> {
  return (await queryAll(repositoryCollections.refs(projectId, prefix, kind))).map(refFromItem);
}

export async function getRef(projectId: number, name: string, kind: RepositoryKind = 'project'): Promise<Ref | undefined> {
  const item = await getItem(repositoryKeys.ref(projectId, name, kind));
  return item ? refFromItem(item) : undefined;
}

function refWrite(projectId: number, update: RefUpdate, kind: RepositoryKind): TransactItem {
  const Key = repositoryKeys.ref(projectId, update.name, kind);
  const condition = update.oldOid === null
    ? { ConditionExpression: 'attribute_not_exists(PK)' }
    : { ConditionExpression: 'oid = :old', ExpressionAttributeValues: { ':old': update.oldOid } };
  if (update.newOid === null) return { Delete: { TableName: tableName(), Key, ...condition } };
  const values = { ...condition.ExpressionAttributeValues };
  return {
    Put: {
      TableName: tableName(),
      Item: { ...Key, type: 'Ref', oid: update.newOid, ...(update.peeled ? { peeled: update.peeled } : {}) },
      ConditionExpression: condition.ConditionExpression,
      ...(Object.keys(values).length ? { ExpressionAttributeValues: values } : {}),
    },
  };
}

/** Applies one change; false when the ref no longer holds what the pusher saw (a racing push won). */
export async function updateRef(projectId: number, update: RefUpdate, kind: RepositoryKind = 'project'): Promise<boolean> {
  const write = refWrite(projectId, update, kind);
  const sent = write.Put ? db().send(new PutCommand(write.Put)) : db().send(new DeleteCommand(write.Delete!));
  return (await ifConditionHolds(sent)) !== undefined;
}

/**
 * Applies one change together with `extras` (what records the change: a feed event, a webhook
 * event), in one transaction conditioned on the project being live: the extras are written
 * exactly when the ref moves. `stale` when the ref no longer holds what the writer saw,
 * `project_gone` when the project is gone or being deleted (nothing is written either way).
 */
export async function updateRefWith(
  projectId: number,
  update: RefUpdate,
  kind: RepositoryKind,
  extras: Record<string, TransactItem | undefined>,
): Promise<'updated' | 'stale' | 'project_gone'> {
  // A ref item has no index entries: its image as the writer saw it spares the transaction reading it back.
  const ref = heldAs(refWrite(projectId, update, kind), { ...repositoryKeys.ref(projectId, update.name, kind), type: 'Ref' });
  const failure = await transactOr<'stale' | 'project_gone'>({ ...extras, project: projectIsLive(projectId), ref }, [
    ['project', 'project_gone'],
    ['ref', 'stale'],
  ]);
  return failure ?? 'updated';
}

/** The most changes one atomic push may make (DynamoDB's transaction limit). */
export const MAX_ATOMIC_REF_UPDATES = 100;

/**
 * Applies all changes or none. Answers the names of the refs whose old value no longer held
 * (empty when every change was applied).
 */
export async function updateRefsAtomically(projectId: number, updates: RefUpdate[], kind: RepositoryKind = 'project'): Promise<string[]> {
  const entries = Object.fromEntries(updates.map((update, i) => [`ref${i}`, refWrite(projectId, update, kind)]));
  try {
    await transact(entries);
    return [];
  } catch (error) {
    if (!(error instanceof ConditionFailed)) throw error;
    return updates.filter((_, i) => error.failedOn(`ref${i}`)).map((update) => update.name);
  }
}
