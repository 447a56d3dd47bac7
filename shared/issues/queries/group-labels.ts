/**
 * Group label reads (GitLab's `LabelsFinder` for a group, and for a project with
 * `include_ancestor_groups`): a group's labels and those of its ancestors, and a project's labels
 * with its groups'. A group's labels are one bounded range of its partition; a project's ancestors
 * are on its namespace (`ancestorIds`), so no tree is walked.
 */
import type { Namespace } from '../../namespaces';
import { NotFoundError } from '../../platform/http/errors';
import { matchesSearch, parseSearch } from '../../platform/search';
import { getMany } from '../../platform/dynamo/batch';
import { aliasKeysOf, findGroupLabelByName, getGroupLabel, listLabelsOfGroups, type GroupLabel } from '../store/group-labels';
import { issueKeys, type LabelOwner } from '../store/keys';
import { findLabelByName, getLabel, type Label } from '../store/labels';
import { subscribedLabelIds } from '../store/labels-subscriptions';
import { compareNames, listProjectLabels } from './labels';

/** The group and its ancestors, nearest first (a user namespace: none). */
export const groupChain = (namespace: Namespace): number[] => (namespace.kind === 'group' ? [namespace.id, ...namespace.ancestorIds] : []);

/**
 * A label of the first of `groupIds` that has it, by id or by name (case-insensitive), like
 * GitLab's `find_label`: an all-digits value is tried as an id first, then as a name.
 */
export async function findLabelOfGroups(groupIds: number[], idOrName: string | number): Promise<GroupLabel | undefined> {
  const value = String(idOrName);
  for (const groupId of groupIds) {
    const label = (/^\d+$/.test(value) ? await getGroupLabel(groupId, Number(value)) : undefined) ?? (await findGroupLabelByName(groupId, value));
    if (label) return label;
  }
  return undefined;
}

/** A group label (of the group, or of its ancestors when `includeAncestors`), or 404 `Label Not Found`. */
export async function findGroupLabelOrNotFound(group: Namespace, idOrName: string | number, includeAncestors = false): Promise<GroupLabel> {
  const label = await findLabelOfGroups(includeAncestors ? groupChain(group) : [group.id], idOrName);
  if (!label) throw new NotFoundError('Label');
  return label;
}

/**
 * A label a project can use: its own (first) or one of its groups' (GitLab's project `find_label`
 * with `include_ancestor_groups`), or 404 `Label Not Found`.
 */
export async function findAvailableLabelOrNotFound(projectId: number, namespace: Namespace, idOrName: string | number): Promise<Label | GroupLabel> {
  const value = String(idOrName);
  const own = (/^\d+$/.test(value) ? await getLabel(projectId, Number(value)) : undefined) ?? (await findLabelByName(projectId, value));
  const aliased = own?.aliasOf ? await getGroupLabel(own.aliasOf.groupId, own.aliasOf.labelId) : undefined;
  const label = aliased ?? (own && !own.aliasOf ? own : await findLabelOfGroups(groupChain(namespace), value));
  if (!label) throw new NotFoundError('Label');
  return label;
}

/** Internal: labels `search` finds (GitLab's `fuzzy_search` over name and description). */
function searched<T extends { name: string; description: string | null }>(labels: T[], search?: string): T[] {
  const query = search ? parseSearch(search) : undefined;
  return query ? labels.filter((label) => matchesSearch(query, label.name, label.description)) : labels;
}

const byName = (a: { name: string; id: number }, b: { name: string; id: number }) => compareNames(a.name, b.name) || a.id - b.id;

/** A group's labels (and its ancestors' when `includeAncestors`), by name. */
export async function listLabelsOfGroup(group: Namespace, options: { includeAncestors: boolean; search?: string }): Promise<GroupLabel[]> {
  const labels = await listLabelsOfGroups(options.includeAncestors ? groupChain(group) : [group.id]);
  return searched(labels, options.search).sort(byName);
}

/** A project's labels and, when `includeAncestorGroups`, its groups' labels, by name. */
export async function listAvailableLabels(projectId: number, namespace: Namespace, options: { includeAncestorGroups: boolean; search?: string }): Promise<Array<Label | GroupLabel>> {
  const [own, groups] = await Promise.all([
    listProjectLabels(projectId, options.search),
    options.includeAncestorGroups ? listLabelsOfGroups(groupChain(namespace)) : Promise.resolve([]),
  ]);
  return [...own, ...searched(groups, options.search)].sort(byName);
}

/**
 * Of a page of labels (project and group labels mixed), the ids the user is subscribed to: one
 * BatchGetItem per owner on the page (none when anonymous).
 */
export async function subscribedAmong(labels: Array<Label | GroupLabel>, userId: number | undefined): Promise<Set<number>> {
  if (userId === undefined || labels.length === 0) return new Set();
  const byOwner = new Map<string, { owner: LabelOwner; ids: number[] }>();
  for (const label of labels) {
    const owner: LabelOwner = 'groupId' in label ? { kind: 'group', id: label.groupId } : { kind: 'project', id: label.projectId };
    const entry = byOwner.get(`${owner.kind}:${owner.id}`) ?? { owner, ids: [] };
    entry.ids.push(label.id);
    byOwner.set(`${owner.kind}:${owner.id}`, entry);
  }
  const sets = await Promise.all([...byOwner.values()].map(({ owner, ids }) => subscribedLabelIds(owner, ids, userId)));
  return new Set(sets.flatMap((set) => [...set]));
}

/** Whether the user is subscribed to one label (one GetItem; anonymous: never). */
export async function isSubscribed(label: Label | GroupLabel, userId: number | undefined): Promise<boolean> {
  return (await subscribedAmong([label], userId)).has(label.id);
}

/** The issue and merge request counts of a label as presented (`with_counts`). */
export interface LabelCounts {
  openIssuesCount: number;
  closedIssuesCount: number;
  openMergeRequestsCount: number;
}

/**
 * The counts of a page of group labels: the sums of their projects' aliases, which the issue
 * writes keep exact in the issues' own transactions (one chunked BatchGetItem for the page; its
 * cost is the number of projects using the page's labels, at most the group tree's projects).
 */
export async function groupLabelCounts(labels: GroupLabel[]): Promise<Map<number, LabelCounts>> {
  const counts = new Map<number, LabelCounts>(labels.map((label) => [label.id, { openIssuesCount: 0, closedIssuesCount: 0, openMergeRequestsCount: 0 }]));
  const byAlias = new Map<string, GroupLabel>();
  for (const label of labels) for (const { projectId, labelId } of aliasKeysOf(label)) byAlias.set(`${projectId}#${labelId}`, label);
  const items = await getMany([...byAlias.keys()].map((entry) => issueKeys.label(...(entry.split('#').map(Number) as [number, number]))));
  for (const item of items) {
    const alias = item as Label;
    const label = byAlias.get(`${alias.projectId}#${alias.id}`);
    if (!label || alias.aliasOf?.groupId !== label.groupId || alias.aliasOf.labelId !== label.id) continue;
    const sum = counts.get(label.id)!;
    sum.openIssuesCount += alias.openIssuesCount ?? 0;
    sum.closedIssuesCount += alias.closedIssuesCount ?? 0;
    sum.openMergeRequestsCount += alias.openMergeRequestsCount ?? 0;
  }
  return counts;
}

/** The counts of a page of labels as presented: a project label's own, a group label's summed. */
export async function countsOf(labels: Array<Label | GroupLabel>): Promise<Map<number, LabelCounts>> {
  const group = await groupLabelCounts(labels.filter((label): label is GroupLabel => 'groupId' in label));
  for (const label of labels) {
    if (!('groupId' in label)) group.set(label.id, { openIssuesCount: label.openIssuesCount ?? 0, closedIssuesCount: label.closedIssuesCount ?? 0, openMergeRequestsCount: label.openMergeRequestsCount ?? 0 });
  }
  return group;
}

/** A label by who holds it and its id (a board list's label). */
export interface LabelRef {
  owner: LabelOwner;
  labelId: number;
}

/** The key of a label's item (a write that needs the label to exist checks it). */
export const labelKeyOf = (ref: LabelRef) => (ref.owner.kind === 'project' ? issueKeys.label(ref.owner.id, ref.labelId) : issueKeys.groupLabel(ref.owner.id, ref.labelId));

/**
 * The labels of `refs`, in that order (`undefined`: deleted), read together: one BatchGetItem
 * whatever their owners. A project's alias of a group label is presented as the label it copies.
 */
export async function labelsByRef(refs: readonly LabelRef[]): Promise<Array<Label | GroupLabel | undefined>> {
  return Promise.all(refs.map((ref) => (ref.owner.kind === 'project' ? getLabel(ref.owner.id, ref.labelId) : getGroupLabel(ref.owner.id, ref.labelId))));
}

/**
 * A label usable by a project (its own, not an alias, or one of its groups' and their ancestors')
 * or by a group (its own or its ancestors'), by id: GitLab's `AvailableLabelsService#available_labels`
 * looked up by id. `groupIds` is the chain (`groupChain`), nearest first. One BatchGetItem.
 */
export async function availableLabelById(projectId: number | undefined, groupIds: readonly number[], labelId: number): Promise<{ ref: LabelRef; label: Label | GroupLabel } | undefined> {
  const refs: LabelRef[] = [
    ...(projectId === undefined ? [] : [{ owner: { kind: 'project' as const, id: projectId }, labelId }]),
    ...groupIds.map((id) => ({ owner: { kind: 'group' as const, id }, labelId })),
  ];
  const labels = await labelsByRef(refs);
  const index = labels.findIndex((label) => label !== undefined && !('aliasOf' in label && label.aliasOf));
  return index < 0 ? undefined : { ref: refs[index], label: labels[index]! };
}
