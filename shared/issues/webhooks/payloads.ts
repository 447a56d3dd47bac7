/**
 * Issue Hook and Note Hook payloads, in GitLab's forms (doc/user/project/integrations/webhook_events.md,
 * "Work item events" and "Comment on an issue"; `Gitlab::DataBuilder::Issuable`,
 * `Gitlab::HookData::IssueBuilder`, `Gitlab::DataBuilder::Note`). Pure functions of entities the
 * caller loaded: no I/O here. The parts every payload shares (`user`, `project`, `repository`,
 * timestamps) are the hooks feature's.
 *
 * Choices where GitLab's documentation is not one thing (see also `hooks/presenters/webhooks.ts`):
 * - Users (`user`, `assignees`, those in `changes`) carry `email: "[REDACTED]"`.
 * - Fields of GitLab features this service lacks are present with their empty values
 *   (`discussion_locked`, `last_edited_at`, `updated_by_id`, `relative_position`: `null`;
 *   `severity: "unknown"`, as GitLab sends for issues that are not incidents); EE-only fields
 *   (`weight`, `health_status`, escalations) are left out.
 * - A label or milestone that is not in the context (deleted since) is left out / `null`.
 */
import { hookTime, noteHookData, projectHookAttrs, repositoryHookAttrs, userHookAttrs, type HookDeliveryContext } from '../../hooks';
import { projectFullPath } from '../../projects';
import { issueWebUrl } from '../presenters/issues';
import { presentTimeStats } from '../presenters/time-stats';
import { formatTotal } from '../time-tracking';
import type { TimeTracked } from '../store/issue-time';
import type { Issue } from '../store/issues';
import type { Label } from '../store/labels';
import type { Milestone } from '../store/milestones';
import { discussionIdOf } from '../store/discussions';
import { noteTarget, type Note } from '../store/notes';
import type { IssueHookAction } from './events';

/** What the payloads show besides the issue and note themselves, loaded by the caller. */
export interface IssueHookContext extends HookDeliveryContext {
  /** The project's labels by id (ids missing here are left out). */
  labels: Map<number, Label>;
  /** The project's milestones by id (a missing one is shown as `null`). */
  milestones: Map<number, Milestone>;
}

/** An issue as events carry it: time tracking may be absent (never tracked) or `null`. */
type TrackedIssue = Issue & { timeEstimate?: number | null; totalTimeSpent?: number | null };

type Attributes = Record<string, unknown>;

/** GitLab's `state_id`. */
const STATE_ID = { opened: 1, closed: 2 } as const;

/** `Label#hook_attrs` of a project label (also in merge request payloads). */
export const labelAttrs = (label: Label) => ({
  id: label.id,
  title: label.name,
  color: label.color,
  project_id: label.projectId,
  created_at: hookTime(label.createdAt),
  updated_at: hookTime(label.updatedAt),
  template: false,
  description: label.description,
  type: 'ProjectLabel',
  group_id: null,
});

const pathWithNamespace = (ctx: IssueHookContext) => projectFullPath(ctx.namespace, ctx.project);

/** Internal: the issue's labels that still exist, by title (as GitLab lists them). */
function labelsOf(ctx: IssueHookContext, issue: Issue) {
  return [...new Set(issue.labelIds)]
    .flatMap((id) => {
      const label = ctx.labels.get(id);
      return label ? [label] : [];
    })
    .sort((a, b) => a.name.localeCompare(b.name) || a.id - b.id)
    .map(labelAttrs);
}

/** Internal: the issue's assignees that still exist. */
function assigneesOf(ctx: IssueHookContext, issue: Issue) {
  return issue.assigneeIds.flatMap((id) => {
    const user = ctx.users.get(id);
    return user ? [userHookAttrs(user)] : [];
  });
}

const milestoneIdOf = (ctx: IssueHookContext, issue: Issue) => (issue.milestoneId !== null && ctx.milestones.has(issue.milestoneId) ? issue.milestoneId : null);

const estimateOf = (issue: TrackedIssue) => Number(issue.timeEstimate ?? 0);
const spentOf = (issue: TrackedIssue) => Number(issue.totalTimeSpent ?? 0);

/**
 * Internal: `Issue#hook_attrs` (`Gitlab::HookData::IssueBuilder`), the issue's `object_attributes`
 * and the note payload's `issue`. `timeChange` is the time spent added by this change.
 */
function issueAttrs(ctx: IssueHookContext, issue: TrackedIssue, timeChange = 0): Attributes {
  const time = presentTimeStats({ timeEstimate: estimateOf(issue), totalTimeSpent: spentOf(issue) } satisfies TimeTracked);
  return {
    author_id: issue.authorId,
    closed_at: hookTime(issue.closedAt),
    confidential: issue.confidential,
    created_at: hookTime(issue.createdAt),
    description: issue.description,
    discussion_locked: null,
    due_date: issue.dueDate,
    id: issue.id,
    iid: issue.iid,
    last_edited_at: null,
    last_edited_by_id: null,
    milestone_id: milestoneIdOf(ctx, issue),
    moved_to_id: issue.movedToId ?? null,
    duplicated_to_id: null,
    project_id: issue.projectId,
    relative_position: null,
    state_id: STATE_ID[issue.state],
    time_estimate: time.time_estimate,
    title: issue.title,
    updated_at: hookTime(issue.updatedAt),
    updated_by_id: null,
    type: 'Issue',
    url: issueWebUrl(issue, pathWithNamespace(ctx)),
    total_time_spent: time.total_time_spent,
    time_change: timeChange,
    human_total_time_spent: time.human_total_time_spent,
    human_time_change: formatTotal(timeChange),
    human_time_estimate: time.human_time_estimate,
    assignee_ids: [...issue.assigneeIds],
    // Deprecated by GitLab: the first assignee only.
    assignee_id: issue.assigneeIds[0] ?? null,
    labels: labelsOf(ctx, issue),
    state: issue.state,
    severity: 'unknown',
  };
}

/** Internal: the attribute columns GitLab reports in `changes`, with their values here. */
function columns(ctx: IssueHookContext, issue: TrackedIssue): Array<[string, unknown]> {
  return [
    ['author_id', issue.authorId],
    ['closed_at', hookTime(issue.closedAt)],
    ['confidential', issue.confidential],
    ['created_at', hookTime(issue.createdAt)],
    ['description', issue.description],
    ['due_date', issue.dueDate],
    ['id', issue.id],
    ['iid', issue.iid],
    ['milestone_id', milestoneIdOf(ctx, issue)],
    ['moved_to_id', issue.movedToId ?? null],
    ['project_id', issue.projectId],
    ['state_id', STATE_ID[issue.state]],
    ['time_estimate', estimateOf(issue)],
    ['title', issue.title],
    ['updated_at', hookTime(issue.updatedAt)],
  ];
}

/** Internal: a column's value before the issue existed (the database default). */
const CREATION_DEFAULTS: Record<string, unknown> = { confidential: false, state_id: STATE_ID.opened };

/**
 * Internal: `changes` of a new issue. GitLab reports the record's `previous_changes`, so every
 * column written with a value other than its default appears, from `null` (or the default);
 * `time_estimate` always does (from `null`), labels and assignees never.
 */
function creationChanges(ctx: IssueHookContext, issue: TrackedIssue): Attributes {
  const changes: Attributes = {};
  for (const [key, current] of columns(ctx, issue)) {
    const before = key in CREATION_DEFAULTS ? CREATION_DEFAULTS[key] : null;
    if (current !== before || key === 'time_estimate') changes[key] = { previous: before, current };
  }
  return changes;
}

const sameIds = (a: Array<{ id: number }>, b: Array<{ id: number }>) =>
  a.length === b.length && a.map((x) => x.id).sort((x, y) => x - y).join() === b.map((x) => x.id).sort((x, y) => x - y).join();

/**
 * Internal: `changes` of an edit, close or reopen: the columns that differ, then the relations
 * (`assignees`, `labels` as hook objects; `total_time_spent` with its `time_change`).
 */
function editChanges(ctx: IssueHookContext, issue: TrackedIssue, previous: TrackedIssue): Attributes {
  const changes: Attributes = {};
  const before = new Map(columns(ctx, previous));
  for (const [key, current] of columns(ctx, issue)) {
    if (before.get(key) !== current) changes[key] = { previous: before.get(key), current };
  }
  const [oldAssignees, newAssignees] = [assigneesOf(ctx, previous), assigneesOf(ctx, issue)];
  if (!sameIds(oldAssignees, newAssignees)) changes.assignees = { previous: oldAssignees, current: newAssignees };
  const [oldLabels, newLabels] = [labelsOf(ctx, previous), labelsOf(ctx, issue)];
  if (!sameIds(oldLabels, newLabels)) changes.labels = { previous: oldLabels, current: newLabels };
  if (spentOf(previous) !== spentOf(issue)) {
    changes.total_time_spent = { previous: spentOf(previous), current: spentOf(issue) };
    changes.time_change = { previous: 0, current: spentOf(issue) - spentOf(previous) };
  }
  return changes;
}

/**
 * The Issue Hook payload of a change: `previous` is the issue before it (`null` when opened).
 * `changes` follows GitLab: an opened issue lists its creation values, an edit only what differs;
 * `assignees` is present only when the issue has some. Confidential issues get
 * `event_type: "confidential_issue"` (whether to send them at all is the caller's decision).
 *
 * @example
 * const body = JSON.stringify(issueHookPayload(ctx, closed, open, 'close'));
 */
export function issueHookPayload(ctx: IssueHookContext, issue: Issue, previous: Issue | null, action: IssueHookAction): Record<string, unknown> {
  const project = projectHookAttrs(ctx.project, ctx.namespace);
  const timeChange = previous && action !== 'open' ? spentOf(issue) - spentOf(previous) : 0;
  const changes = action === 'open' ? creationChanges(ctx, issue) : previous ? editChanges(ctx, issue, previous) : {};
  const assignees = assigneesOf(ctx, issue);
  return {
    object_kind: 'issue',
    event_type: issue.confidential ? 'confidential_issue' : 'issue',
    user: userHookAttrs(ctx.actor),
    project,
    object_attributes: { ...issueAttrs(ctx, issue, timeChange), action },
    labels: labelsOf(ctx, issue),
    changes,
    repository: repositoryHookAttrs(project),
    ...(assignees.length > 0 ? { assignees } : {}),
  };
}

/**
 * The Note Hook payload of a new comment on `issue`; `user` is the context's actor (the author).
 * Comments on confidential issues get `event_type: "confidential_note"`.
 *
 * @example
 * const body = JSON.stringify(noteHookPayload(ctx, note, issue));
 */
export function noteHookPayload(ctx: IssueHookContext, note: Note, issue: Issue): Record<string, unknown> {
  return noteHookData(ctx, note, {
    eventType: issue.confidential ? 'confidential_note' : 'note',
    attributes: {
      noteable_type: 'Issue',
      line_code: null,
      commit_id: '',
      noteable_id: noteTarget(note).id,
      system: note.system,
      // GitLab's note attributes: its STI type (`DiscussionNote`, `null` for an individual note) and its thread.
      type: note.noteType ?? null,
      discussion_id: discussionIdOf(note),
      action: 'create',
      url: `${issueWebUrl(issue, pathWithNamespace(ctx))}#note_${note.id}`,
    },
    noteable: { issue: issueAttrs(ctx, issue) },
  });
}
