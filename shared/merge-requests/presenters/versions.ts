/** GitLab's `MergeRequestDiff` and `MergeRequestDiffFull` entities (the versions of a merge request). */
import type { StoredVersion } from '../store/merge-requests';
import type { VersionContent } from '../store/versions';

export function presentVersion(version: StoredVersion) {
  return {
    id: version.id,
    head_commit_sha: version.headCommitSha,
    base_commit_sha: version.baseCommitSha,
    start_commit_sha: version.startCommitSha,
    created_at: version.createdAt,
    merge_request_id: version.mergeRequestId,
    state: version.state,
    real_size: version.realSize,
  };
}

/** A version with its commits (newest first) and diffs. */
export function presentVersionFull(version: StoredVersion, content: VersionContent) {
  return { ...presentVersion(version), commits: content.commits, diffs: content.diffs };
}

/** An MR commit item (`Entities::Commit` without the commit's web URL details GitLab 10 lacks). */
export function presentMergeRequestCommits(content: VersionContent) {
  return content.commits;
}
