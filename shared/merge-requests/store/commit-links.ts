/**
 * Which merge requests hold a commit (GitLab's `MergeRequest.by_related_commit_sha`: the commits of
 * their latest diff version, and their merge commit), kept as entries in the target project's
 * partition, `MR_COMMIT#<sha>#<iid>#<version id | merge>`, written before the version (or the
 * merge) is recorded: an entry whose version never became the merge request's latest, or is no
 * longer, is stale and left out when read, so a failed write leaves nothing wrong behind.
 */
import { putMany } from '../../platform/dynamo/batch';
import { queryAll } from '../../platform/dynamo/query';
import { mergeRequestCollections, mergeRequestKeys } from './keys';

/** An entry: a merge request whose version `versionId` (or merge commit) is the commit. */
export interface CommitLink {
  iid: number;
  versionId: number | 'merge';
}

/** Records the commits of a merge request's version (before the transaction that records the version). */
export async function linkVersionCommits(projectId: number, iid: number, versionId: number, shas: readonly string[]): Promise<void> {
  await putMany(
    [...new Set(shas)].map((sha) => ({ ...mergeRequestKeys.commitLink(projectId, sha, iid, versionId), type: 'MergeRequestCommit', iid, versionId }))
  );
}

/** Records a merge request's merge commit (before the merge is written). */
export async function linkMergeCommit(projectId: number, iid: number, sha: string): Promise<void> {
  await putMany([{ ...mergeRequestKeys.commitLink(projectId, sha, iid, 'merge'), type: 'MergeRequestCommit', iid, versionId: 'merge' }]);
}

/** The entries of a commit in a project: one Query (a commit is in few merge requests' versions). */
export async function commitLinks(projectId: number, sha: string): Promise<CommitLink[]> {
  return (await queryAll(mergeRequestCollections.commitLinks(projectId, sha))).map((item) => ({
    iid: Number(item.iid),
    versionId: item.versionId === 'merge' ? 'merge' : Number(item.versionId),
  }));
}
