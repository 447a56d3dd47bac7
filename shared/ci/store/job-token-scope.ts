/**
 * A project's CI/CD job token scope (GitLab's `Ci::JobToken::Scope` and `Ci::JobToken::Allowlist`,
 * inbound direction): whether jobs of other projects are kept out unless allowlisted (the setting
 * item, absent until first changed: enabled, as GitLab's default for new projects), and the
 * projects and groups on its allowlist, one item each, all in the project's partition (deleted
 * with it).
 *
 * An entry is taken by the write itself (a Put conditioned on its absence) and the setting item
 * counts entries in the same transaction, conditioned on the limit: parallel adds of one target
 * have one winner, and parallel adds never pass the limit together.
 */
import { tableName } from '../../platform/dynamo/client';
import { getMany } from '../../platform/dynamo/batch';
import { getItem, queryAll, type Item } from '../../platform/dynamo/query';
import { transactOr } from '../../platform/dynamo/transactions';
import { projectIsLive } from '../../projects';
import { ciCollections, ciKeys, type AllowlistTarget } from './keys';

export type { AllowlistTarget } from './keys';

export interface JobTokenScope {
  /** GitLab's `ci_inbound_job_token_scope_enabled`: only this project and the allowlist may use job tokens here. */
  inboundEnabled: boolean;
  /** How many projects and groups are on the allowlist (the project itself not counted). */
  projectCount: number;
  groupCount: number;
}

export interface AllowlistEntry {
  target: AllowlistTarget;
  addedBy: number;
  createdAt: string;
}

/** Why a write did not happen: the project is gone (or being deleted), the target is on the list already, the list is full, the entry is gone. */
export type AllowlistWriteFailure = 'project_gone' | 'taken' | 'limit' | 'gone';

/** Internal: the scope a setting item says (or the defaults, when there is none). */
export function scopeFromItem(item: Item | undefined): JobTokenScope {
  return {
    inboundEnabled: item?.inboundEnabled !== false,
    projectCount: Number(item?.projectCount ?? 0),
    groupCount: Number(item?.groupCount ?? 0),
  };
}

/** A project's job token scope (one GetItem). */
export async function getJobTokenScope(projectId: number): Promise<JobTokenScope> {
  return scopeFromItem(await getItem(ciKeys.jobTokenScope(projectId)));
}

/** Sets whether the inbound scope is enabled; `project_gone` when the project is gone or being deleted. */
export function setInboundScope(projectId: number, enabled: boolean): Promise<AllowlistWriteFailure | undefined> {
  return transactOr(
    {
      project: projectIsLive(projectId),
      scope: {
        Update: {
          TableName: tableName(),
          Key: ciKeys.jobTokenScope(projectId),
          UpdateExpression: 'SET inboundEnabled = :enabled, #type = :type',
          ExpressionAttributeNames: { '#type': 'type' },
          ExpressionAttributeValues: { ':enabled': enabled, ':type': 'CiJobTokenScope' },
        },
      },
    },
    [['project', 'project_gone']],
  );
}

const countAttribute = (kind: AllowlistTarget['kind']) => (kind === 'project' ? 'projectCount' : 'groupCount');

/**
 * Puts `target` on the project's allowlist while the project is live, the target not on it yet
 * and the list of its kind under `limit`, in one transaction.
 */
export function insertAllowlistEntry(projectId: number, target: AllowlistTarget, addedBy: number, limit: number): Promise<AllowlistWriteFailure | undefined> {
  const count = countAttribute(target.kind);
  return transactOr(
    {
      project: projectIsLive(projectId),
      entry: {
        Put: {
          TableName: tableName(),
          Item: { ...ciKeys.jobTokenAllowlistEntry(projectId, target), type: 'CiJobTokenAllowlistEntry', projectId, targetKind: target.kind, targetId: target.id, addedBy, createdAt: new Date().toISOString() },
          ConditionExpression: 'attribute_not_exists(PK)',
        },
      },
      count: {
        Update: {
          TableName: tableName(),
          Key: ciKeys.jobTokenScope(projectId),
          UpdateExpression: `ADD ${count} :one SET #type = :type`,
          ConditionExpression: `attribute_not_exists(${count}) OR ${count} < :limit`,
          ExpressionAttributeNames: { '#type': 'type' },
          ExpressionAttributeValues: { ':one': 1, ':limit': limit, ':type': 'CiJobTokenScope' },
        },
      },
    },
    [
      ['project', 'project_gone'],
      ['entry', 'taken'],
      ['count', 'limit'],
    ],
  );
}

/** Takes `target` off the project's allowlist and counts it out; `gone` when it was not on it. */
export function deleteAllowlistEntry(projectId: number, target: AllowlistTarget): Promise<AllowlistWriteFailure | undefined> {
  return transactOr(
    {
      entry: { Delete: { TableName: tableName(), Key: ciKeys.jobTokenAllowlistEntry(projectId, target), ConditionExpression: 'attribute_exists(PK)' } },
      count: {
        Update: {
          TableName: tableName(),
          Key: ciKeys.jobTokenScope(projectId),
          UpdateExpression: `ADD ${countAttribute(target.kind)} :minus`,
          ExpressionAttributeValues: { ':minus': -1 },
        },
      },
    },
    [['entry', 'gone']],
  );
}

/**
 * Takes entries whose target is gone (deleted, or being deleted) off the project's allowlist, as
 * GitLab's scope links go with their target; each counted out once (its delete is conditioned on
 * the entry being there), so lists cleaning side by side never count one twice.
 */
export async function deleteAllowlistEntries(projectId: number, targets: readonly AllowlistTarget[]): Promise<void> {
  await Promise.all(targets.map((target) => deleteAllowlistEntry(projectId, target)));
}

/** A project's allowlist entries of one kind, by target id (at most the list's limit: one Query). */
export async function allowlistEntries(projectId: number, kind: AllowlistTarget['kind']): Promise<AllowlistEntry[]> {
  const items = await queryAll(ciCollections.jobTokenAllowlist(projectId, kind));
  return items.map((item) => ({ target: { kind: item.targetKind, id: Number(item.targetId) }, addedBy: Number(item.addedBy), createdAt: String(item.createdAt) }));
}

/** Whether any of `targets` is on the project's allowlist (one BatchGetItem of their entries). */
export async function anyOnAllowlist(projectId: number, targets: readonly AllowlistTarget[]): Promise<boolean> {
  if (targets.length === 0) return false;
  return (await getMany(targets.map((target) => ciKeys.jobTokenAllowlistEntry(projectId, target)))).length > 0;
}
