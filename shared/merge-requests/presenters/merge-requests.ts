/**
 * GitLab's `MergeRequestBasic` / `MergeRequest` entities (`lib/api/entities/merge_request_basic.rb`,
 * `merge_request.rb`). A page is presented together: its users are one BatchGetItem, the labels
 * and milestones of each project involved one Query each. `subscribed` and the single-only fields
 * (`changes_count`, `diff_refs`, `pipeline`, ...) are on single responses. Current GitLab's fields
 * are there too: `assignees` (its one assignee), `reviewers` (its one reviewer), `draft`, `references` (`reference` is the
 * deprecated form), `task_completion_status`, `has_conflicts` (`cannot_be_merged`), `merge_user`
 * (who merged it, or asked to merge it when the pipeline succeeds), `prepared_at` (the diff is
 * prepared as the merge request is opened), and those of features this service does not have
 * (`squash_on_merge` false, `merge_after` and `squash_commit_sha` null).
 *
 * `blocking_discussions_resolved` (GitLab's `mergeable_discussions_state?`) is true unless the
 * project requires resolved discussions to merge and one is not (the count the discussion writes
 * keep on the item); `detailed_merge_status` is GitLab's (`mergeability.ts`). Both need the
 * page's projects (one BatchGetItem) and, only for open merge requests of projects that require a
 * successful pipeline, their head pipelines (one Query and one GetItem each: page-sized).
 * `upvotes`/`downvotes` are the item's counters of `thumbsup`/`thumbsdown` awards (kept by the
 * award writes of the issues feature); `state` shows `locked` while a merge is in
 * progress, as GitLab does. A single response shows the head pipeline (the newest pipeline of the
 * source branch at the head commit, CI's `latestPipelineFor`: one Query and one GetItem) as
 * `pipeline` (`PipelineBasic`) and `head_pipeline` (`Pipeline`) to callers who may read the
 * project's pipelines; to others `pipeline` is `null` and `head_pipeline` is left out, as GitLab.
 * `merge_error` (single) is why the last rebase failed; `rebase_in_progress` and
 * `diverged_commits_count` are shown when the show route is asked for them.
 */
import { can, type ProjectSubject } from '../../auth';
import { latestPipelineFor, presentPipeline, presentPipelineBasic, type Pipeline } from '../../ci';
import { getNamespace, getNamespaces } from '../../namespaces';
import { config } from '../../platform/config';
import { getProject, getProjects, projectFullPath, webUrlOf, type Project } from '../../projects';
import { getMany } from '../../platform/dynamo/batch';
import {
  issuableReferences,
  listLabels,
  listMilestones,
  presentMilestone,
  presentMilestoneAlias,
  presentTimeStats,
  taskCompletionStatus,
  type Milestone,
  type ReferenceFrom,
} from '../../issues';
import { getUser, presentUserPublic, userFromItem, userKeys, withGhost, type User } from '../../users';
import { isSubscribed } from '../issuables';
import { detailedMergeStatus, discussionsAllowMerge, pipelineMatters } from '../mergeability';
import { isWorkInProgress } from '../queries/merge-requests';
import type { MergeRequest } from '../store/merge-requests';

/** `${externalUrl}/<path_with_namespace>/merge_requests/<iid>`. */
export const mergeRequestWebUrl = (mr: Pick<MergeRequest, 'iid'>, pathWithNamespace: string): string =>
  `${config().externalUrl}/${pathWithNamespace}/merge_requests/${mr.iid}`;

/** The fields every merge request entity opens with (the approvals entity too). */
export const mergeRequestHeading = (mr: MergeRequest) => ({
  id: mr.id,
  iid: mr.iid,
  project_id: mr.projectId,
  title: mr.title,
  description: mr.description,
  state: mr.state,
  created_at: mr.createdAt,
  updated_at: mr.updatedAt,
});

/**
 * @param pathOf the `path_with_namespace` of each merge request's (target) project.
 * @param options.single adds `subscribed` for `options.viewer` and the single-only fields.
 * @param options.from where `references.relative` is written from (see the issues feature's `issuableReferences`).
 */
export async function presentMergeRequests(mrs: MergeRequest[], pathOf: (projectId: number) => string, options: { single?: boolean; viewer?: User; from?: ReferenceFrom } = {}) {
  const userIds = [...new Set(mrs.flatMap((mr) => [mr.authorId, mr.assigneeId ?? 0, mr.reviewer?.userId ?? 0, mr.mergedById ?? 0, mr.closedById ?? 0, mr.mergeUserId ?? 0]).filter((id) => id > 0))];
  const labelProjects = [...new Set(mrs.filter((mr) => mr.labelIds.length > 0).map((mr) => mr.projectId))];
  const milestoneProjects = [...new Set(mrs.filter((mr) => mr.milestoneId !== null).map((mr) => mr.projectId))];
  const projectIds = [...new Set(mrs.map((mr) => mr.projectId))];
  const [userItems, labelLists, milestoneLists, subscribed, projectList] = await Promise.all([
    getMany(userIds.map((id) => userKeys.user(id)), { consistent: false }),
    Promise.all(labelProjects.map((id) => listLabels(id))),
    Promise.all(milestoneProjects.map((id) => listMilestones(id))),
    options.single && options.viewer ? Promise.all(mrs.map((mr) => isSubscribed(mr, options.viewer!.id))) : [],
    getProjects(projectIds),
  ]);
  const projects = new Map<number, Project>(projectList.map((project) => [project.id, project]));
  // The head pipeline only where a project's settings make it part of the merge checks.
  const pipelines = await Promise.all(
    mrs.map((mr) =>
      (mr.state === 'opened' || mr.state === 'locked') && pipelineMatters(projects.get(mr.projectId)) ? latestPipelineFor(mr.sourceProjectId, mr.sourceBranch, mr.sha, false, mr) : undefined,
    ),
  );
  const users = new Map<number, User>(userItems.map((item) => [Number(item.id), userFromItem(item)]));
  const labelNames = new Map(labelLists.flat().map((label) => [label.id, label.name] as const));
  const milestones = new Map(milestoneLists.flat().map((milestone) => [milestone.id, milestone] as const));
  // Group milestones (the project's aliases of them) are shown with their group's path: one BatchGetItem, only when the page has some.
  const aliasGroupIds = [...new Set(mrs.flatMap((mr) => (mr.milestoneId === null ? [] : [milestones.get(mr.milestoneId)?.aliasOf?.groupId ?? 0])).filter((id) => id > 0))];
  const groupPaths = new Map((aliasGroupIds.length === 0 ? [] : await getNamespaces(aliasGroupIds)).map((group) => [group.id, group.fullPath] as const));
  const presentMergeRequestMilestone = (milestone: Milestone, path: string) =>
    milestone.aliasOf ? presentMilestoneAlias(milestone, groupPaths.get(milestone.aliasOf.groupId) ?? '') : presentMilestone(milestone, path);
  const user = (id: number | null) => {
    const found = id === null ? undefined : users.get(id);
    return found ? presentUserPublic(found) : null;
  };
  // A deleted author shows as the ghost user (GitLab moves their merge requests to it).
  const authorOf = await withGhost((id) => users.get(id), mrs.map((mr) => mr.authorId));
  const author = (id: number) => {
    const found = authorOf(id);
    return found ? presentUserPublic(found) : null;
  };

  return mrs.map((mr, index) => {
    const path = pathOf(mr.projectId);
    const milestone = mr.milestoneId === null ? undefined : milestones.get(mr.milestoneId);
    const assignee = user(mr.assigneeId);
    const reviewer = user(mr.reviewer?.userId ?? null);
    const mergedBy = mr.state === 'merged' ? user(mr.mergedById) : null;
    const draft = isWorkInProgress(mr.title);
    const references = issuableReferences('!', mr.iid, path, options.from);
    const basic = {
      ...mergeRequestHeading(mr),
      target_branch: mr.targetBranch,
      source_branch: mr.sourceBranch,
      upvotes: mr.upvotes ?? 0,
      downvotes: mr.downvotes ?? 0,
      author: author(mr.authorId),
      assignees: assignee ? [assignee] : [],
      assignee,
      reviewers: reviewer ? [reviewer] : [],
      source_project_id: mr.sourceProjectId,
      target_project_id: mr.projectId,
      labels: mr.labelIds.flatMap((id) => (labelNames.has(id) ? [labelNames.get(id)!] : [])).sort(),
      draft,
      imported: false,
      imported_from: 'none',
      work_in_progress: draft,
      milestone: milestone ? presentMergeRequestMilestone(milestone, path) : null,
      merge_when_pipeline_succeeds: mr.mergeWhenPipelineSucceeds,
      merge_status: mr.mergeStatus,
      detailed_merge_status: detailedMergeStatus(mr, projects.get(mr.projectId), pipelines[index]),
      merge_after: null,
      sha: mr.sha,
      merge_commit_sha: mr.mergeCommitSha,
      squash_commit_sha: null,
      user_notes_count: mr.userNotesCount ?? 0,
      discussion_locked: null,
      // From the count the discussion writes keep on the item (no discussion is read here).
      blocking_discussions_resolved: discussionsAllowMerge(mr, projects.get(mr.projectId)),
      should_remove_source_branch: mr.shouldRemoveSourceBranch,
      force_remove_source_branch: mr.forceRemoveSourceBranch,
      prepared_at: mr.createdAt,
      // The deprecated `reference` is relative to the project of the request (none: short).
      reference: options.from && 'project' in options.from ? references.relative : references.short,
      references,
      web_url: mergeRequestWebUrl(mr, path),
      time_stats: presentTimeStats(mr),
      squash: false,
      squash_on_merge: false,
      task_completion_status: taskCompletionStatus(mr.description),
      has_conflicts: mr.mergeStatus === 'cannot_be_merged',
      merged_by: mergedBy,
      merge_user: mr.state === 'merged' ? mergedBy : user(mr.mergeUserId),
      merged_at: mr.state === 'merged' ? mr.mergedAt : null,
      closed_by: mr.state === 'closed' ? user(mr.closedById) : null,
      closed_at: mr.state === 'closed' ? mr.closedAt : null,
    };
    if (!options.single) return basic;
    return {
      ...basic,
      subscribed: subscribed[index] ?? false,
      changes_count: mr.changesCount,
      latest_build_started_at: null,
      latest_build_finished_at: null,
      first_deployed_to_production_at: null,
      pipeline: null,
      diff_refs: { base_sha: mr.baseSha, head_sha: mr.sha, start_sha: mr.targetSha },
      // Why the last rebase failed (`RebaseService`'s message), so a client can tell after polling.
      merge_error: mr.mergeError ?? null,
    };
  });
}

/**
 * GitLab's `MergeRequestReviewer` entities of a merge request: its reviewer (`user`, as
 * `UserBasic`), where their review stands and when it was requested; none when the user is gone.
 */
export async function presentReviewers(mr: MergeRequest) {
  const reviewer = mr.reviewer;
  const user = reviewer ? await getUser(reviewer.userId) : undefined;
  return reviewer && user ? [{ user: presentUserPublic(user), state: reviewer.state, created_at: reviewer.createdAt }] : [];
}

/** Internal: the web URL of the project a pipeline ran in (the target's, or a fork's). */
async function pipelineProjectUrl(pipeline: Pipeline, subject: ProjectSubject): Promise<string | undefined> {
  if (pipeline.projectId === subject.project.id) return webUrlOf(projectFullPath(subject.namespace, subject.project));
  const project = await getProject(pipeline.projectId);
  const namespace = project && (await getNamespace(project.namespaceId));
  return project && namespace ? webUrlOf(projectFullPath(namespace, project)) : undefined;
}

/** The merge request's head pipeline as `pipeline` and `head_pipeline` show it (see the module comment). */
async function presentHeadPipeline(mr: MergeRequest, subject: ProjectSubject, viewer: User | null) {
  if (!can(viewer, 'read_build', subject)) return { pipeline: null };
  const pipeline = await latestPipelineFor(mr.sourceProjectId, mr.sourceBranch, mr.sha, false, mr);
  const url = pipeline && (await pipelineProjectUrl(pipeline, subject));
  if (!pipeline || !url) return { pipeline: null, head_pipeline: null };
  const user = pipeline.userId === null ? undefined : await getUser(pipeline.userId);
  return { pipeline: presentPipelineBasic(pipeline, url), head_pipeline: presentPipeline(pipeline, url, user) };
}

/**
 * What a single response shows only when asked (`GET …/:iid` with `include_rebase_in_progress`,
 * `include_diverged_commits_count`): the route computes them (the count walks the target's history).
 */
export interface SingleExtras {
  rebaseInProgress?: boolean;
  divergedCommitsCount?: number;
}

/** One merge request as a single response (show, create, edit, merge, subscription actions), in `subject` (its target project). */
export async function presentMergeRequest(mr: MergeRequest, subject: ProjectSubject, viewer: User | null, extras: SingleExtras = {}) {
  const path = projectFullPath(subject.namespace, subject.project);
  const [[body], pipelines] = await Promise.all([
    presentMergeRequests([mr], () => path, { single: true, viewer: viewer ?? undefined }),
    presentHeadPipeline(mr, subject, viewer),
  ]);
  return {
    ...body,
    ...(extras.rebaseInProgress !== undefined ? { rebase_in_progress: extras.rebaseInProgress } : {}),
    ...(extras.divergedCommitsCount !== undefined ? { diverged_commits_count: extras.divergedCommitsCount } : {}),
    ...pipelines,
  };
}

/** A merge request's pipelines (`PipelineBasic`), each with the web URL of the project it ran in. */
export async function presentMergeRequestPipelines(pipelines: Pipeline[], subject: ProjectSubject) {
  // A fork's merge request has pipelines in the fork and in the target: each with its project's URL (a project gone: left out).
  const byProject = new Map<number, Pipeline>();
  for (const pipeline of pipelines) if (!byProject.has(pipeline.projectId)) byProject.set(pipeline.projectId, pipeline);
  const urls = new Map(await Promise.all([...byProject].map(async ([projectId, pipeline]) => [projectId, await pipelineProjectUrl(pipeline, subject)] as const)));
  return pipelines.flatMap((pipeline) => {
    const url = urls.get(pipeline.projectId);
    return url ? [presentPipelineBasic(pipeline, url)] : [];
  });
}
