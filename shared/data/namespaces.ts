/**
 * Namespaces: a user's personal namespace or a group (GitLab: a group *is* a namespace, same id).
 * The full path (`group/subgroup`) is unique case-insensitively across all namespaces through
 * its claim; a username is its personal namespace's path, so users and groups never collide.
 */
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { config } from '../config';
import { db } from './client';
import { indexKeys, keys } from './keys';
import type { Item } from './query';
import { entityFields } from './user-children';

export type Visibility = 'private' | 'internal' | 'public';
export const VISIBILITIES = ['private', 'internal', 'public'] as const;
export const visibilityRank: Record<Visibility, number> = { private: 0, internal: 10, public: 20 };

export interface Namespace {
  id: number;
  kind: 'user' | 'group';
  name: string;
  path: string;
  fullPath: string;
  /** Parent group of a subgroup; null for top-level groups and user namespaces. */
  parentId: number | null;
  /** Ancestor group ids, nearest first: membership in any of them is inherited. */
  ancestorIds: number[];
  /** Owner of a personal namespace. */
  ownerId: number | null;
  description: string;
  visibility: Visibility;
  lfsEnabled: boolean;
  requestAccessEnabled: boolean;
  /** Members of a group with access level 50, kept exact so the last owner can never leave. */
  ownerCount: number;
  /** Projects in a personal namespace, checked against the owner's `projects_limit`. */
  projectCount: number;
  createdAt: string;
  updatedAt: string;
  version: number;
  deleting?: boolean;
}

const table = () => config().tableName;

export function namespaceToItem(namespace: Namespace): Item {
  return {
    ...keys.namespace(namespace.id),
    ...indexKeys.namespaceList(namespace.id),
    ...(namespace.kind === 'group' ? indexKeys.groupList(namespace.id) : {}),
    ...(namespace.parentId !== null ? indexKeys.subgroups(namespace.parentId, namespace.id) : {}),
    type: 'Namespace',
    ...namespace,
  };
}

export const namespaceFromItem = (item: Item): Namespace => entityFields(item) as Namespace;

/** The personal namespace of a new user. */
export function personalNamespace(input: { id: number; username: string; ownerId: number; createdAt: string }): Namespace {
  return {
    id: input.id,
    kind: 'user',
    name: input.username,
    path: input.username,
    fullPath: input.username,
    parentId: null,
    ancestorIds: [],
    ownerId: input.ownerId,
    description: '',
    visibility: 'public',
    lfsEnabled: true,
    requestAccessEnabled: false,
    ownerCount: 0,
    projectCount: 0,
    createdAt: input.createdAt,
    updatedAt: input.createdAt,
    version: 1,
  };
}

export async function getNamespace(id: number): Promise<Namespace | undefined> {
  if (!Number.isSafeInteger(id) || id <= 0) return undefined;
  const { Item: item } = await db().send(new GetCommand({ TableName: table(), Key: keys.namespace(id), ConsistentRead: true }));
  return item && !item.deleting ? namespaceFromItem(item) : undefined;
}

/** A namespace by full path, case-insensitively (one claim read, one item read). */
export async function findNamespaceByPath(fullPath: string): Promise<Namespace | undefined> {
  const { Item: claim } = await db().send(
    new GetCommand({ TableName: table(), Key: keys.claims.namespacePath(fullPath), ConsistentRead: true }),
  );
  return claim?.namespaceId ? getNamespace(Number(claim.namespaceId)) : undefined;
}
