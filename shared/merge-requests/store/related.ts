/**
 * The mention relations of merge requests (GitLab's cross references: a merge request whose title
 * or description references an issue is one of the issue's `related_merge_requests`): two items
 * per relation, `MR_MENTIONS#` in the merge request's partition and `MR_MENTIONED#` in the issue's
 * (`mergeRequestKeys.mentions`, `mentionedBy`), written and deleted together in the merge
 * request's write transaction, as the closing relations are, so the issue side is read in one
 * range (not a scan over merge requests).
 */
import { tableName } from '../../platform/dynamo/client';
import { queryAll } from '../../platform/dynamo/query';
import type { TransactItem } from '../../platform/dynamo/transactions';
import { mergeRequestCollections, mergeRequestKeys } from './keys';

/** An issue by project and iid (a mentioned issue, or a merge request by its target project and iid). */
export interface IssuableRef {
  projectId: number;
  iid: number;
}

/** Most mention relations one merge request records (two operations each in its write transaction). */
export const MAX_MENTIONS = 20;

/**
 * The Puts and Deletes that move a merge request's recorded mentions from `before` to `after`
 * (only what differs; `after` beyond {@link MAX_MENTIONS} is left out), for its write transaction.
 * @example
 * const items = mentionEntries({ projectId: 1, iid: 7 }, { before: [], after: [{ projectId: 1, iid: 3 }] });
 */
export function mentionEntries(mr: IssuableRef, change: { before: IssuableRef[]; after: IssuableRef[] } | undefined): TransactItem[] {
  if (!change) return [];
  const key = (ref: IssuableRef) => `${ref.projectId}#${ref.iid}`;
  const after = change.after.slice(0, MAX_MENTIONS);
  const beforeKeys = new Set(change.before.map(key));
  const afterKeys = new Set(after.map(key));
  const items: TransactItem[] = [];
  for (const ref of change.before.filter((r) => !afterKeys.has(key(r)))) {
    items.push({ Delete: { TableName: tableName(), Key: mergeRequestKeys.mentions(mr.projectId, mr.iid, ref.projectId, ref.iid) } });
    items.push({ Delete: { TableName: tableName(), Key: mergeRequestKeys.mentionedBy(ref.projectId, ref.iid, mr.projectId, mr.iid) } });
  }
  for (const ref of after.filter((r) => !beforeKeys.has(key(r)))) {
    const data = { issueProjectId: ref.projectId, issueIid: ref.iid, projectId: mr.projectId, iid: mr.iid };
    items.push({ Put: { TableName: tableName(), Item: { ...mergeRequestKeys.mentions(mr.projectId, mr.iid, ref.projectId, ref.iid), type: 'MergeRequestMentions', ...data } } });
    items.push({ Put: { TableName: tableName(), Item: { ...mergeRequestKeys.mentionedBy(ref.projectId, ref.iid, mr.projectId, mr.iid), type: 'MergeRequestMentions', ...data } } });
  }
  return items;
}

/** The issues a merge request mentions, as recorded. */
export async function mentionRefs(projectId: number, iid: number): Promise<IssuableRef[]> {
  return (await queryAll(mergeRequestCollections.mentions(projectId, iid))).map((item) => ({ projectId: Number(item.issueProjectId), iid: Number(item.issueIid) }));
}

/** The merge requests recorded as mentioning an issue (target project and iid of each). */
export async function mentionedByRefs(issueProjectId: number, issueIid: number): Promise<IssuableRef[]> {
  return (await queryAll(mergeRequestCollections.mentionedBy(issueProjectId, issueIid))).map((item) => ({ projectId: Number(item.projectId), iid: Number(item.iid) }));
}
