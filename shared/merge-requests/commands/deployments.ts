/**
 * The merge requests a successful deployment shipped (GitLab's `Deployments::LinkMergeRequestsService`),
 * registered with CI's `onDeploymentSucceeded` by the composition root: the merged merge requests
 * whose merge commit is among the commits since the environment's previous successful deployment
 * (`previous..this`), or, for its first, those merged into the deployed ref. Review apps (an
 * environment in a folder, `review/…`: GitLab's `environment_type`) link none.
 *
 * Bounded, where GitLab reads every match: at most {@link COMMIT_LIMIT} commits walked, the
 * {@link MERGED_READ_LIMIT} most recently updated merged merge requests looked at, and
 * {@link LINK_LIMIT} linked. Links are written once, when the deployment succeeds; a merge request
 * merged later is not linked to it (as GitLab).
 */
import type { DeploymentSucceeded } from '../../ci';
import { putMany } from '../../platform/dynamo/batch';
import { queryCollection } from '../../platform/dynamo/query';
import { getProject } from '../../projects';
import { commitsBetween, openRepository } from '../../repository';
import { mergeRequestCollections, mergeRequestKeys } from '../store/keys';
import { mergeRequestFromItem, type MergeRequest } from '../store/merge-requests';

const COMMIT_LIMIT = 5000;
const MERGED_READ_LIMIT = 500;
const LINK_LIMIT = 100;

/** Links a successful deployment to the merge requests it shipped (see the file header). */
export async function linkDeploymentMergeRequests({ deployment, environment, previousSha }: DeploymentSucceeded): Promise<void> {
  if (environment.name.includes('/')) return;
  let shipped: (mr: MergeRequest) => boolean;
  if (previousSha) {
    const project = await getProject(deployment.projectId);
    if (!project) return;
    const commits = new Set(await commitsBetween(await openRepository(project), previousSha, deployment.sha, COMMIT_LIMIT));
    if (commits.size === 0) return;
    shipped = (mr) => mr.mergeCommitSha !== null && commits.has(mr.mergeCommitSha);
  } else {
    shipped = (mr) => mr.targetBranch === deployment.ref;
  }
  const linked: MergeRequest[] = [];
  let read = 0;
  for await (const item of queryCollection(mergeRequestCollections.projectMergeRequests(deployment.projectId, 'merged', 'updated_at'), { ascending: false })) {
    if (++read > MERGED_READ_LIMIT || linked.length >= LINK_LIMIT) break;
    const mr = mergeRequestFromItem(item);
    if (mr.state === 'merged' && !mr.deletedAt && shipped(mr)) linked.push(mr);
  }
  await putMany(
    linked.map((mr) => ({
      ...mergeRequestKeys.deploymentLink(deployment.projectId, deployment.id, mr.iid),
      type: 'DeploymentMergeRequest',
      deploymentId: deployment.id,
      environmentId: environment.id,
      iid: mr.iid,
    })),
  );
}
