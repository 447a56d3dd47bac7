/**
 * Merge Request Hook and Note Hook (on a merge request) payloads, in GitLab's forms
 * (`Gitlab::HookData::MergeRequestBuilder`, `Gitlab::DataBuilder::Note`). Pure functions of what
 * the caller loaded. Fields of GitLab features this service lacks carry their empty values
 * (`last_edited_at`: `null`); `merge_error` is the last failed rebase's. `head_pipeline_id` is the head pipeline's id when
 * the payload is built (its pipeline at the merge request's head commit, or `null`).
 */
import { hookTime, noteHookData, projectHookAttrs, repositoryHookAttrs, userHookAttrs, type HookDeliveryContext } from '../../hooks';
import { formatTotal, labelHookAttrs, presentTimeStats, type Label, type Milestone } from '../../issues';
import type { Namespace } from '../../namespaces';
import { projectFullPath, type Project } from '../../projects';
import { discussionIdOf, type Note } from '../issuables';
import { mergeRequestWebUrl } from '../presenters/merge-requests';
import { isWorkInProgress } from '../queries/merge-requests';
import type { MergeRequest } from '../store/merge-requests';
import type { HookLastCommit, MergeRequestHookAction } from './events';

/** What the payloads show besides the merge request, loaded by the caller. */
export interface MergeRequestHookContext extends HookDeliveryContext {
  labels: Map<number, Label>;
  milestones: Map<number, Milestone>;
  /** The source project and its namespace (`undefined` when gone). */
  source?: { project: Project; namespace: Namespace };
  /** The head pipeline's id (`null`: none). */
  headPipelineId?: number | null;
}

type Attributes = Record<string, unknown>;

/** GitLab's `state_id` of merge requests. */
const STATE_ID = { opened: 1, closed: 2, merged: 3, locked: 4 } as const;

function labelsOf(ctx: MergeRequestHookContext, mr: MergeRequest) {
  return [...new Set(mr.labelIds)]
    .flatMap((id) => (ctx.labels.has(id) ? [ctx.labels.get(id)!] : []))
    .sort((a, b) => a.name.localeCompare(b.name) || a.id - b.id)
    .map(labelHookAttrs);
}

const assigneesOf = (ctx: MergeRequestHookContext, mr: MergeRequest) => {
  const user = mr.assigneeId ? ctx.users.get(mr.assigneeId) : undefined;
  return user ? [userHookAttrs(user)] : [];
};

const reviewersOf = (ctx: MergeRequestHookContext, mr: MergeRequest) => {
  const user = mr.reviewer ? ctx.users.get(mr.reviewer.userId) : undefined;
  return user ? [userHookAttrs(user)] : [];
};

const milestoneIdOf = (ctx: MergeRequestHookContext, mr: MergeRequest) => (mr.milestoneId !== null && ctx.milestones.has(mr.milestoneId) ? mr.milestoneId : null);

/** Internal: `MergeRequest#hook_attrs`. */
function mergeRequestAttrs(ctx: MergeRequestHookContext, mr: MergeRequest, lastCommit: HookLastCommit | null): Attributes {
  const time = presentTimeStats(mr);
  const target = projectHookAttrs(ctx.project, ctx.namespace);
  const source = ctx.source ? projectHookAttrs(ctx.source.project, ctx.source.namespace) : null;
  const assignees = assigneesOf(ctx, mr);
  return {
    assignee_id: mr.assigneeId,
    author_id: mr.authorId,
    created_at: hookTime(mr.createdAt),
    description: mr.description,
    head_pipeline_id: ctx.headPipelineId ?? null,
    id: mr.id,
    iid: mr.iid,
    last_edited_at: null,
    last_edited_by_id: null,
    merge_commit_sha: mr.mergeCommitSha,
    merge_error: mr.mergeError ?? null,
    merge_params: { force_remove_source_branch: mr.forceRemoveSourceBranch ? '1' : '0' },
    merge_status: mr.mergeStatus,
    merge_user_id: mr.mergeUserId,
    merge_when_pipeline_succeeds: mr.mergeWhenPipelineSucceeds,
    milestone_id: milestoneIdOf(ctx, mr),
    source_branch: mr.sourceBranch,
    source_project_id: mr.sourceProjectId,
    state_id: STATE_ID[mr.state],
    target_branch: mr.targetBranch,
    target_project_id: mr.projectId,
    time_estimate: time.time_estimate,
    title: mr.title,
    updated_at: hookTime(mr.updatedAt),
    updated_by_id: null,
    url: mergeRequestWebUrl(mr, projectFullPath(ctx.namespace, ctx.project)),
    source,
    target,
    last_commit: lastCommit
      ? { id: lastCommit.id, message: lastCommit.message, title: lastCommit.message.split('\n')[0], timestamp: lastCommit.timestamp, url: `${target.web_url}/-/commit/${lastCommit.id}`, author: lastCommit.author }
      : null,
    work_in_progress: isWorkInProgress(mr.title),
    total_time_spent: time.total_time_spent,
    time_change: 0,
    human_total_time_spent: time.human_total_time_spent,
    human_time_change: formatTotal(0),
    human_time_estimate: time.human_time_estimate,
    assignee_ids: assignees.map((user) => user.id),
    reviewer_ids: reviewersOf(ctx, mr).map((user) => user.id),
    labels: labelsOf(ctx, mr),
    state: mr.state,
  };
}

/** Internal: the columns GitLab reports in `changes`. */
function columns(ctx: MergeRequestHookContext, mr: MergeRequest): Array<[string, unknown]> {
  return [
    ['assignee_id', mr.assigneeId],
    ['author_id', mr.authorId],
    ['created_at', hookTime(mr.createdAt)],
    ['description', mr.description],
    ['id', mr.id],
    ['iid', mr.iid],
    ['merge_commit_sha', mr.mergeCommitSha],
    ['merge_status', mr.mergeStatus],
    ['milestone_id', milestoneIdOf(ctx, mr)],
    ['source_branch', mr.sourceBranch],
    ['source_project_id', mr.sourceProjectId],
    ['state_id', STATE_ID[mr.state]],
    ['target_branch', mr.targetBranch],
    ['target_project_id', mr.projectId],
    ['time_estimate', mr.timeEstimate ?? 0],
    ['title', mr.title],
    ['updated_at', hookTime(mr.updatedAt)],
  ];
}

function changesOf(ctx: MergeRequestHookContext, mr: MergeRequest, previous: MergeRequest | null): Attributes {
  const changes: Attributes = {};
  const before = new Map(previous ? columns(ctx, previous) : []);
  for (const [key, current] of columns(ctx, mr)) {
    const old = previous ? before.get(key) : key === 'state_id' ? STATE_ID.opened : null;
    if (JSON.stringify(old) !== JSON.stringify(current)) changes[key] = { previous: old ?? null, current };
  }
  if (previous) {
    const [oldLabels, newLabels] = [labelsOf(ctx, previous), labelsOf(ctx, mr)];
    if (oldLabels.map((l) => l.id).join() !== newLabels.map((l) => l.id).join()) changes.labels = { previous: oldLabels, current: newLabels };
    const [oldAssignees, newAssignees] = [assigneesOf(ctx, previous), assigneesOf(ctx, mr)];
    if (oldAssignees.map((u) => u.id).join() !== newAssignees.map((u) => u.id).join()) changes.assignees = { previous: oldAssignees, current: newAssignees };
    const [oldReviewers, newReviewers] = [reviewersOf(ctx, previous), reviewersOf(ctx, mr)];
    if (oldReviewers.map((u) => u.id).join() !== newReviewers.map((u) => u.id).join()) changes.reviewers = { previous: oldReviewers, current: newReviewers };
  }
  return changes;
}

/** The Merge Request Hook payload of a change (`previous`: before it; `null` when opened). */
export function mergeRequestHookPayload(
  ctx: MergeRequestHookContext,
  mr: MergeRequest,
  previous: MergeRequest | null,
  action: MergeRequestHookAction,
  lastCommit: HookLastCommit | null,
): Record<string, unknown> {
  const project = projectHookAttrs(ctx.project, ctx.namespace);
  const assignees = assigneesOf(ctx, mr);
  const reviewers = reviewersOf(ctx, mr);
  return {
    object_kind: 'merge_request',
    event_type: 'merge_request',
    user: userHookAttrs(ctx.actor),
    project,
    object_attributes: { ...mergeRequestAttrs(ctx, mr, lastCommit), action },
    labels: labelsOf(ctx, mr),
    changes: changesOf(ctx, mr, action === 'open' ? null : previous),
    repository: repositoryHookAttrs(project),
    ...(assignees.length > 0 ? { assignees } : {}),
    ...(reviewers.length > 0 ? { reviewers } : {}),
  };
}

/** The Note Hook payload of a comment on a merge request. */
export function mergeRequestNoteHookPayload(ctx: MergeRequestHookContext, note: Note, mr: MergeRequest, lastCommit: HookLastCommit | null): Record<string, unknown> {
  return noteHookData(ctx, note, {
    attributes: {
      noteable_type: 'MergeRequest',
      line_code: note.lineCode ?? null,
      commit_id: '',
      noteable_id: mr.id,
      system: note.system,
      // GitLab's note attributes: its STI type (`DiffNote` on a diff line, `DiscussionNote`, `null` for an individual note), its position, its thread, its resolution.
      type: note.position ? 'DiffNote' : (note.noteType ?? null),
      position: note.position ?? null,
      discussion_id: discussionIdOf(note),
      resolved_at: note.resolvedAt ?? null,
      resolved_by_id: note.resolvedById ?? null,
      action: 'create',
      url: `${mergeRequestWebUrl(mr, projectFullPath(ctx.namespace, ctx.project))}#note_${note.id}`,
    },
    noteable: { merge_request: mergeRequestAttrs(ctx, mr, lastCommit) },
  });
}
