/**
 * Data migration `mr-commit-links-v1`: the commit entries (`store/commit-links.ts`) of merge
 * requests recorded before they were kept: each merge request's latest version's commits, and its
 * merge commit. Run per project by the bootstrap's migrations; idempotent (entries are put again).
 */
import { queryCollection } from '../../platform/dynamo/query';
import { linkMergeCommit, linkVersionCommits } from '../store/commit-links';
import { mergeRequestCollections } from '../store/keys';
import { mergeRequestFromItem } from '../store/merge-requests';
import { getVersion, versionContent } from '../store/versions';

/** The name of that migration. */
export const MR_COMMIT_LINKS_MIGRATION = 'mr-commit-links-v1';

/** Writes the commit entries of a project's merge requests (every state); answers how many merge requests. */
export async function linkProjectMergeRequestCommits(projectId: number): Promise<number> {
  let count = 0;
  for (const state of ['opened', 'closed', 'merged']) {
    for await (const item of queryCollection(mergeRequestCollections.projectMergeRequests(projectId, state))) {
      const mr = mergeRequestFromItem(item);
      const version = await getVersion(mr.projectId, mr.iid, mr.latestVersionId);
      if (version) await linkVersionCommits(mr.projectId, mr.iid, version.id, (await versionContent(version)).commits.map((commit) => commit.id));
      if (mr.mergeCommitSha) await linkMergeCommit(mr.projectId, mr.iid, mr.mergeCommitSha);
      count++;
    }
  }
  return count;
}
