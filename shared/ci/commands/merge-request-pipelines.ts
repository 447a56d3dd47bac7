/**
 * Merge request pipelines (GitLab's `MergeRequests::CreatePipelineService`, detached pipelines
 * only): a pipeline with source `merge_request_event` at the merge request's head commit, carrying
 * the merge request as it is then (`MergeRequestSnapshot`: what its `CI_MERGE_REQUEST_*` variables
 * are made of). Its rules see `CI_PIPELINE_SOURCE` `merge_request_event`; jobs without
 * `rules`/`only` (`only: [branches, tags]`) are not in it. It runs where the merge requests feature
 * says:
 *
 * - in the target project, on the merge request's head ref (`refs/merge-requests/<iid>/head`, kept
 *   in the target repository by the merge requests feature, so a fork's commits are there too);
 * - in the source project (a fork), on the source branch itself, with the fork's configuration
 *   and variables (GitLab's `source_branch_ref`).
 */
import type { Project } from '../../projects';
import type { User } from '../../users';
import { refProtected, type RefProtections } from '../git';
import { mergeRequestRefPath } from '../merge-request-variables';
import type { MergeRequestSnapshot } from '../store/pipelines';
import { ValidationError } from '../../platform/http/errors';
import { createPipeline, REFUSALS, type CreatePipelineResult } from './pipelines';

export interface MergeRequestPipelineRequest {
  /** The project the pipeline runs in: the merge request's target project, or its source project (a fork). */
  project: Project;
  user: User | null;
  /** The merge request's head commit. */
  sha: string;
  /** The merge request, read only when the head commit has a `.gitlab-ci.yml` (most pushes of a project without CI read nothing more). */
  mergeRequest: () => Promise<Omit<MergeRequestSnapshot, 'targetBranchProtected' | 'sourceBranchProtected'>>;
  /** Its iid, project (target) and source project, and its source branch (the ref of a pipeline run in the fork). */
  iid: number;
  projectIds: { projectId: number; sourceProjectId: number };
  sourceBranch: string;
}

/** What creating one gives: `not_allowed` for a project without CI, or one that is neither of the merge request's (GitLab's `nil` payload: a 405). */
export type MergeRequestPipelineResult = CreatePipelineResult | { result: 'not_allowed' };

/**
 * Creates it; with `refuse` (the API), no pipeline for a reason of its configuration or commit is
 * GitLab's 400 (`render_validation_error!`, the reason under `base`) instead of a result.
 */
export async function createMergeRequestPipeline(request: MergeRequestPipelineRequest, options: { refuse?: boolean } = {}): Promise<MergeRequestPipelineResult> {
  const result = await create(request);
  if (options.refuse && result.result !== 'created' && result.result !== 'not_allowed') throw new ValidationError({ base: [REFUSALS[result.result]] });
  return result;
}

async function create(request: MergeRequestPipelineRequest): Promise<MergeRequestPipelineResult> {
  const { project, projectIds } = request;
  const inTarget = project.id === projectIds.projectId;
  if (!project.jobsEnabled || (!inTarget && project.id !== projectIds.sourceProjectId)) return { result: 'not_allowed' };
  const protections: RefProtections = new Map();
  const snapshot = async (): Promise<MergeRequestSnapshot> => {
    const mergeRequest = await request.mergeRequest();
    // Each branch as its own project protects it (the source branch: the fork's, for a fork's merge request).
    const [targetBranchProtected, sourceBranchProtected] = await Promise.all([
      refProtected({ projectId: projectIds.projectId, ref: mergeRequest.targetBranch, tag: false }, protections),
      refProtected({ projectId: projectIds.sourceProjectId, ref: mergeRequest.sourceBranch, tag: false }, protections),
    ]);
    return { ...mergeRequest, targetBranchProtected, sourceBranchProtected };
  };
  return createPipeline({
    project,
    ref: inTarget ? mergeRequestRefPath(request.iid) : request.sourceBranch,
    tag: false,
    sha: request.sha,
    beforeSha: '',
    source: 'merge_request_event',
    user: request.user,
    mergeRequest: snapshot,
    protections,
  });
}
