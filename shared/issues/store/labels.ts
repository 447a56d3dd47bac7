/**
 * Project labels: items in their project's partition (`PROJECT#<id>` / `LABEL#<id>`), each with a
 * name claim beside it (`PROJECT#<id>` / `LABEL_NAME#<sha256 of the lower-cased name>`, holding
 * `labelId`) that makes names unique per project, case-insensitively. Label and claim are written
 * and deleted in one transaction; both go with the project's partition when it is deleted.
 *
 * The issue and merge request counts are attributes of the label item that the issues code
 * changes with `ADD`; edits here `SET` only the editable fields, so they never overwrite a count.
 * Edits and deletes are conditioned on the `version` read, so a rename and a concurrent edit
 * cannot leave the item and its claim disagreeing. Search entries (`LABEL_TERM#<term>#<id>`) are
 * written around each write (P7 of the platform's access patterns).
 */
import { byKey, getMany, putMany } from '../../platform/dynamo/batch';
import { tableName } from '../../platform/dynamo/client';
import { removeEntriesUpTo } from '../../platform/dynamo/entries';
import { nextId } from '../../platform/dynamo/counters';
import { entityFields, putClaim } from '../../platform/dynamo/items';
import type { Key } from '../../platform/dynamo/keys';
import { getItem, isId, queryAll, type Item, getEntity } from '../../platform/dynamo/query';
import { type TransactItem, transactOr, versionedDelete } from '../../platform/dynamo/transactions';
import { searchTerms } from '../../platform/search';
import { projectIsLive } from '../../projects';
import { issueCollections, issueKeys } from './keys';

/** What a client sets on a label. */
export interface LabelFields {
  name: string;
  /** `#RRGGBB` or `#RGB`, as given (named colours are converted before they get here). */
  color: string;
  description: string | null;
  /** Lower is more important; `null`: not prioritized. */
  priority: number | null;
}

export interface Label extends LabelFields {
  id: number;
  projectId: number;
  /** Maintained by the issues and merge requests code (`ADD`), never by label edits. */
  openIssuesCount: number;
  closedIssuesCount: number;
  /** How many of the counted issues are confidential (for list totals); absent on labels no confidential issue ever had. */
  confidentialOpenIssuesCount?: number;
  confidentialClosedIssuesCount?: number;
  openMergeRequestsCount: number;
  createdAt: string;
  updatedAt: string;
  version: number;
  /**
   * Set on a project's *alias* of a group label (`store/group-labels.ts`): the item that lets
   * the project's issues carry the group label (its name, colour, description copied; the
   * project's counts of it). Aliases are never listed or edited as the project's own labels.
   */
  aliasOf?: { groupId: number; labelId: number };
}

/** Whether a label item is a project's alias of a group label. */
export const isAlias = (label: Label): boolean => label.aliasOf !== undefined;

/**
 * Why a write did not happen: the project is gone (or being deleted), another label holds the
 * name, or the label changed or disappeared since it was read (read it again to tell which).
 */
export type LabelWriteFailure = 'project_gone' | 'name_taken' | 'stale';

const labelFromItem = (item: Item): Label => entityFields(item) as Label;

/** Every label of a project, by id (a project has a bounded number; callers sort and page in memory). */
export async function listLabels(projectId: number): Promise<Label[]> {
  return (await queryAll(issueCollections.projectLabels(projectId))).map(labelFromItem);
}

export async function getLabel(projectId: number, labelId: number): Promise<Label | undefined> {
  if (!isId(labelId)) return undefined;
  return getEntity(issueKeys.label(projectId, labelId), labelFromItem);
}

/** A label by name, case-insensitively: its name claim, then the label (two consistent reads). */
export async function findLabelByName(projectId: number, name: string): Promise<Label | undefined> {
  const claim = await getItem(issueKeys.claims.labelName(projectId, name));
  return claim ? getLabel(projectId, Number(claim.labelId)) : undefined;
}

/**
 * Labels by name, case-insensitively, in two BatchGetItems (the name claims, then the labels):
 * a lookup of the labels that exist, by lower-cased name. A caller that read the claims already
 * (with something else) hands in what it read (`read`): one BatchGetItem then, none for the
 * labels it read too.
 */
export async function findLabelsByNames(projectId: number, names: string[], read?: (key: Key) => Item | undefined): Promise<Map<string, Label>> {
  const claimOf = read ?? byKey(await getMany(names.map((name) => issueKeys.claims.labelName(projectId, name))));
  const ids = names.flatMap((name) => {
    const claim = claimOf(issueKeys.claims.labelName(projectId, name));
    return claim ? [[name.toLowerCase(), Number(claim.labelId)] as const] : [];
  });
  const unread = ids.filter(([, id]) => !read?.(issueKeys.label(projectId, id)));
  const fetched = unread.length > 0 ? byKey(await getMany(unread.map(([, id]) => issueKeys.label(projectId, id)))) : () => undefined;
  const labelOf = (key: Key) => read?.(key) ?? fetched(key);
  const found = new Map<string, Label>();
  for (const [name, id] of ids) {
    const item = labelOf(issueKeys.label(projectId, id));
    if (item) found.set(name, labelFromItem(item));
  }
  return found;
}

/** A new label's fields and zero counts, with a fresh id (project and group labels alike). */
export async function newLabel(fields: LabelFields): Promise<Omit<Label, 'projectId'>> {
  const now = new Date().toISOString();
  return { ...fields, id: await nextId('labels'), openIssuesCount: 0, closedIssuesCount: 0, openMergeRequestsCount: 0, createdAt: now, updatedAt: now, version: 1 };
}

/**
 * Adds a label and claims its name, while the project is live; nothing is written otherwise.
 *
 * @example
 * const label = await insertLabel(7, { name: 'bug', color: '#d9534f', description: null, priority: null });
 * if (label === 'name_taken') throw new ConflictError('Label already exists');
 */
export async function insertLabel(projectId: number, fields: LabelFields): Promise<Label | 'project_gone' | 'name_taken'> {
  const label: Label = { ...(await newLabel(fields)), projectId };
  const entries = {
    project: projectIsLive(projectId),
    label: {
      Put: {
        TableName: tableName(),
        Item: { ...issueKeys.label(projectId, label.id), type: 'Label', ...label },
        ConditionExpression: 'attribute_not_exists(PK)',
      },
    },
    name: putClaim(issueKeys.claims.labelName(projectId, label.name), { labelId: label.id }),
  };
  const written = searchEntries(label);
  await putMany(written);
  const failed = await transactOr(entries, [['project', 'project_gone']] as const, 'name_taken' as const);
  if (!failed) return label;
  // Written ahead for a label that never was (a project deleted meanwhile sweeps nothing after
  // its sweep): taken back, so none is orphaned.
  await removeEntriesUpTo(written, label.version);
  return failed;
}

/**
 * The Update of a label item's editable fields to `updated`'s, if the item is still at `version`
 * (project and group labels alike; the counts are never written here).
 */
export function labelFieldsUpdate(key: Key, updated: LabelFields & Pick<Label, 'updatedAt' | 'version'>, version: number): TransactItem {
  return {
    Update: {
      TableName: tableName(),
      Key: key,
      UpdateExpression: 'SET #name = :name, #color = :color, #description = :description, #priority = :priority, #updatedAt = :updatedAt, #version = :next',
      ConditionExpression: '#version = :version',
      ExpressionAttributeNames: { '#name': 'name', '#color': 'color', '#description': 'description', '#priority': 'priority', '#updatedAt': 'updatedAt', '#version': 'version' },
      ExpressionAttributeValues: {
        ':name': updated.name,
        ':color': updated.color,
        ':description': updated.description,
        ':priority': updated.priority,
        ':updatedAt': updated.updatedAt,
        ':next': updated.version,
        ':version': version,
      },
    },
  };
}

/**
 * Replaces the editable fields of `label` (as read) with `fields`, moving the name claim when
 * the name changes other than in case. `'stale'` when the label changed or was deleted since it
 * was read.
 */
export async function updateLabel(label: Label, fields: LabelFields): Promise<Label | LabelWriteFailure> {
  const updated: Label = { ...label, ...fields, updatedAt: new Date().toISOString(), version: label.version + 1 };
  const oldClaim = issueKeys.claims.labelName(label.projectId, label.name);
  const newClaim = issueKeys.claims.labelName(label.projectId, updated.name);
  const claimMoves = oldClaim.SK !== newClaim.SK;
  const entries = {
    project: projectIsLive(label.projectId),
    label: labelFieldsUpdate(issueKeys.label(label.projectId, label.id), updated, label.version),
    name: claimMoves && putClaim(newClaim, { labelId: label.id }),
    oldName: claimMoves && releaseClaim(oldClaim, label.id),
  };
  const failures = [['label', 'stale'], ['oldName', 'stale'], ['project', 'project_gone']] as const;
  const before = searchEntries(label);
  const after = searchEntries(updated);
  const kept = new Set(before.map((entry) => entry.SK));
  const added = after.filter((entry) => !kept.has(entry.SK));
  await putMany(added);
  const failed = await transactOr<LabelWriteFailure>(entries, failures, 'name_taken');
  // A project deleted meanwhile may have been swept already: the entries put ahead are taken back.
  if (failed === 'project_gone') await removeEntriesUpTo(added, updated.version);
  if (failed) return failed;
  const wanted = new Set(after.map((entry) => entry.SK));
  await removeEntriesUpTo(before.filter((entry) => !wanted.has(entry.SK)), label.version);
  return updated;
}

/** Deletes `label` (as read) and releases its name; `'stale'` when it changed or is gone since. */
export async function deleteLabel(label: Label): Promise<'deleted' | 'stale'> {
  const entries = {
    label: versionedDelete(tableName(), issueKeys.label(label.projectId, label.id), label.version),
    name: releaseClaim(issueKeys.claims.labelName(label.projectId, label.name), label.id),
  };
  const failed = await transactOr(entries, [], 'stale' as const);
  if (failed) return failed;
  await removeEntriesUpTo(searchEntries(label), label.version);
  return 'deleted';
}

/**
 * The search entries of a label (terms of its name and description), each naming the label and
 * the version that wrote it: put before a write, the ones dropped removed after it (P7).
 */
export const searchEntries = (label: Label): Array<Key & Item> =>
  searchTerms(label.name, label.description).map((term) => ({
    ...issueKeys.labelSearchEntry(label.projectId, term, label.id),
    type: 'LabelEntry',
    labelId: label.id,
    version: label.version,
  }));

/**
 * The labels of a project found by a search term (its entries, then one BatchGetItem of the
 * labels); entries whose label is gone are removed. The caller checks the labels really match.
 */
export async function labelsByTerm(projectId: number, term: string): Promise<Label[]> {
  const entries = await queryAll(issueCollections.labelSearch(projectId, term));
  const labelOf = byKey(await getMany(entries.map((entry) => issueKeys.label(projectId, Number(entry.labelId)))));
  const stale = entries.filter((entry) => !labelOf(issueKeys.label(projectId, Number(entry.labelId))));
  if (stale.length > 0) await removeEntriesUpTo(stale.map(({ PK, SK }) => ({ PK, SK })));
  const labels = new Map<number, Label>();
  for (const entry of entries) {
    const item = labelOf(issueKeys.label(projectId, Number(entry.labelId)));
    if (item) labels.set(Number(entry.labelId), labelFromItem(item));
  }
  return [...labels.values()];
}

/** Deletes a name claim (a project or group label's), only if `labelId` holds it. */
export function releaseClaim(claim: Key, labelId: number): TransactItem {
  return {
    Delete: {
      TableName: tableName(),
      Key: claim,
      ConditionExpression: 'labelId = :labelId',
      ExpressionAttributeValues: { ':labelId': labelId },
    },
  };
}
