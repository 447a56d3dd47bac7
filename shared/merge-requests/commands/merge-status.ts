/**
 * `merge_status` (GitLab's lazy `MergeRequests::MergeabilityCheckService`): `unchecked` whenever
 * either branch moves (the push listener, a new target branch); computed when one merge request is
 * read, by a real three-way merge of the heads (nothing stored), and stored only if the merge
 * request is still at the version read (a stale result is dropped, the next read computes again).
 */
import type { ProjectSubject } from '../../auth';
import { branchHead, mergesCleanly, repositoriesOf } from '../git';
import { storeMergeStatus, type MergeRequest, type MergeStatus } from '../store/merge-requests';
import { sourceProjectOf } from './merge-requests';

/** The merge request with its `merge_status` for the branches' current heads (open ones only). */
export async function withMergeStatus(target: ProjectSubject, mr: MergeRequest): Promise<MergeRequest> {
  if (mr.state !== 'opened') return mr;
  const source = mr.sourceProjectId === target.project.id ? target.project : await sourceProjectOf(mr).catch(() => undefined);
  if (!source) return { ...mr, mergeStatus: 'cannot_be_merged' };
  const repositories = await repositoriesOf(target.project, source);
  const [sourceHead, targetHead] = await Promise.all([branchHead(repositories.source, mr.sourceBranch), branchHead(repositories.target, mr.targetBranch)]);
  if (!sourceHead || !targetHead) return { ...mr, mergeStatus: 'cannot_be_merged' };
  const heads = { source: sourceHead, target: targetHead };
  if (mr.mergeStatus !== 'unchecked' && mr.mergeStatusFor?.source === sourceHead && mr.mergeStatusFor?.target === targetHead) return mr;
  const status: MergeStatus = (await mergesCleanly(repositories, targetHead, sourceHead)) ? 'can_be_merged' : 'cannot_be_merged';
  await storeMergeStatus(mr, status, heads);
  return { ...mr, mergeStatus: status, mergeStatusFor: heads };
}
