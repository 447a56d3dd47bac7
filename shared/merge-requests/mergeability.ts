/**
 * The merge checks a project's settings add (GitLab's `MergeRequest#mergeable_discussions_state?`,
 * `#mergeable_ci_state?` and `MergeRequests::Mergeability::DetailedMergeStatusService`), pure: the
 * presenters show them (`blocking_discussions_resolved`, `detailed_merge_status`) and the merge
 * refuses by them (`commands/merge.ts`).
 *
 * - Discussions: with `only_allow_merge_if_all_discussions_are_resolved` off, always satisfied;
 *   on, only when no resolvable discussion is unresolved (the count the discussion writes keep).
 * - Pipeline: with `only_allow_merge_if_pipeline_succeeds` off, always satisfied; on, only when the
 *   head pipeline (the newest of the source branch at the head commit) succeeded: no pipeline, or
 *   one still running, or one that failed, is not enough (current GitLab; there is no
 *   `allow_merge_on_skipped_pipeline` setting here, so a skipped pipeline is not enough either).
 */
import { pipelineActive, type Pipeline } from '../ci';
import type { Project } from '../projects';
import { isWorkInProgress } from './queries/merge-requests';
import type { MergeRequest } from './store/merge-requests';

type MergeSettings = Pick<Project, 'onlyAllowMergeIfAllDiscussionsAreResolved' | 'onlyAllowMergeIfPipelineSucceeds'>;

/** GitLab's `mergeable_discussions_state?`, shown as `blocking_discussions_resolved`. */
export function discussionsAllowMerge(mr: Pick<MergeRequest, 'unresolvedDiscussionsCount'>, project: MergeSettings | undefined): boolean {
  return !project?.onlyAllowMergeIfAllDiscussionsAreResolved || (mr.unresolvedDiscussionsCount ?? 0) === 0;
}

/** Whether the project's settings need the head pipeline to judge a merge (only then is it read). */
export const pipelineMatters = (project: MergeSettings | undefined): boolean => project?.onlyAllowMergeIfPipelineSucceeds === true;

/** GitLab's `mergeable_ci_state?`: `pipeline` is the head pipeline, read when {@link pipelineMatters}. */
export function pipelineAllowsMerge(project: MergeSettings | undefined, pipeline: Pick<Pipeline, 'status'> | undefined): boolean {
  return !pipelineMatters(project) || pipeline?.status === 'success';
}

export type DetailedMergeStatus =
  | 'unchecked'
  | 'not_open'
  | 'draft_status'
  | 'discussions_not_resolved'
  | 'conflict'
  | 'ci_must_pass'
  | 'ci_still_running'
  | 'mergeable';

/**
 * GitLab's `detailed_merge_status`: `unchecked` until `merge_status` is known, then the first
 * failing check in GitLab's order (open, draft, discussions, conflicts), then CI (`ci_still_running`
 * while the head pipeline runs, `ci_must_pass` otherwise), else `mergeable`.
 */
export function detailedMergeStatus(
  mr: Pick<MergeRequest, 'state' | 'title' | 'mergeStatus' | 'unresolvedDiscussionsCount'>,
  project: MergeSettings | undefined,
  pipeline: Pick<Pipeline, 'status'> | undefined,
): DetailedMergeStatus {
  if (mr.mergeStatus === 'unchecked') return 'unchecked';
  if (mr.state !== 'opened' && mr.state !== 'locked') return 'not_open';
  if (isWorkInProgress(mr.title)) return 'draft_status';
  if (!discussionsAllowMerge(mr, project)) return 'discussions_not_resolved';
  if (mr.mergeStatus === 'cannot_be_merged') return 'conflict';
  if (!pipelineAllowsMerge(project, pipeline)) return pipeline && pipelineActive(pipeline) ? 'ci_still_running' : 'ci_must_pass';
  return 'mergeable';
}
