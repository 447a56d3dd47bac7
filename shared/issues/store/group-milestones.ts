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
import { tableName } from '../../platform/dynamo/client';
import { entityFields } from '../../platform/dynamo/items';
import { getEntity, getItem, isId, queryAll, type Item } from '../../platform/dynamo/query';
import { versionedDelete, versionedPut, type NamedTransactItems, type TransactItem } from '../../platform/dynamo/transactions';
import { groupIsLive } from '../../namespaces';
import { issueCollections, issueKeys } from './keys';
import type { Milestone, MilestoneWriteFailure } from './milestones';
import { transactOr } from './transact';

/** A group's milestone: a project milestone's fields, held by a group. */
export type GroupMilestone = Omit<Milestone, 'projectId'> & { groupId: number };

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
