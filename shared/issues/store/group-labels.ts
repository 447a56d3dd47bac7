/**
 * Group labels (GitLab's `GroupLabel`): items in their group's partition (`NAMESPACE#<id>` /
 * `LABEL#<id>`), each with a name claim beside it (`LABEL_NAME#<sha256 of the lower-cased name>`)
 * that makes names unique per group, case-insensitively, as project labels are per project. Ids
 * come from the `labels` sequence project labels use, so a label id names one label anywhere.
 * Both go with the group's partition when the group is deleted.
 *
 * Writes are one transaction each, checking the group is live (not being deleted); edits and
 * deletes are conditioned on the `version` read, and a rename moves the claim in the same
 * transaction. A group has a bounded number of labels: lists read its range whole (no search
 * entries; a search filters the range).
 */
import { getMany } from '../../platform/dynamo/batch';
import { tableName } from '../../platform/dynamo/client';
import { entityFields, putClaim } from '../../platform/dynamo/items';
import { getItem, getEntity, isId, queryAll, type Item } from '../../platform/dynamo/query';
import { type TransactItem, transactOr, versionedDelete } from '../../platform/dynamo/transactions';
import { groupIsLive } from '../../namespaces';
import { projectIsLive } from '../../projects';
import { issueCollections, issueKeys } from './keys';
import { labelFieldsUpdate, newLabel, releaseClaim, type Label, type LabelFields, type LabelWriteFailure } from './labels';

/**
 * A group's label: a project label's fields, held by a group. `aliases` names the projects'
 * alias items (`<projectId>#<labelId>`): a project whose issues use the label holds one, carrying
 * the project's counts; the group label's counts are their sum.
 */
export type GroupLabel = Omit<Label, 'projectId' | 'aliasOf'> & { groupId: number; aliases?: Set<string> };

/** Where a group label's aliases are: project and alias label id. */
export function aliasKeysOf(label: GroupLabel): Array<{ projectId: number; labelId: number }> {
  return [...(label.aliases ?? [])].map((entry) => {
    const [projectId, labelId] = entry.split('#').map(Number);
    return { projectId, labelId };
  });
}

/** The live aliases of a group label (one BatchGetItem; an alias of a deleted project is simply absent). */
export async function getAliases(label: GroupLabel): Promise<Label[]> {
  const keys = aliasKeysOf(label).map(({ projectId, labelId }) => issueKeys.label(projectId, labelId));
  const items = await getMany(keys);
  return items.map((item) => entityFields(item) as Label).filter((alias) => alias.aliasOf?.groupId === label.groupId && alias.aliasOf.labelId === label.id);
}

/** Internal: registers an alias on the group label, conditioned on the label existing. */
const addAlias = (label: GroupLabel, projectId: number, aliasId: number): TransactItem => ({
  Update: {
    TableName: tableName(),
    Key: issueKeys.groupLabel(label.groupId, label.id),
    UpdateExpression: 'ADD aliases :alias',
    ConditionExpression: 'attribute_exists(PK)',
    ExpressionAttributeValues: { ':alias': new Set([`${projectId}#${aliasId}`]) },
  },
});

/**
 * Gives a project an alias of a group label (same id, the label's fields, no counts yet) and
 * claims its name in the project, so the project's issues can carry the label; `'exists'` when
 * the project has the alias already, `'name_taken'` when a project label holds the name.
 */
export async function insertLabelAlias(projectId: number, label: GroupLabel): Promise<Label | 'project_gone' | 'label_gone' | 'exists' | 'name_taken'> {
  const alias: Label = {
    id: label.id,
    projectId,
    name: label.name,
    color: label.color,
    description: label.description,
    priority: null,
    openIssuesCount: 0,
    closedIssuesCount: 0,
    openMergeRequestsCount: 0,
    createdAt: label.createdAt,
    updatedAt: label.updatedAt,
    version: 1,
    aliasOf: { groupId: label.groupId, labelId: label.id },
  };
  const entries = {
    project: projectIsLive(projectId),
    group: addAlias(label, projectId, alias.id),
    alias: { Put: { TableName: tableName(), Item: { ...issueKeys.label(projectId, alias.id), type: 'Label', ...alias }, ConditionExpression: 'attribute_not_exists(PK)' } },
    name: putClaim(issueKeys.claims.labelName(projectId, alias.name), { labelId: alias.id }),
  };
  const failures = [['project', 'project_gone'], ['group', 'label_gone'], ['alias', 'exists']] as const;
  return (await transactOr<'project_gone' | 'label_gone' | 'exists' | 'name_taken'>(entries, failures, 'name_taken')) ?? alias;
}

/**
 * Turns a project label (as read) into an alias of `label` (GitLab's `Labels::PromoteService`
 * merging it into the group label): its issues and counts stay, it takes the group label's
 * fields. `'stale'` when the project label changed since it was read, `'label_gone'` when the
 * group label is gone. The name claim stays: promote merges only labels of the same name.
 */
export async function convertToAlias(projectLabel: Label, label: GroupLabel): Promise<'converted' | 'stale' | 'label_gone'> {
  const entries = {
    group: addAlias(label, projectLabel.projectId, projectLabel.id),
    alias: {
      Update: {
        TableName: tableName(),
        Key: issueKeys.label(projectLabel.projectId, projectLabel.id),
        UpdateExpression: 'SET #aliasOf = :aliasOf, #name = :name, #color = :color, #description = :description, #priority = :null, #updatedAt = :now, #version = :next',
        ConditionExpression: '#version = :version',
        ExpressionAttributeNames: {
          '#aliasOf': 'aliasOf',
          '#name': 'name',
          '#color': 'color',
          '#description': 'description',
          '#priority': 'priority',
          '#updatedAt': 'updatedAt',
          '#version': 'version',
        },
        ExpressionAttributeValues: {
          ':aliasOf': { groupId: label.groupId, labelId: label.id },
          ':name': label.name,
          ':color': label.color,
          ':description': label.description,
          ':null': null,
          ':now': new Date().toISOString(),
          ':next': projectLabel.version + 1,
          ':version': projectLabel.version,
        },
      },
    },
  };
  return (await transactOr(entries, [['group', 'label_gone'], ['alias', 'stale']] as const, 'stale' as const)) ?? 'converted';
}

const groupLabelFromItem = (item: Item): GroupLabel => entityFields(item) as GroupLabel;

/** Every label of a group, by id (bounded; callers sort and page in memory). */
export async function listGroupLabels(groupId: number): Promise<GroupLabel[]> {
  return (await queryAll(issueCollections.groupLabels(groupId))).map(groupLabelFromItem);
}

/** The labels of several groups (a project's ancestors), in the order of `groupIds`. */
export async function listLabelsOfGroups(groupIds: number[]): Promise<GroupLabel[]> {
  return (await Promise.all(groupIds.map(listGroupLabels))).flat();
}

export async function getGroupLabel(groupId: number, labelId: number): Promise<GroupLabel | undefined> {
  if (!isId(labelId)) return undefined;
  return getEntity(issueKeys.groupLabel(groupId, labelId), groupLabelFromItem);
}

/** A group's label by name, case-insensitively: its name claim, then the label. */
export async function findGroupLabelByName(groupId: number, name: string): Promise<GroupLabel | undefined> {
  const claim = await getItem(issueKeys.claims.groupLabelName(groupId, name));
  return claim ? getGroupLabel(groupId, Number(claim.labelId)) : undefined;
}

/** Adds a label to a live group and claims its name; nothing is written otherwise. */
export async function insertGroupLabel(groupId: number, fields: LabelFields): Promise<GroupLabel | 'group_gone' | 'name_taken'> {
  const label: GroupLabel = { ...(await newLabel(fields)), groupId };
  const entries = {
    group: groupIsLive(groupId),
    label: {
      Put: {
        TableName: tableName(),
        Item: { ...issueKeys.groupLabel(groupId, label.id), type: 'GroupLabel', ...label },
        ConditionExpression: 'attribute_not_exists(PK)',
      },
    },
    name: putClaim(issueKeys.claims.groupLabelName(groupId, label.name), { labelId: label.id }),
  };
  return (await transactOr(entries, [['group', 'group_gone']] as const, 'name_taken' as const)) ?? label;
}

/**
 * Replaces the editable fields of `label` (as read), moving the name claim when the name changes
 * other than in case; `'stale'` when the label changed or was deleted since it was read. The
 * counts are never written here (`SET` of the editable fields only).
 */
export async function updateGroupLabel(label: GroupLabel, fields: LabelFields): Promise<GroupLabel | Exclude<LabelWriteFailure, 'project_gone'> | 'group_gone'> {
  const updated: GroupLabel = { ...label, ...fields, updatedAt: new Date().toISOString(), version: label.version + 1 };
  const oldClaim = issueKeys.claims.groupLabelName(label.groupId, label.name);
  const newClaim = issueKeys.claims.groupLabelName(label.groupId, updated.name);
  const claimMoves = oldClaim.SK !== newClaim.SK;
  const entries = {
    group: groupIsLive(label.groupId),
    label: labelFieldsUpdate(issueKeys.groupLabel(label.groupId, label.id), updated, label.version),
    name: claimMoves && putClaim(newClaim, { labelId: label.id }),
    oldName: claimMoves && releaseClaim(oldClaim, label.id),
  };
  const failures = [['label', 'stale'], ['oldName', 'stale'], ['group', 'group_gone']] as const;
  return (await transactOr<'stale' | 'group_gone' | 'name_taken'>(entries, failures, 'name_taken')) ?? updated;
}

/** Deletes `label` (as read) and releases its name; `'stale'` when it changed or is gone since. */
export async function deleteGroupLabel(label: GroupLabel): Promise<'deleted' | 'stale'> {
  const entries = {
    label: versionedDelete(tableName(), issueKeys.groupLabel(label.groupId, label.id), label.version),
    name: releaseClaim(issueKeys.claims.groupLabelName(label.groupId, label.name), label.id),
  };
  return (await transactOr(entries, [], 'stale' as const)) ?? 'deleted';
}
