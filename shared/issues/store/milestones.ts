/**
 * Project milestones: items in their project's partition (`PROJECT#<id>` / `MILESTONE#<id>`),
 * each with a title claim beside it (`PROJECT#<id>` / `MILESTONE_TITLE#<sha256>`) that makes the
 * title unique within the project. Both are deleted with the project's partition.
 *
 * Every write is one transaction that also checks the project is live; edits and deletions are
 * conditioned on the `version` read, and a rename moves the claim in the same transaction.
 */
import { tableName } from '../../platform/dynamo/client';
import { entityFields } from '../../platform/dynamo/items';
import { getItem, isId, queryAll, type Item, getEntity } from '../../platform/dynamo/query';
import { type NamedTransactItems, type TransactItem, transactOr, versionedDelete, versionedPut } from '../../platform/dynamo/transactions';
import { projectIsLive } from '../../projects';
import { issueCollections, issueKeys } from './keys';

export type MilestoneState = 'active' | 'closed';

/** What a client sets on a milestone. Dates are `YYYY-MM-DD`. */
export interface MilestoneFields {
  title: string;
  description: string | null;
  dueDate: string | null;
  startDate: string | null;
  state: MilestoneState;
}

export interface Milestone extends MilestoneFields {
  /** Global id (sequence `milestones`). */
  id: number;
  /** Id within the project (sequence `milestones#<projectId>`). */
  iid: number;
  projectId: number;
  createdAt: string;
  updatedAt: string;
  version: number;
  /**
   * Set on a project's alias of a group milestone (same id as the group milestone, its fields
   * copied): the item that carries the project's use of it (#M1). Never listed as the project's own.
   */
  aliasOf?: { groupId: number; milestoneId: number };
}

/** Whether a project milestone item is an alias of a group milestone. */
export const isMilestoneAlias = (milestone: Milestone): boolean => milestone.aliasOf !== undefined;

/** Why a write did not happen. */
export type MilestoneWriteFailure =
  /** The project is gone or being deleted. */
  | 'project_gone'
  /** Another milestone of the project holds the title. */
  | 'title_taken'
  /** The milestone was changed or deleted since it was read. */
  | 'milestone_changed';

const milestoneFromItem = (item: Item): Milestone => entityFields(item) as Milestone;

function milestoneToItem(milestone: Milestone): Item {
  return { ...issueKeys.milestone(milestone.projectId, milestone.id), type: 'Milestone', ...milestone };
}

/** Internal: the claim item reserving `title` in the project for `milestoneId`. */
const putTitleClaim = (projectId: number, title: string, milestoneId: number): TransactItem => ({
  Put: {
    TableName: tableName(),
    Item: { ...issueKeys.claims.milestoneTitle(projectId, title), type: 'Claim', projectId, milestoneId, title },
    ConditionExpression: 'attribute_not_exists(PK)',
  },
});

/** Internal: releases a title claim unless another milestone holds it (a missing claim is fine). */
const deleteTitleClaim = (projectId: number, title: string, milestoneId: number): TransactItem => ({
  Delete: {
    TableName: tableName(),
    Key: issueKeys.claims.milestoneTitle(projectId, title),
    ConditionExpression: 'attribute_not_exists(PK) OR milestoneId = :milestoneId',
    ExpressionAttributeValues: { ':milestoneId': milestoneId },
  },
});

/** Internal: a milestone write conditioned on the version read (`previous`), or on absence. */
const putMilestone = (record: Milestone, previous?: Milestone) => versionedPut(tableName(), milestoneToItem(record), previous?.version);

/** One milestone of a project (consistent read); `undefined` when there is none with that id there. */
export async function getMilestone(projectId: number, milestoneId: number): Promise<Milestone | undefined> {
  if (!isId(milestoneId)) return undefined;
  return getEntity(issueKeys.milestone(projectId, milestoneId), milestoneFromItem);
}

/** The id of the project's milestone titled exactly `title` (its claim), if any. */
export async function getMilestoneIdByTitle(projectId: number, title: string): Promise<number | undefined> {
  return milestoneIdOfClaim(await getItem(issueKeys.claims.milestoneTitle(projectId, title)), title);
}

/** The milestone id a title claim (as read; `undefined`: none) holds for exactly `title` (claims ignore case, titles do not). */
export const milestoneIdOfClaim = (claim: Item | undefined, title: string): number | undefined =>
  claim && claim.title === title ? Number(claim.milestoneId) : undefined;

/** A project's milestone titled exactly `title` (case-sensitive, as in GitLab): its claim, then the milestone. */
export async function findMilestoneByTitle(projectId: number, title: string): Promise<Milestone | undefined> {
  const id = await getMilestoneIdByTitle(projectId, title);
  const milestone = id === undefined ? undefined : await getMilestone(projectId, id);
  return milestone?.title === title ? milestone : undefined;
}

/** Every milestone of a project, by id ascending (one partition range; a project has few). */
export async function listMilestones(projectId: number): Promise<Milestone[]> {
  return (await queryAll(issueCollections.projectMilestones(projectId))).map(milestoneFromItem);
}

/**
 * Internal: runs a milestone transaction; a failed condition is named by the first of its entries
 * that failed, in the order `project`, `milestone`, `title` (the new title's claim), `oldTitle`.
 */
function write(entries: NamedTransactItems): Promise<MilestoneWriteFailure | undefined> {
  const failures = [['project', 'project_gone'], ['milestone', 'milestone_changed'], ['title', 'title_taken']] as const;
  return transactOr<MilestoneWriteFailure>(entries, failures, 'milestone_changed');
}

/**
 * Adds a milestone and claims its title, atomically, while the project is live.
 *
 * @example
 * const result = await insertMilestone({ id, iid, projectId: 7, title: 'v1.0', ... });
 * if (result === 'title_taken') ...
 */
export async function insertMilestone(milestone: Milestone): Promise<Milestone | MilestoneWriteFailure> {
  const failure = await write({
    project: projectIsLive(milestone.projectId),
    milestone: putMilestone(milestone),
    title: putTitleClaim(milestone.projectId, milestone.title, milestone.id),
  });
  return failure ?? milestone;
}

/**
 * Replaces `previous` with `next` (version + 1), conditioned on the version of `previous`; a new
 * title is claimed and the old one released in the same transaction.
 */
export async function replaceMilestone(previous: Milestone, next: Milestone): Promise<Milestone | MilestoneWriteFailure> {
  const written: Milestone = { ...next, version: previous.version + 1 };
  const renamed = previous.title !== next.title;
  const failure = await write({
    project: projectIsLive(previous.projectId),
    milestone: putMilestone(written, previous),
    title: renamed && putTitleClaim(previous.projectId, next.title, next.id),
    oldTitle: renamed && deleteTitleClaim(previous.projectId, previous.title, previous.id),
  });
  return failure ?? written;
}

/** Deletes the milestone as read (`milestone.version`) and releases its title claim, atomically. */
export async function removeMilestone(milestone: Milestone): Promise<MilestoneWriteFailure | undefined> {
  return write({
    milestone: versionedDelete(tableName(), issueKeys.milestone(milestone.projectId, milestone.id), milestone.version),
    oldTitle: deleteTitleClaim(milestone.projectId, milestone.title, milestone.id),
  });
}
