/**
 * A merge request's merge request pipelines (GitLab's `MergeRequests::CreatePipelineService`,
 * detached pipelines): CI creates them (`createMergeRequestPipeline`, source
 * `merge_request_event`) from the merge request as this feature hands it over. Asked for with
 * `POST …/merge_requests/:iid/pipelines`, and started when a merge request is opened and when its
 * source branch is pushed (after the new version is recorded), when the configuration gives that
 * event jobs. Where it runs (GitLab's `pipeline_project_and_ref`): in the target project on
 * `refs/merge-requests/<iid>/head` when the user may create pipelines there (for a merge request
 * from a fork, GitLab's "run pipelines in the parent project": the fork's head commit, made
 * readable in the target when the version was recorded, with the target's configuration and
 * variables); otherwise, for a fork's merge request, in the fork on its source branch, with the
 * fork's configuration and variables, when the user may create pipelines there.
 */
import { createMergeRequestPipeline, type MergeRequestPipelineResult, type MergeRequestSnapshot } from '../../ci';
import { getMilestone, listLabels } from '../../issues';
import { getNamespace, type Namespace } from '../../namespaces';
import { logger } from '../../platform/logger';
import { getProject, projectFullPath, type Project } from '../../projects';
import { getUser, type User } from '../../users';
import { can } from '../../auth';
import { detailedMergeStatus } from '../mergeability';
import { isWorkInProgress, projectSubjects } from '../queries/merge-requests';
import type { MergeRequest } from '../store/merge-requests';

/** The merge request as its pipeline's `CI_MERGE_REQUEST_*` variables and hooks show it (`sourcePath`: the fork's full path, for a fork's). */
async function snapshotOf(mr: MergeRequest, target: { project: Project; namespace: Namespace }, sourcePath?: string): Promise<Omit<MergeRequestSnapshot, 'targetBranchProtected' | 'sourceBranchProtected'>> {
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
    sourceProjectPath: sourcePath ?? path,
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
 * Creates a merge request pipeline at the merge request's head, where it runs for `user` (see the
 * module comment; `not_allowed` when the project it would run in has no CI, or for a fork's merge
 * request whose fork is gone or where the user may not create pipelines either; with `refuse`,
 * CI's 400 when the configuration gives none). For a same-project merge request the caller has
 * checked the user may create pipelines.
 */
export async function createPipelineForMergeRequest(
  target: { project: Project; namespace: Namespace },
  user: User | null,
  mr: MergeRequest,
  options: { refuse?: boolean } = {},
): Promise<MergeRequestPipelineResult> {
  const request = { user, sha: mr.sha, iid: mr.iid, projectIds: { projectId: mr.projectId, sourceProjectId: mr.sourceProjectId }, sourceBranch: mr.sourceBranch };
  if (mr.sourceProjectId === mr.projectId) return createMergeRequestPipeline({ ...request, project: target.project, mergeRequest: () => snapshotOf(mr, target) }, options);
  const runIn = await forkPipelineProject(target, user, mr);
  if (!runIn) return { result: 'not_allowed' };
  return createMergeRequestPipeline({ ...request, project: runIn.project, mergeRequest: () => snapshotOf(mr, target, runIn.sourcePath) }, options);
}

/**
 * Internal: where a fork's merge request pipeline runs for `user`: the target project when they
 * may create pipelines there (GitLab's `can_create_pipeline_in_target_project?`, the parent
 * project's fork pipelines allowed as GitLab's default), else the fork when they may there; with
 * the fork's full path (its `CI_MERGE_REQUEST_SOURCE_PROJECT_*`).
 */
async function forkPipelineProject(target: { project: Project; namespace: Namespace }, user: User | null, mr: MergeRequest): Promise<{ project: Project; sourcePath: string } | undefined> {
  const source = await getProject(mr.sourceProjectId);
  const namespace = source && !source.deleting ? await getNamespace(source.namespaceId) : undefined;
  if (!source || !namespace) return undefined;
  const sourcePath = projectFullPath(namespace, source);
  if (!user) return undefined;
  const subjects = await projectSubjects(user, [target.project.id, source.id]);
  const inTarget = subjects.get(target.project.id);
  if (inTarget && can(user, 'update_build', inTarget)) return { project: target.project, sourcePath };
  const inFork = subjects.get(source.id);
  return inFork && can(user, 'update_build', inFork) ? { project: source, sourcePath } : undefined;
}

/**
 * The automatic one (a merge request opened, its source branch pushed): created when the
 * configuration gives `merge_request_event` jobs, nothing otherwise; never fails the write that
 * caused it (a failure is logged).
 */
export async function startMergeRequestPipeline(target: { project: Project; namespace: Namespace }, user: User, mr: MergeRequest): Promise<void> {
  // A same-project merge request's pipeline runs in its project; a fork's may run in the fork.
  if (mr.sourceProjectId === mr.projectId && !target.project.jobsEnabled) return;
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
