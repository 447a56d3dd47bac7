/**
 * Group label writes, under the same model rules as project labels (`commands/labels.ts`): names
 * unique per group case-insensitively, GitLab's title and colour validations. And label
 * subscriptions, for project and group labels alike (GitLab's `API::Subscriptions` on labels).
 */
import type { Namespace } from '../../namespaces';
import { config } from '../../platform/config';
import { BadRequestError, ConflictError, NotFoundError, NotModifiedError, ValidationError } from '../../platform/http/errors';
import { groupProjectIds } from '../../projects';
import { findLabelOfGroups } from '../queries/group-labels';
import { convertToAlias, deleteGroupLabel, findGroupLabelByName, getAliases, getGroupLabel, insertGroupLabel, updateGroupLabel, type GroupLabel } from '../store/group-labels';
import { deleteLabelSubscription, putLabelSubscription } from '../store/labels-subscriptions';
import { issueKeys, type LabelOwner } from '../store/keys';
import { findLabelByName, getLabel, updateLabel, type Label } from '../store/labels';
import { notifyLabelDeleted } from '../label-listeners';
import { DEFAULT_LABEL_COLOR, labelFieldsFrom, removeLabel, type LabelInput } from './labels';

const MAX_ATTEMPTS = 5;

/** Creates a group label: 409 `Label already exists` when the group or an ancestor has one of that name (any case). */
export async function createGroupLabel(group: Namespace, input: LabelInput & { name: string; color: string }): Promise<GroupLabel> {
  const fields = labelFieldsFrom(input, { name: '', color: DEFAULT_LABEL_COLOR, description: null, priority: null });
  if (await findLabelOfGroups(group.ancestorIds, fields.name)) throw new ConflictError('Label already exists');
  const result = await insertGroupLabel(group.id, { ...fields, priority: null });
  if (result === 'group_gone') throw new NotFoundError('Group');
  if (result === 'name_taken') throw new ConflictError('Label already exists');
  return result;
}

/**
 * Edits a group label (a group label has no priority: GitLab sets priorities per project);
 * renaming onto another label's name is 400 `{"message":{"title":["has already been taken"]}}`.
 * A concurrent edit is re-read and the edit applied again.
 */
export async function editGroupLabel(label: GroupLabel, input: Omit<LabelInput, 'priority'>): Promise<GroupLabel> {
  let current = label;
  for (let attempt = 1; ; attempt++) {
    const result = await updateGroupLabel(current, labelFieldsFrom(input, current));
    if (typeof result === 'object') {
      await syncAliases(result);
      return result;
    }
    if (result === 'group_gone') throw new NotFoundError('Group');
    if (result === 'name_taken') throw new ValidationError({ title: ['has already been taken'] });
    const fresh = await getGroupLabel(label.groupId, label.id);
    if (!fresh) throw new NotFoundError('Label');
    if (attempt >= MAX_ATTEMPTS) throw new ConflictError('Label was changed concurrently, try again');
    current = fresh;
  }
}

/**
 * Deletes a group label and releases its name, then its projects' aliases (GitLab removes the
 * label from the issues; here, as for a deleted project label, issues drop it when presented);
 * 404 when it is gone already. Deleting the label first means no alias can be added after the
 * aliases are read (an alias is added only while the label exists).
 */
export async function removeGroupLabel(label: GroupLabel): Promise<void> {
  let current = label;
  for (let attempt = 1; ; attempt++) {
    if ((await deleteGroupLabel(current)) === 'deleted') {
      await Promise.all((await getAliases(current)).map((alias) => removeLabel(alias).catch(ignoreGone)));
      await notifyLabelDeleted({ owner: { kind: 'group', id: current.groupId }, labelId: current.id });
      return;
    }
    const fresh = await getGroupLabel(label.groupId, label.id);
    if (!fresh) throw new NotFoundError('Label');
    if (attempt >= MAX_ATTEMPTS) throw new ConflictError('Label was changed concurrently, try again');
    current = fresh;
  }
}

/** Who holds a label, and its item's key. */
export function labelOwnerOf(label: Label | GroupLabel): { owner: LabelOwner; key: { PK: string; SK: string } } {
  return 'groupId' in label
    ? { owner: { kind: 'group', id: label.groupId }, key: issueKeys.groupLabel(label.groupId, label.id) }
    : { owner: { kind: 'project', id: label.projectId }, key: issueKeys.label(label.projectId, label.id) };
}

/**
 * Subscribes (`true`) or unsubscribes (`false`) the user: 304 when they already are in that
 * state (GitLab's `not_modified!`), 404 when the label was deleted meanwhile.
 */
export async function setLabelSubscription(label: Label | GroupLabel, userId: number, subscribed: boolean): Promise<void> {
  const { owner, key } = labelOwnerOf(label);
  const result = subscribed ? await putLabelSubscription(owner, key, label.id, userId) : await deleteLabelSubscription(owner, label.id, userId);
  if (result === 'label_gone') throw new NotFoundError('Label');
  if (result === 'unchanged') throw new NotModifiedError();
}

/** Internal: a label deleted meanwhile is what we wanted. */
const ignoreGone = (error: unknown) => {
  if (!(error instanceof NotFoundError)) throw error;
};

/**
 * Internal: copies a group label's name, colour and description onto its projects' aliases
 * (after the label's own write). An alias whose project holds a label of the new name keeps its
 * old name (the project's label wins, as names are unique per project).
 */
async function syncAliases(label: GroupLabel): Promise<void> {
  const fields = { name: label.name, color: label.color, description: label.description, priority: null };
  await Promise.all(
    (await getAliases(label)).map(async (alias) => {
      let current: Label | undefined = alias;
      for (let attempt = 1; current?.aliasOf && attempt <= MAX_ATTEMPTS; attempt++) {
        const result = await updateLabel(current, fields);
        if (result !== 'stale') return;
        current = await getLabel(alias.projectId, alias.id);
      }
    }),
  );
}

/**
 * Promotes a project label to its group (GitLab's `Labels::PromoteService`): the group's label of
 * that name, or a new one with the label's name, colour and description; then the labels of that
 * name in the group tree's projects (this one's included) become the group label's aliases, so
 * their issues carry the group label and its counts sum theirs. 400 when the group tree has more
 * than `GROUP_ISSUES_PROJECT_LIMIT` projects (as group issue lists).
 *
 * @example
 * const groupLabel = await promoteLabel(label, group); // label's issues now show the group label
 */
export async function promoteLabel(label: Label, group: Namespace): Promise<GroupLabel> {
  const projectIds = await groupProjectIds(group, config().groupIssuesProjectLimit);
  if (projectIds === 'too_many') throw new BadRequestError('Failed to promote project label to group label');
  const groupLabel = await groupLabelNamed(group, label);
  await Promise.all(projectIds.map((projectId) => mergeIntoGroupLabel(projectId, groupLabel)));
  return (await getGroupLabel(group.id, groupLabel.id)) ?? groupLabel;
}

/** Internal: the group's label of the label's name, created from the label when there is none. */
async function groupLabelNamed(group: Namespace, label: Label): Promise<GroupLabel> {
  for (let attempt = 1; ; attempt++) {
    const existing = await findGroupLabelByName(group.id, label.name);
    if (existing) return existing;
    const result = await insertGroupLabel(group.id, { name: label.name, color: label.color, description: label.description, priority: null });
    if (result === 'group_gone') throw new NotFoundError('Group');
    if (result !== 'name_taken') return result;
    if (attempt >= MAX_ATTEMPTS) throw new ConflictError('Label was changed concurrently, try again');
  }
}

/** Internal: the project's own label of the group label's name (if any) becomes its alias. */
async function mergeIntoGroupLabel(projectId: number, groupLabel: GroupLabel): Promise<void> {
  for (let attempt = 1; attempt <= MAX_ATTEMPTS; attempt++) {
    const own = await findLabelByName(projectId, groupLabel.name);
    if (!own || own.aliasOf) return;
    const result = await convertToAlias(own, groupLabel);
    if (result === 'converted') return;
    if (result === 'label_gone') throw new NotFoundError('Label');
  }
  throw new ConflictError('Label was changed concurrently, try again');
}
