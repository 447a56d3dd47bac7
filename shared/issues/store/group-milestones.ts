/**
 * Group milestones (GitLab's milestones with a `group_id`): items in their group's partition
 * (`NAMESPACE#<id>` / `MILESTONE#<id>`), each with a title claim beside it (`MILESTONE_TITLE#<sha256>`)
 * that makes the title unique within the group, case-sensitively. Ids come from the `milestones`
 * sequence project milestones use; iids from the group's own (`milestones#group:<id>`). Everything
 * goes with the group's partition when the group is deleted.
 *
 * Every write is one transaction that checks the group is live; edits and deletions are
 * conditioned on the `version` read, and a rename moves the claim in the same transaction.
 */
import { entityFields } from '../../platform/dynamo/items';
import { DeleteCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { db, tableName } from '../../platform/dynamo/client';
import { ifConditionHolds } from '../../platform/dynamo/conditional';
import { getEntity, getItem, isId, queryAll, type Item } from '../../platform/dynamo/query';
import { type NamedTransactItems, type TransactItem, transactOr, versionedDelete, versionedPut } from '../../platform/dynamo/transactions';
import { groupIsLive } from '../../namespaces';
import { projectIsLive } from '../../projects';
import { issueCollections, issueKeys } from './keys';
import type { Milestone, MilestoneWriteFailure } from './milestones';

/**
 * A group's milestone: a project milestone's fields, held by a group. `aliases` names the projects'
 * alias items (`<projectId>#<milestoneId>`): a project whose issues use the milestone holds one, a
 * project milestone item with `aliasOf` (the group milestone's id, or a promoted milestone's own),
 * carrying the project's lists and counts.
 */
export type GroupMilestone = Omit<Milestone, 'projectId' | 'aliasOf'> & { groupId: number; aliases?: Set<string> };

/** Why a write did not happen (`group_gone`: the group is gone or being deleted). */
export type GroupMilestoneWriteFailure = Exclude<MilestoneWriteFailure, 'project_gone'> | 'group_gone';

const fromItem = (item: Item): GroupMilestone => entityFields(item) as GroupMilestone;

/** The sequence of a group's milestone iids. */
export const groupMilestoneIidSequence = (groupId: number) => `milestones#group:${groupId}`;

const putTitleClaim = (groupId: number, title: string, milestoneId: number): TransactItem => ({
  Put: {
    TableName: tableName(),
    Item: { ...issueKeys.claims.groupMilestoneTitle(groupId, title), type: 'Claim', groupId, milestoneId, title },
    ConditionExpression: 'attribute_not_exists(PK)',
  },
});

const deleteTitleClaim = (groupId: number, title: string, milestoneId: number): TransactItem => ({
  Delete: {
    TableName: tableName(),
    Key: issueKeys.claims.groupMilestoneTitle(groupId, title),
    ConditionExpression: 'attribute_not_exists(PK) OR milestoneId = :milestoneId',
    ExpressionAttributeValues: { ':milestoneId': milestoneId },
  },
});

const putMilestone = (record: GroupMilestone, previous?: GroupMilestone) =>
  versionedPut(tableName(), { ...issueKeys.groupMilestone(record.groupId, record.id), type: 'GroupMilestone', ...record }, previous?.version);

export async function getGroupMilestone(groupId: number, milestoneId: number): Promise<GroupMilestone | undefined> {
  if (!isId(milestoneId)) return undefined;
  return getEntity(issueKeys.groupMilestone(groupId, milestoneId), fromItem);
}

/** Whether the group has a milestone titled exactly `title` (its claim). */
export async function groupMilestoneTitleTaken(groupId: number, title: string): Promise<boolean> {
  const claim = await getItem(issueKeys.claims.groupMilestoneTitle(groupId, title));
  return claim !== undefined && claim.title === title;
}

/** Every milestone of a group, by id ascending (one bounded range of its partition). */
export async function listGroupMilestones(groupId: number): Promise<GroupMilestone[]> {
  return (await queryAll(issueCollections.groupMilestones(groupId))).map(fromItem);
}

function write(entries: NamedTransactItems): Promise<GroupMilestoneWriteFailure | undefined> {
  const failures = [['group', 'group_gone'], ['milestone', 'milestone_changed'], ['title', 'title_taken']] as const;
  return transactOr<GroupMilestoneWriteFailure>(entries, failures, 'milestone_changed');
}

/** Adds a milestone to a live group and claims its title, atomically. */
export async function insertGroupMilestone(milestone: GroupMilestone): Promise<GroupMilestone | GroupMilestoneWriteFailure> {
  const failure = await write({
    group: groupIsLive(milestone.groupId),
    milestone: putMilestone(milestone),
    title: putTitleClaim(milestone.groupId, milestone.title, milestone.id),
  });
  return failure ?? milestone;
}

/** Replaces `previous` with `next` (version + 1), conditioned on the version read; a rename moves the claim. */
export async function replaceGroupMilestone(previous: GroupMilestone, next: GroupMilestone): Promise<GroupMilestone | GroupMilestoneWriteFailure> {
  const written: GroupMilestone = { ...next, version: previous.version + 1 };
  const renamed = previous.title !== next.title;
  const failure = await write({
    group: groupIsLive(previous.groupId),
    milestone: putMilestone(written, previous),
    title: renamed && putTitleClaim(previous.groupId, next.title, next.id),
    oldTitle: renamed && deleteTitleClaim(previous.groupId, previous.title, previous.id),
  });
  return failure ?? written;
}

/** Deletes the milestone as read and releases its title, atomically. */
export async function removeGroupMilestone(milestone: GroupMilestone): Promise<GroupMilestoneWriteFailure | undefined> {
  return write({
    milestone: versionedDelete(tableName(), issueKeys.groupMilestone(milestone.groupId, milestone.id), milestone.version),
    oldTitle: deleteTitleClaim(milestone.groupId, milestone.title, milestone.id),
  });
}

/** Where a group milestone's aliases are: project and alias milestone id. */
export interface MilestoneAliasKey {
  projectId: number;
  milestoneId: number;
}

export function milestoneAliasKeys(milestone: GroupMilestone): MilestoneAliasKey[] {
  return [...(milestone.aliases ?? [])].map((entry) => {
    const [projectId, milestoneId] = entry.split('#').map(Number);
    return { projectId, milestoneId };
  });
}

/** Internal: registers an alias on the group milestone (and bumps its version), conditioned on it existing. */
const addAlias = (milestone: GroupMilestone, alias: MilestoneAliasKey): TransactItem => ({
  Update: {
    TableName: tableName(),
    Key: issueKeys.groupMilestone(milestone.groupId, milestone.id),
    UpdateExpression: 'ADD aliases :alias, version :one',
    ConditionExpression: 'attribute_exists(PK)',
    ExpressionAttributeValues: { ':alias': new Set([`${alias.projectId}#${alias.milestoneId}`]), ':one': 1 },
  },
});

/** The project's alias item of a group milestone (fields copied, `aliasOf` set). */
const aliasOf = (projectId: number, milestone: GroupMilestone): Milestone => ({
  id: milestone.id,
  iid: milestone.iid,
  projectId,
  title: milestone.title,
  description: milestone.description,
  dueDate: milestone.dueDate,
  startDate: milestone.startDate,
  state: milestone.state,
  createdAt: milestone.createdAt,
  updatedAt: milestone.updatedAt,
  version: 1,
  aliasOf: { groupId: milestone.groupId, milestoneId: milestone.id },
});

/**
 * Gives a live project an alias of a group milestone, so its issues can carry it (#M1): the group
 * milestone `ADD`s the project to `aliases` (and its `version`, so an edit that read it before
 * re-reads instead of putting the old set back), conditioned on it existing; the alias is Put
 * `attribute_not_exists`. `'exists'` when the project has it already.
 */
export async function insertMilestoneAlias(projectId: number, milestone: GroupMilestone): Promise<Milestone | 'project_gone' | 'milestone_gone' | 'exists'> {
  const alias = aliasOf(projectId, milestone);
  const entries = {
    project: projectIsLive(projectId),
    group: addAlias(milestone, { projectId, milestoneId: milestone.id }),
    alias: { Put: { TableName: tableName(), Item: { ...issueKeys.milestone(projectId, milestone.id), type: 'Milestone', ...alias }, ConditionExpression: 'attribute_not_exists(PK)' } },
  };
  const failures = [['project', 'project_gone'], ['group', 'milestone_gone'], ['alias', 'exists']] as const;
  return (await transactOr<'project_gone' | 'milestone_gone' | 'exists'>(entries, failures, 'exists')) ?? alias;
}

/**
 * Turns a project milestone (as read) into an alias of `milestone` (GitLab's
 * `Milestones::PromoteService` merging it into the group milestone): its issues, lists and counts
 * stay, it takes the group milestone's fields, and its title claim is released (the project's own
 * milestones no longer hold the title). `'stale'` when it changed since it was read,
 * `'milestone_gone'` when the group milestone is gone.
 */
export async function convertToMilestoneAlias(own: Milestone, milestone: GroupMilestone): Promise<'converted' | 'stale' | 'milestone_gone'> {
  const entries = {
    group: addAlias(milestone, { projectId: own.projectId, milestoneId: own.id }),
    alias: {
      Update: {
        TableName: tableName(),
        Key: issueKeys.milestone(own.projectId, own.id),
        UpdateExpression:
          'SET aliasOf = :aliasOf, iid = :iid, title = :title, description = :description, dueDate = :dueDate, startDate = :startDate, #state = :state, updatedAt = :updatedAt, version = :next',
        ConditionExpression: 'version = :version',
        ExpressionAttributeNames: { '#state': 'state' },
        ExpressionAttributeValues: {
          ':aliasOf': { groupId: milestone.groupId, milestoneId: milestone.id },
          ':iid': milestone.iid,
          ':title': milestone.title,
          ':description': milestone.description,
          ':dueDate': milestone.dueDate,
          ':startDate': milestone.startDate,
          ':state': milestone.state,
          ':updatedAt': milestone.updatedAt,
          ':next': own.version + 1,
          ':version': own.version,
        },
      },
    },
    title: {
      Delete: {
        TableName: tableName(),
        Key: issueKeys.claims.milestoneTitle(own.projectId, own.title),
        ConditionExpression: 'attribute_not_exists(PK) OR milestoneId = :milestoneId',
        ExpressionAttributeValues: { ':milestoneId': own.id },
      },
    },
  };
  return (await transactOr(entries, [['group', 'milestone_gone'], ['alias', 'stale']] as const, 'stale' as const)) ?? 'converted';
}

/** Copies a group milestone's fields onto one project's alias (an alias that is gone stays gone). */
export async function syncMilestoneAlias(alias: MilestoneAliasKey, milestone: GroupMilestone): Promise<void> {
  await send(new UpdateCommand({
    TableName: tableName(),
    Key: issueKeys.milestone(alias.projectId, alias.milestoneId),
    UpdateExpression: 'SET title = :title, description = :description, dueDate = :dueDate, startDate = :startDate, #state = :state, updatedAt = :updatedAt ADD version :one',
    ConditionExpression: 'attribute_exists(PK) AND aliasOf.milestoneId = :id',
    ExpressionAttributeNames: { '#state': 'state' },
    ExpressionAttributeValues: {
      ':title': milestone.title,
      ':description': milestone.description,
      ':dueDate': milestone.dueDate,
      ':startDate': milestone.startDate,
      ':state': milestone.state,
      ':updatedAt': milestone.updatedAt,
      ':one': 1,
      ':id': milestone.id,
    },
  }));
}

/** Deletes one project's alias of a deleted group milestone (its issues then show no milestone, as for a deleted project milestone). */
export async function removeMilestoneAlias(alias: MilestoneAliasKey, milestone: GroupMilestone): Promise<void> {
  await send(new DeleteCommand({
    TableName: tableName(),
    Key: issueKeys.milestone(alias.projectId, alias.milestoneId),
    ConditionExpression: 'aliasOf.milestoneId = :id',
    ExpressionAttributeValues: { ':id': milestone.id },
  }));
}

/** Internal: sends a conditional single-item write; a failed condition (the alias is gone) is not an error. */
async function send(command: UpdateCommand | DeleteCommand): Promise<void> {
  await ifConditionHolds(db().send(command as UpdateCommand));
}
