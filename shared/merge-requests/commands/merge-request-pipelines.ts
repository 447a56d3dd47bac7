/**
 * A merge request's merge request pipelines (GitLab's `MergeRequests::CreatePipelineService`,
 * detached pipelines): CI creates them (`createMergeRequestPipeline`, source
 * `merge_request_event` on `refs/merge-requests/<iid>/head`) from the merge request as this
 * feature hands it over. Asked for with `POST …/merge_requests/:iid/pipelines`, and started when a
 * merge request is opened and when its source branch is pushed (after the new version is
 * recorded), when the configuration gives that event jobs. A merge request from a fork gets none
 * (GitLab runs those in the fork): the request is a 405, the automatic one is not made.
 */
import { createMergeRequestPipeline, type MergeRequestPipelineResult, type MergeRequestSnapshot } from '../../ci';
import { getMilestone, listLabels } from '../../issues';
import type { Namespace } from '../../namespaces';
import { logger } from '../../platform/logger';
import { projectFullPath, type Project } from '../../projects';
import { getUser, type User } from '../../users';
import { detailedMergeStatus } from '../mergeability';
import { isWorkInProgress } from '../queries/merge-requests';
import type { MergeRequest } from '../store/merge-requests';

/** The merge request as its pipeline's `CI_MERGE_REQUEST_*` variables and hooks show it (same-project merge requests only). */
async function snapshotOf(mr: MergeRequest, target: { project: Project; namespace: Namespace }): Promise<Omit<MergeRequestSnapshot, 'targetBranchProtected' | 'sourceBranchProtected'>> {
  const [labels, assignee, milestone] = await Promise.all([
    mr.labelIds.length ? listLabels(mr.projectId) : [],
    mr.assigneeId === null ? undefined : getUser(mr.assigneeId),
    mr.milestoneId === null ? undefined : getMilestone(mr.projectId, mr.milestoneId),
  ]);
  const path = projectFullPath(target.namespace, target.project);
  return {
    id: mr.id,
    iid: mr.iid,
    title: mr.title,
    description: mr.description ?? '',
    sourceBranch: mr.sourceBranch,
    targetBranch: mr.targetBranch,
    projectId: mr.projectId,
    projectPath: path,
    sourceProjectId: mr.sourceProjectId,
    sourceProjectPath: path,
    diffBaseSha: mr.baseSha,
    diffId: mr.latestVersionId,
    labels: labels
      .filter((label) => mr.labelIds.includes(label.id))
      .map((label) => label.name)
      .sort(),
    assignees: assignee ? [assignee.username] : [],
    milestone: milestone?.title ?? null,
    draft: isWorkInProgress(mr.title),
    // As they are now, for the pipeline's hooks (the new pipeline is not yet the head pipeline).
    state: mr.state,
    mergeStatus: mr.mergeStatus,
    detailedMergeStatus: detailedMergeStatus(mr, target.project, undefined),
  };
}

/**
 * Creates a merge request pipeline at the merge request's head (`not_allowed` for a fork's merge
 * request or a project without CI; with `refuse`, CI's 400 when the configuration gives none). The
 * caller has checked the user may create pipelines.
 */
export async function createPipelineForMergeRequest(
  target: { project: Project; namespace: Namespace },
  user: User | null,
  mr: MergeRequest,
  options: { refuse?: boolean } = {},
): Promise<MergeRequestPipelineResult> {
  if (mr.sourceProjectId !== mr.projectId) return { result: 'not_allowed' };
  return createMergeRequestPipeline(
    { project: target.project, user, sha: mr.sha, iid: mr.iid, projectIds: { projectId: mr.projectId, sourceProjectId: mr.sourceProjectId }, mergeRequest: () => snapshotOf(mr, target) },
    options,
  );
}

/**
 * The automatic one (a merge request opened, its source branch pushed): created when the
 * configuration gives `merge_request_event` jobs, nothing otherwise; never fails the write that
 * caused it (a failure is logged).
 */
export async function startMergeRequestPipeline(target: { project: Project; namespace: Namespace }, user: User, mr: MergeRequest): Promise<void> {
  if (mr.sourceProjectId !== mr.projectId || !target.project.jobsEnabled) return;
  try {
    const created = await createPipelineForMergeRequest(target, user, mr);
    if (created.result === 'created') logger.info('merge request pipeline created', { projectId: mr.projectId, iid: mr.iid, pipelineId: created.pipeline.id });
  } catch (error) {
    logger.error('merge request pipeline not created', { projectId: mr.projectId, iid: mr.iid, error });
  }
}

/**
 * `POST …/pipelines` with `async` (GitLab's `CreatePipelineService#execute_async`, a worker): made
 * here before the answer, but the caller is not told whether one was made; no pipeline, or a
 * failure, is logged.
 */
export async function createPipelineForMergeRequestUntold(target: { project: Project; namespace: Namespace }, user: User, mr: MergeRequest): Promise<void> {
  try {
    const created = await createPipelineForMergeRequest(target, user, mr);
    if (created.result === 'created') logger.info('merge request pipeline created', { projectId: mr.projectId, iid: mr.iid, pipelineId: created.pipeline.id });
    else logger.warn('merge request pipeline not created', { projectId: mr.projectId, iid: mr.iid, result: created.result });
  } catch (error) {
    logger.error('merge request pipeline not created', { projectId: mr.projectId, iid: mr.iid, error });
  }
}
