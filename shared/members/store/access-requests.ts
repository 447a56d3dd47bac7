/**
 * Access requests (GitLab's requesters: a member row with `requested_at`, here an item of its
 * own): one per user and project or group, in the source's partition (`ACCESS_REQUEST#<userId>`),
 * so deleting the project or group deletes its requests with the rest of its partition. Written
 * with a liveness check of the source in the same transaction; the store returns results, never
 * HTTP errors.
 */
import { DeleteCommand } from '@aws-sdk/lib-dynamodb';
import type { MemberSource } from '../../auth';
import { groupIsLive } from '../../namespaces';
import { projectIsLive } from '../../projects';
import { db, tableName } from '../../platform/dynamo/client';
import { ifConditionHolds } from '../../platform/dynamo/conditional';
import { entityFields } from '../../platform/dynamo/items';
import { getEntity, isId, type Item } from '../../platform/dynamo/query';
import { transactOr } from '../../platform/dynamo/transactions';
import type { CollectionSource } from '../../platform/http/pagination';
import { accessRequestCollections, accessRequestKeys } from './keys';

export interface AccessRequest {
  sourceKind: MemberSource['kind'];
  sourceId: number;
  userId: number;
  /** The level asked for: GitLab's default, developer (approval may give another). */
  accessLevel: number;
  requestedAt: string;
}

const sourceOf = (request: AccessRequest): MemberSource => ({ kind: request.sourceKind, id: request.sourceId });
const requestFromItem = (item: Item): AccessRequest => entityFields(item) as AccessRequest;

/**
 * Stores a new request, atomically with a check that its project or group is live.
 * @returns `source_gone` when the source is gone or being deleted, `exists` when the user has a pending request already.
 */
export async function insertAccessRequest(request: AccessRequest): Promise<'added' | 'source_gone' | 'exists'> {
  const source = sourceOf(request);
  const failure = await transactOr(
    {
      source: source.kind === 'project' ? projectIsLive(source.id) : groupIsLive(source.id),
      request: {
        Put: { TableName: tableName(), Item: { ...accessRequestKeys.request(source, request.userId), type: 'AccessRequest', ...request }, ConditionExpression: 'attribute_not_exists(PK)' },
      },
    },
    [
      ['source', 'source_gone' as const],
      ['request', 'exists' as const],
    ],
  );
  return failure ?? 'added';
}

/** A user's pending request for the source, or undefined. One GetItem. */
export async function getAccessRequest(source: MemberSource, userId: number): Promise<AccessRequest | undefined> {
  if (!isId(userId)) return undefined;
  return getEntity(accessRequestKeys.request(source, userId), requestFromItem);
}

/** Deletes a request; whether there was one. One request. */
export async function deleteAccessRequest(request: AccessRequest): Promise<boolean> {
  const deleted = await ifConditionHolds(
    db().send(new DeleteCommand({ TableName: tableName(), Key: accessRequestKeys.request(sourceOf(request), request.userId), ConditionExpression: 'attribute_exists(PK)' })),
  );
  return deleted !== undefined;
}

/** The source's pending requests as a list source, by user id (one Query per page). */
export const accessRequestList = (source: MemberSource): CollectionSource<AccessRequest> => ({
  collection: accessRequestCollections.requests(source),
  ascending: true,
  select: requestFromItem,
});
