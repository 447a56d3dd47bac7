/**
 * Issue writes: GitLab's model rules and `IssuableBaseService` parameter filtering (labels,
 * milestone and assignee only from reporters and above; an unknown milestone or an assignee who
 * cannot read the project is ignored; `created_at`/`updated_at` only from owners and admins), the
 * state machine (`close`, `reopen`) and soft deletion. The route has authorized the caller on the
 * project (`create_issue`, `destroy_issue`); the per-issue rule `update_issue` needs the issue
 * loaded, so it is checked here, after each read.
 */
import { can, projectAccessFor, type ProjectSubject } from '../../auth';
import { nextId } from '../../platform/dynamo/counters';
import { ConflictError, ForbiddenError, NotFoundError, ParamError, ValidationError } from '../../platform/http/errors';
import { getUser, type User } from '../../users';
import { canUpdateIssue } from '../policy';
import { findIssue, findIssueOrNotFound, projectSubjects } from '../queries/issues';
import { insertIssue, replaceIssue, type Issue, type IssueState, type IssueWriteFailure } from '../store/issues';
import { pendingTodoRemovals } from '../store/todos';
import { listLabels } from '../store/labels';
import { getMilestone, type Milestone } from '../store/milestones';
import type { HeldRecords } from '../presenters/issues';
import { mergeRequestReference, statusNote, systemNotesFor, type IssueChangeSummary } from '../system-notes';
import { resolveProjectMilestoneId } from './group-milestones';
import { issueSideEffects } from './issue-effects';
import { ensureLabels, labelNamesWanted } from './labels';
import { AGAIN, retried } from './retry';
import { assertValid, titleAndDescriptionErrors } from './validation';

/**
 * Most labels on one issue: each label's counts change in the issue's transaction, which
 * DynamoDB caps at 100 operations (a move writes two issues with their labels).
 */
export const MAX_LABELS_PER_ISSUE = 40;

/** Internal: how a lost race ends once five writes in a row lost it. */
export const ISSUE_RETRIES = { attempts: 5, conflict: 'The issue was modified by another request; try again' };

/** What a client sends on create and edit; `undefined` keeps (or defaults) a field. */
export interface IssueInput {
  title?: string;
  description?: string | null;
  confidential?: boolean;
  /** Label names; `[]` removes every label. */
  labels?: string[];
  /** `0` or `null` removes the milestone. */
  milestoneId?: number | null;
  /** `[]` or `[0]` removes the assignee. */
  assigneeIds?: number[];
  dueDate?: string | null;
  /** Create only: owners and admins. */
  createdAt?: string;
  /** Edit only: owners and admins. */
  updatedAt?: string;
  stateEvent?: 'close' | 'reopen';
}

/** Internal: GitLab's model validations. */
const validate = (issue: Pick<Issue, 'title' | 'description'>): void => assertValid(titleAndDescriptionErrors(issue));

/** Internal: a timestamp parameter as ISO 8601 in UTC; 400 when it is not a date-time. */
function isoTimestamp(value: string, name: string): string {
  const time = Date.parse(value);
  if (Number.isNaN(time)) throw new ParamError(`${name} is invalid`);
  return new Date(time).toISOString();
}

/** Internal: maps a write that did not happen for good to GitLab's answer, or asks for another attempt. */
function retryOrFail(result: IssueWriteFailure): typeof AGAIN {
  if (result === 'project_gone') throw new NotFoundError('Project');
  return AGAIN;
}

/**
 * Internal: the relations a reporter (or above) may set, resolved: label names to ids (missing
 * labels created), the milestone when it is one of the project's (otherwise ignored, as GitLab
 * does), the first assignee who can read the project (others ignored). `undefined`: unchanged.
 */
interface Relations {
  labelIds?: number[];
  milestoneId?: number | null;
  assigneeIds?: number[];
  /** What resolving them read (labels, the milestone, the assignee), for the response. */
  held: HeldRecords;
}

async function resolveRelations(subject: ProjectSubject, input: IssueInput, caller?: User): Promise<Relations> {
  if (input.labels !== undefined && new Set(input.labels.map((name) => name.toLowerCase())).size > MAX_LABELS_PER_ISSUE) {
    throw new ValidationError({ labels: [`are too many (maximum is ${MAX_LABELS_PER_ISSUE})`] });
  }
  // A bad label name is refused before anything is written (the labels missing are created, the
  // milestone may add a group milestone's alias). Then all three at once: their reads of a turn
  // go out together (`getMany`).
  if (input.labels !== undefined) labelNamesWanted(input.labels);
  const held: Required<HeldRecords> = { users: [], labels: [], milestones: [] };
  const [labels, milestoneId, assigneeIds] = await Promise.all([
    input.labels === undefined ? undefined : ensureLabels(subject.project, input.labels),
    resolveMilestone(subject, input.milestoneId, held.milestones),
    resolveAssignees(subject, input.assigneeIds, caller, held.users),
  ]);
  held.labels.push(...(labels ?? []));
  return { labelIds: labels?.map((label) => label.id), milestoneId, assigneeIds, held };
}

/** Internal: `0` or `null` removes the milestone; another id is the project's milestone (or its alias of a group's), else ignored. */
async function resolveMilestone(subject: ProjectSubject, milestoneId: number | null | undefined, held: Milestone[]): Promise<number | null | undefined> {
  if (milestoneId === null || milestoneId === 0) return null;
  return milestoneId === undefined ? undefined : resolveProjectMilestoneId(subject, milestoneId, held);
}

/**
 * Internal: the first of the ids who can be assigned (`[]` or `[0]`: none); only unknown or
 * unauthorized ids given keep the issue's assignee unchanged (`undefined`), as GitLab does.
 * The assignee found is added to `held`.
 */
async function resolveAssignees(subject: ProjectSubject, ids: number[] | undefined, caller: User | undefined, held: User[]): Promise<number[] | undefined> {
  if (ids === undefined) return undefined;
  const wanted = ids.filter((id) => id > 0);
  for (const id of wanted) {
    const assignee = await assignable(id, subject, caller);
    if (assignee) {
      held.push(assignee);
      return [id];
    }
  }
  return wanted.length > 0 ? undefined : [];
}

/**
 * An active user who can read the project's issues (GitLab's assignee rule). The caller
 * (`caller`, authenticated, with `subject` resolved for them) is checked without reading again.
 */
export async function canBeAssigned(userId: number, subject: ProjectSubject, caller?: User): Promise<boolean> {
  return (await assignable(userId, subject, caller)) !== undefined;
}

/** Internal: {@link canBeAssigned}'s user, when they can be. */
async function assignable(userId: number, subject: ProjectSubject, caller?: User): Promise<User | undefined> {
  const user = caller?.id === userId ? caller : await getUser(userId);
  if (!user || user.state !== 'active') return undefined;
  const access = user === caller ? subject.access : await projectAccessFor(user, subject.project, subject.namespace);
  return can(user, 'read_issue', { ...subject, access }) ? user : undefined;
}

/**
 * Opens an issue in the project, authored by `user` (authorized for `create_issue`), and counts it
 * in `open_issues_count`, its labels' counts and the `opened` event in the same transaction. The
 * iid comes from the project's own sequence: unique under concurrency, gaps possible (a failed
 * create spends a number, as in GitLab). Answers the issue and the records it read on the way
 * (author, labels, milestone, assignee) for presenting it.
 *
 * @throws ValidationError on a bad title or description.
 * @example
 * const { issue, held } = await createIssue(subject, user, { title: 'Crash on start', labels: ['bug'] });
 */
export async function createIssue(subject: ProjectSubject, user: User, input: IssueInput & { title: string }): Promise<{ issue: Issue; held: HeldRecords }> {
  const title = input.title.trim();
  const description = input.description ?? null;
  validate({ title, description });
  const createdAt =
    input.createdAt !== undefined && can(user, 'set_issue_timestamps', subject) ? isoTimestamp(input.createdAt, 'created_at') : new Date().toISOString();
  const [relations, id, iid] = await Promise.all([
    can(user, 'admin_issue', subject) ? resolveRelations(subject, input, user) : Promise.resolve<Relations>({ held: {} }),
    nextId('issues'),
    nextId(`issues#${subject.project.id}`),
  ]);
  const issue: Issue = {
    id,
    iid,
    projectId: subject.project.id,
    title,
    description,
    state: 'opened',
    confidential: input.confidential ?? false,
    authorId: user.id,
    assigneeIds: relations.assigneeIds ?? [],
    milestoneId: relations.milestoneId ?? null,
    labelIds: relations.labelIds ?? [],
    dueDate: input.dueDate ?? null,
    createdAt,
    updatedAt: createdAt,
    closedAt: null,
    deletedAt: null,
    version: 1,
  };
  const result = await insertIssue(issue, await issueSideEffects(issue, user, { event: 'opened', hook: { action: 'open', previous: null }, subject }));
  if (result === 'project_gone') throw new NotFoundError('Project');
  if (result === 'issue_changed') throw new ConflictError('Issue iid already in use; try again');
  // The response shows the author (the caller) and what the relations read: nothing to read again.
  return { issue: result, held: { ...relations.held, users: [user, ...(relations.held.users ?? [])] } };
}

const STATE_AFTER: Record<NonNullable<IssueInput['stateEvent']>, IssueState> = { close: 'closed', reopen: 'opened' };

/**
 * Edits an issue (as found by the caller), re-reading and re-applying the changes when another
 * edit wins the race. The issue, the project's and labels' counts, the `closed`/`reopened` event
 * and a system note for each change (title, description, labels, milestone, assignee, due date,
 * confidentiality, state) are one transaction; closing a closed issue changes nothing.
 *
 * @throws ForbiddenError unless the caller is the author, the assignee or a reporter and above;
 *   NotFoundError `Issue` when it went meanwhile.
 */
export async function updateIssue(subject: ProjectSubject, user: User, issue: Issue, input: IssueInput): Promise<Issue> {
  // Per-issue rule (GitLab's `update_issue`): it needs the issue loaded, so it is checked here,
  // before anything is written (labels may be created below), and again after every re-read.
  if (!canUpdateIssue(user, subject, issue)) throw new ForbiddenError();
  validate({
    title: input.title === undefined ? issue.title : input.title.trim(),
    description: input.description === undefined ? issue.description : input.description,
  });
  const updatedAt =
    input.updatedAt !== undefined && can(user, 'set_issue_timestamps', subject) ? isoTimestamp(input.updatedAt, 'updated_at') : undefined;
  const relations: Relations = can(user, 'admin_issue', subject) ? await resolveRelations(subject, input, user) : { held: {} };
  const reread = () => findIssueOrNotFound(subject, user, issue.iid);
  return retried(issue, reread, async (current) => {
    if (!canUpdateIssue(user, subject, current)) throw new ForbiddenError();
    const state = input.stateEvent ? STATE_AFTER[input.stateEvent] : current.state;
    const now = new Date().toISOString();
    const next: Issue = {
      ...current,
      title: input.title === undefined ? current.title : input.title.trim(),
      description: input.description === undefined ? current.description : input.description,
      confidential: input.confidential ?? current.confidential,
      dueDate: input.dueDate === undefined ? current.dueDate : input.dueDate,
      labelIds: relations.labelIds ?? current.labelIds,
      milestoneId: relations.milestoneId === undefined ? current.milestoneId : relations.milestoneId,
      assigneeIds: relations.assigneeIds ?? current.assigneeIds,
      state,
      closedAt: state === current.state ? current.closedAt : state === 'closed' ? now : null,
      closedById: state === current.state ? current.closedById : state === 'closed' ? user.id : null,
      updatedAt: updatedAt ?? now,
    };
    validate(next);
    const stateEvent = state === current.state ? undefined : state === 'closed' ? 'closed' : 'reopened';
    const notes = systemNotesFor(await summarizeChanges(current, next));
    const hook = { action: stateEvent === 'closed' ? 'close' : stateEvent === 'reopened' ? 'reopen' : 'update', previous: current } as const;
    const result = await replaceIssue(current, next, await issueSideEffects(next, user, { event: stateEvent, notes, hook, subject }));
    return typeof result === 'string' ? retryOrFail(result) : result;
  }, ISSUE_RETRIES);
}

/**
 * Soft-deletes an issue (as found by the caller, authorized for `destroy_issue`): it leaves every
 * read and list, keeps its iid, and an open issue leaves `open_issues_count` (and its labels'
 * counts) in the same transaction.
 */
export async function deleteIssue(subject: ProjectSubject, user: User, issue: Issue): Promise<void> {
  const reread = () => findIssueOrNotFound(subject, user, issue.iid);
  await retried(issue, reread, async (current) => {
    const now = new Date().toISOString();
    // Its pending todos go with it, in its transaction (`GET /user_counts` counts them no more).
    const todos = await pendingTodoRemovals({ type: 'Issue', projectId: current.projectId, iid: current.iid });
    const result = await replaceIssue(current, { ...current, deletedAt: now, updatedAt: now }, todos.length > 0 ? { todos } : undefined);
    return typeof result === 'string' ? retryOrFail(result) : undefined;
  }, ISSUE_RETRIES);
}

/** The merge request that closes an issue: its project and iid, and its full reference (`group/project!7`). */
export interface ClosingMergeRequest {
  projectId: number;
  iid: number;
  reference: string;
  /** Its global id: the resource state event's `source_merge_request_id` (`null` without it). */
  id?: number;
}

/**
 * Closes an open issue because `user` merged a merge request that closes it (GitLab's
 * `Issues::CloseService#execute(issue, commit: merge_request)` from `MergeRequests::PostMergeService`):
 * as `PUT .../issues/:iid` with `state_event=close` would (state, `closed_at`, `updated_at`, the
 * counts, the `closed` event, the Issue Hook `close`), with the system note `closed via merge
 * request !7` (`… group/project!7` from another project) instead of `closed`. Lost races re-read
 * and apply again, up to as many times as an edit does; then the issue is left as it is.
 *
 * Nothing happens, and the issue is returned as last read, when `user` may not update it
 * (GitLab's `update_issue`, checked on the issue's project as `user` sees it), when it is closed
 * already, or when it (or its project) went meanwhile: a merge never fails for its issues.
 *
 * @example
 * const closed = await closeIssueFromMergeRequest(issue, user, { projectId: 5, iid: 7, reference: 'group/project!7' });
 */
export async function closeIssueFromMergeRequest(issue: Issue, user: User, mergeRequest: ClosingMergeRequest): Promise<Issue> {
  const subject = (await projectSubjects(user, [issue.projectId])).get(issue.projectId);
  if (!subject || subject.namespace.deleting) return issue;
  let current = issue;
  for (let attempt = 1; attempt <= ISSUE_RETRIES.attempts; attempt++) {
    if (current.state !== 'opened' || !canUpdateIssue(user, subject, current)) return current;
    const now = new Date().toISOString();
    const next: Issue = { ...current, state: 'closed', closedAt: now, closedById: user.id, updatedAt: now };
    const notes = [statusNote('closed', `merge request ${mergeRequestReference(mergeRequest, issue.projectId)}`)];
    const effects = await issueSideEffects(next, user, {
      event: 'closed',
      notes,
      hook: { action: 'close', previous: current },
      stateSource: { sourceMergeRequestId: mergeRequest.id ?? null },
    });
    const result = await replaceIssue(current, next, effects);
    if (result === 'project_gone') return current;
    if (result !== 'issue_changed') return result;
    const reread = await findIssue(issue.projectId, issue.iid);
    if (!reread) return current;
    current = reread;
  }
  return current;
}

/**
 * What a write to an issue or a merge request changed that its system notes tell, with the names
 * of the labels, milestone and users involved (read only for the parts that changed). The fields
 * a merge request lacks (due date, confidentiality) are simply never changed for it.
 */
export async function summarizeChanges(before: Summarized, after: Summarized): Promise<IssueChangeSummary> {
  const summary: IssueChangeSummary = {};
  if (after.title !== before.title) summary.title = { from: before.title, to: after.title };
  if (after.description !== before.description) summary.description = true;
  const added = after.labelIds.filter((id) => !before.labelIds.includes(id));
  const removed = before.labelIds.filter((id) => !after.labelIds.includes(id));
  if (added.length + removed.length > 0) {
    const names = new Map((await listLabels(after.projectId)).map((label) => [label.id, label.name]));
    const named = (ids: number[]) => ids.flatMap((id) => (names.has(id) ? [names.get(id)!] : []));
    summary.labels = { added: named(added), removed: named(removed) };
  }
  if (after.milestoneId !== before.milestoneId) {
    summary.milestone = after.milestoneId === null ? null : ((await getMilestone(after.projectId, after.milestoneId))?.title ?? null);
  }
  const assigned = after.assigneeIds.filter((id) => !before.assigneeIds.includes(id));
  const unassigned = before.assigneeIds.filter((id) => !after.assigneeIds.includes(id));
  if (assigned.length + unassigned.length > 0) {
    const usernames = async (ids: number[]) => (await Promise.all(ids.map(getUser))).flatMap((u) => (u ? [u.username] : []));
    summary.assignees = { added: await usernames(assigned), removed: await usernames(unassigned) };
  }
  if (after.dueDate !== before.dueDate) summary.dueDate = after.dueDate ?? null;
  if (after.confidential !== before.confidential) summary.confidential = after.confidential ?? false;
  if (after.state !== before.state) summary.state = after.state === 'closed' ? 'closed' : 'reopened';
  return summary;
}

/** What {@link summarizeChanges} compares. */
export type Summarized = Pick<Issue, 'projectId' | 'title' | 'description' | 'labelIds' | 'milestoneId' | 'assigneeIds'> &
  Partial<Pick<Issue, 'dueDate' | 'confidential'>> & { state: string };
