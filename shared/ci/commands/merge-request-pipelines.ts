/**
 * Merge request pipelines (GitLab's `MergeRequests::CreatePipelineService`, detached pipelines
 * only): a pipeline with source `merge_request_event` on the merge request's head ref
 * (`refs/merge-requests/<iid>/head`, kept in the target project by the merge requests feature) at
 * its head commit, carrying the merge request as it is then (`MergeRequestSnapshot`: what its
 * `CI_MERGE_REQUEST_*` variables are made of). Its rules see `CI_PIPELINE_SOURCE`
 * `merge_request_event`; jobs without `rules`/`only` (`only: [branches, tags]`) are not in it.
 *
 * A merge request from a fork gets none: GitLab runs those in the fork (or, asked by a member of
 * the target, in the target with the fork's code), which is not built.
 */
import type { Project } from '../../projects';
import type { User } from '../../users';
import { refProtected, type RefProtections } from '../git';
import { mergeRequestRefPath } from '../merge-request-variables';
import type { MergeRequestSnapshot } from '../store/pipelines';
import { ValidationError } from '../../platform/http/errors';
import { createPipeline, REFUSALS, type CreatePipelineResult } from './pipelines';

export interface MergeRequestPipelineRequest {
  /** The merge request's target project (where the pipeline runs). */
  project: Project;
  user: User | null;
  /** The merge request's head commit. */
  sha: string;
  /** The merge request, read only when the head commit has a `.gitlab-ci.yml` (most pushes of a project without CI read nothing more). */
  mergeRequest: () => Promise<Omit<MergeRequestSnapshot, 'targetBranchProtected' | 'sourceBranchProtected'>>;
  /** Its iid, project and source project: a fork's merge request gets none. */
  iid: number;
  projectIds: { projectId: number; sourceProjectId: number };
}

/** What creating one gives: `not_allowed` for a fork's merge request or a project without CI (GitLab's `nil` payload: a 405). */
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
  if (!project.jobsEnabled || projectIds.projectId !== project.id || projectIds.sourceProjectId !== project.id) return { result: 'not_allowed' };
  const protections: RefProtections = new Map();
  const snapshot = async (): Promise<MergeRequestSnapshot> => {
    const mergeRequest = await request.mergeRequest();
    const [targetBranchProtected, sourceBranchProtected] = await Promise.all([
      refProtected({ projectId: project.id, ref: mergeRequest.targetBranch, tag: false }, protections),
      refProtected({ projectId: project.id, ref: mergeRequest.sourceBranch, tag: false }, protections),
    ]);
    return { ...mergeRequest, targetBranchProtected, sourceBranchProtected };
  };
  return createPipeline({
    project,
    ref: mergeRequestRefPath(request.iid),
    tag: false,
    sha: request.sha,
    beforeSha: '',
    source: 'merge_request_event',
    user: request.user,
    mergeRequest: snapshot,
    protections,
  });
}
