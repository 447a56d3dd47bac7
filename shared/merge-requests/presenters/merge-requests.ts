/**
 * GitLab's `MergeRequestBasic` / `MergeRequest` entities (`lib/api/entities/merge_request_basic.rb`,
 * `merge_request.rb`). A page is presented together: its users are one BatchGetItem, the labels
 * and milestones of each project involved one Query each. `subscribed` and the single-only fields
 * (`changes_count`, `merged_by`, `closed_by`, `diff_refs`, ...) are on single responses.
 *
 * `upvotes`/`downvotes` are 0 (no award emoji); there are no pipelines yet (`pipeline` null);
 * `state` shows `locked` while a merge is in progress, as GitLab does.
 */
import { config } from '../../platform/config';
import { getMany } from '../../platform/dynamo/batch';
import { listLabels, listMilestones, presentMilestone, presentTimeStats } from '../../issues';
import { presentUserPublic, userFromItem, userKeys, type User } from '../../users';
import { isSubscribed } from '../issuables';
import { isWorkInProgress } from '../queries/merge-requests';
import type { MergeRequest } from '../store/merge-requests';

/** `${externalUrl}/<path_with_namespace>/merge_requests/<iid>`. */
export const mergeRequestWebUrl = (mr: Pick<MergeRequest, 'iid'>, pathWithNamespace: string): string =>
  `${config().externalUrl}/${pathWithNamespace}/merge_requests/${mr.iid}`;

/**
 * @param pathOf the `path_with_namespace` of each merge request's (target) project.
 * @param options.single adds `subscribed` for `options.viewer` and the single-only fields.
 */
export async function presentMergeRequests(mrs: MergeRequest[], pathOf: (projectId: number) => string, options: { single?: boolean; viewer?: User } = {}) {
  const userIds = [
    ...new Set(mrs.flatMap((mr) => [mr.authorId, mr.assigneeId ?? 0, ...(options.single ? [mr.mergedById ?? 0, mr.closedById ?? 0] : [])]).filter((id) => id > 0)),
  ];
  const labelProjects = [...new Set(mrs.filter((mr) => mr.labelIds.length > 0).map((mr) => mr.projectId))];
  const milestoneProjects = [...new Set(mrs.filter((mr) => mr.milestoneId !== null).map((mr) => mr.projectId))];
  const [userItems, labelLists, milestoneLists, subscribed] = await Promise.all([
    getMany(userIds.map((id) => userKeys.user(id)), { consistent: false }),
    Promise.all(labelProjects.map((id) => listLabels(id))),
    Promise.all(milestoneProjects.map((id) => listMilestones(id))),
    options.single && options.viewer ? Promise.all(mrs.map((mr) => isSubscribed(mr, options.viewer!.id))) : [],
  ]);
  const users = new Map<number, User>(userItems.map((item) => [Number(item.id), userFromItem(item)]));
  const labelNames = new Map(labelLists.flat().map((label) => [label.id, label.name] as const));
  const milestones = new Map(milestoneLists.flat().map((milestone) => [milestone.id, milestone] as const));
  const user = (id: number | null) => {
    const found = id === null ? undefined : users.get(id);
    return found ? presentUserPublic(found) : null;
  };

  return mrs.map((mr, index) => {
    const path = pathOf(mr.projectId);
    const milestone = mr.milestoneId === null ? undefined : milestones.get(mr.milestoneId);
    const basic = {
      id: mr.id,
      iid: mr.iid,
      project_id: mr.projectId,
      title: mr.title,
      description: mr.description,
      state: mr.state,
      created_at: mr.createdAt,
      updated_at: mr.updatedAt,
      target_branch: mr.targetBranch,
      source_branch: mr.sourceBranch,
      upvotes: 0,
      downvotes: 0,
      author: user(mr.authorId),
      assignee: user(mr.assigneeId),
      source_project_id: mr.sourceProjectId,
      target_project_id: mr.projectId,
      labels: mr.labelIds.flatMap((id) => (labelNames.has(id) ? [labelNames.get(id)!] : [])).sort(),
      work_in_progress: isWorkInProgress(mr.title),
      milestone: milestone ? presentMilestone(milestone, path) : null,
      merge_when_pipeline_succeeds: mr.mergeWhenPipelineSucceeds,
      merge_status: mr.mergeStatus,
      sha: mr.sha,
      merge_commit_sha: mr.mergeCommitSha,
      user_notes_count: mr.userNotesCount ?? 0,
      discussion_locked: null,
      should_remove_source_branch: mr.shouldRemoveSourceBranch,
      force_remove_source_branch: mr.forceRemoveSourceBranch,
      web_url: mergeRequestWebUrl(mr, path),
      time_stats: presentTimeStats(mr),
      squash: false,
    };
    if (!options.single) return basic;
    return {
      ...basic,
      subscribed: subscribed[index] ?? false,
      changes_count: mr.changesCount,
      merged_by: mr.state === 'merged' ? user(mr.mergedById) : null,
      merged_at: mr.state === 'merged' ? mr.mergedAt : null,
      closed_by: mr.state === 'closed' ? user(mr.closedById) : null,
      closed_at: mr.state === 'closed' ? mr.closedAt : null,
      latest_build_started_at: null,
      latest_build_finished_at: null,
      first_deployed_to_production_at: null,
      pipeline: null,
      diff_refs: { base_sha: mr.baseSha, head_sha: mr.sha, start_sha: mr.targetSha },
    };
  });
}

/** One merge request as a single response (show, create, edit, merge, subscription actions). */
export async function presentMergeRequest(mr: MergeRequest, pathWithNamespace: string, viewer: User | null) {
  const [body] = await presentMergeRequests([mr], () => pathWithNamespace, { single: true, viewer: viewer ?? undefined });
  return body;
}
