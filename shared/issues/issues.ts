/**
 * Project issues: GitLab's model rules and `IssuableBaseService` parameter filtering (labels,
 * milestone and assignee only from reporters and above; an unknown milestone or an assignee who
 * cannot read the project is ignored; `created_at`/`updated_at` only from owners and admins), the
 * state machine (`close`, `reopen`), soft deletion, and the list sources of `IssuesFinder`.
 */
import { projectAccessFor, projectAccessForMany, can, type ProjectSubject } from '../auth';
import { canReadIssue, canUpdateIssue } from './policy';
import { byKey, getMany } from '../platform/dynamo/batch';
import { nextId, nextIds } from '../platform/dynamo/counters';
import { prepareEvent, type NewEvent, projectCollections, projectKeys, projectFromItem, type Project } from '../projects';
import { prepareHookEvent } from '../hooks';
import { getIssue, insertIssue, issueFromItem, replaceIssue, writeIssues, type Issue, type IssueState, type TransactItem } from './store/issues';
import { type Collection } from '../platform/dynamo/keys';
import { namespaceCollections, namespaceKeys, namespaceFromItem, type Namespace } from '../groups';
import { type IssueOrderBy, issueCollections } from './store/keys';
import { findLabelByName, getLabel, listLabels } from './store/labels';
import { getMilestone, listMilestones } from './store/milestones';
import { listIssueNotes, notePut, putNotes, removeNotes, type Note } from './store/notes';
import { queryCollection, type Item } from '../platform/dynamo/query';
import { getUser, type User } from '../users';
import { BadRequestError, ConflictError, ForbiddenError, NotFoundError, ParamError, ValidationError } from '../platform/http/errors';
import { filteredCollection, type StreamSource } from '../platform/http/pagination';
import { ensureLabels } from './labels';
import { findMilestoneByTitle, findMilestoneInProject, MAX_DESCRIPTION_LENGTH, MAX_TITLE_LENGTH } from './milestones';
import { movedNote, systemNotesFor, type IssueChangeSummary } from './system-notes';

const MAX_ATTEMPTS = 5;

/**
 * Most labels on one issue: each label's counts change in the issue's transaction, which
 * DynamoDB caps at 100 operations (a move writes two issues with their labels).
 */
export const MAX_LABELS_PER_ISSUE = 40;

/** The issue as the caller may see it; 404 `Issue Not Found` when absent, deleted or confidential to them. */
export async function findIssueOrNotFound(subject: ProjectSubject, user: User | null, iid: number): Promise<Issue> {
  const issue = await getIssue(subject.project.id, iid);
  if (!issue || issue.deletedAt || !canReadIssue(user, subject, issue)) throw new NotFoundError('Issue');
  return issue;
}

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
function validate(issue: Pick<Issue, 'title' | 'description'>): void {
  const errors: Record<string, string[]> = {};
  if (issue.title === '') errors.title = ["can't be blank"];
  else if ([...issue.title].length > MAX_TITLE_LENGTH) errors.title = [`is too long (maximum is ${MAX_TITLE_LENGTH} characters)`];
  if (issue.description !== null && [...issue.description].length > MAX_DESCRIPTION_LENGTH) {
    errors.description = [`is too long (maximum is ${MAX_DESCRIPTION_LENGTH} characters)`];
  }
  if (Object.keys(errors).length > 0) throw new ValidationError(errors);
}

/** Internal: a timestamp parameter as ISO 8601 in UTC; 400 when it is not a date-time. */
function isoTimestamp(value: string, name: string): string {
  const time = Date.parse(value);
  if (Number.isNaN(time)) throw new ParamError(`${name} is invalid`);
  return new Date(time).toISOString();
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
}

async function resolveRelations(subject: ProjectSubject, input: IssueInput): Promise<Relations> {
  let labelIds: number[] | undefined;
  if (input.labels !== undefined && new Set(input.labels.map((name) => name.toLowerCase())).size > MAX_LABELS_PER_ISSUE) {
    throw new ValidationError({ labels: [`are too many (maximum is ${MAX_LABELS_PER_ISSUE})`] });
  }
  if (input.labels !== undefined) labelIds = (await ensureLabels(subject.project, input.labels)).map((label) => label.id);
  let milestoneId: number | null | undefined;
  if (input.milestoneId === null || input.milestoneId === 0) milestoneId = null;
  else if (input.milestoneId !== undefined) {
    milestoneId = (await findMilestoneInProject(subject.project.id, input.milestoneId))?.id;
  }
  let assigneeIds: number[] | undefined;
  if (input.assigneeIds !== undefined) {
    const wanted = input.assigneeIds.filter((id) => id > 0);
    assigneeIds = [];
    for (const id of wanted) {
      if (await canBeAssigned(id, subject)) {
        assigneeIds = [id];
        break;
      }
    }
    // Only unknown or unauthorized ids given: GitLab keeps the issue's assignee unchanged.
    if (wanted.length > 0 && assigneeIds.length === 0) assigneeIds = undefined;
  }
  return { labelIds, milestoneId, assigneeIds };
}

/** Internal: an active user who can read the project's issues. */
async function canBeAssigned(userId: number, subject: ProjectSubject): Promise<boolean> {
  const user = await getUser(userId);
  if (!user || user.state !== 'active') return false;
  const access = await projectAccessFor(user, subject.project, subject.namespace);
  return can(user, 'read_issue', { ...subject, access });
}

/**
 * Opens an issue in the project, authored by `user`, and counts it in `open_issues_count`, its
 * labels' counts and the `opened` event in the same transaction. The iid comes from the
 * project's own sequence: unique under concurrency, gaps possible (a failed create spends a
 * number, as in GitLab).
 *
 * @throws ForbiddenError unless `create_issue`; ValidationError on a bad title or description.
 * @example
 * const issue = await createIssue(subject, user, { title: 'Crash on start', labels: ['bug'] });
 */
export async function createIssue(subject: ProjectSubject, user: User, input: IssueInput & { title: string }): Promise<Issue> {
  if (!can(user, 'create_issue', subject)) throw new ForbiddenError();
  const title = input.title.trim();
  const description = input.description ?? null;
  validate({ title, description });
  const createdAt =
    input.createdAt !== undefined && can(user, 'set_issue_timestamps', subject) ? isoTimestamp(input.createdAt, 'created_at') : new Date().toISOString();
  const relations: Relations = can(user, 'admin_issue', subject) ? await resolveRelations(subject, input) : {};
  const [id, iid] = await Promise.all([nextId('issues'), nextId(`issues#${subject.project.id}`)]);
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
  const result = await insertIssue(issue, await issueSideEffects(issue, user, { event: 'opened', hook: { action: 'open', previous: null } }));
  if (result === 'project_gone') throw new NotFoundError('Project');
  if (result === 'issue_changed') throw new ConflictError('Issue iid already in use; try again');
  return result;
}

const STATE_AFTER: Record<NonNullable<IssueInput['stateEvent']>, IssueState> = { close: 'closed', reopen: 'opened' };

/** GitLab's issue hook actions. */
type HookIssueAction = 'open' | 'update' | 'close' | 'reopen';

/**
 * Edits an issue, re-reading and re-applying the changes when another edit wins the race. The
 * issue, the project's and labels' counts, the `closed`/`reopened` event and a system note for
 * each change (title, description, labels, milestone, assignee, due date, confidentiality,
 * state) are one transaction; closing a closed issue changes nothing.
 *
 * @throws NotFoundError `Issue` (absent, deleted or confidential to the caller); ForbiddenError
 *   unless the caller is the author, the assignee or a reporter and above.
 */
export async function updateIssue(subject: ProjectSubject, user: User, iid: number, input: IssueInput): Promise<Issue> {
  // Checked before anything is written (labels may be created below).
  const first = await findIssueOrNotFound(subject, user, iid);
  if (!canUpdateIssue(user, subject, first)) throw new ForbiddenError();
  validate({
    title: input.title === undefined ? first.title : input.title.trim(),
    description: input.description === undefined ? first.description : input.description,
  });
  const updatedAt =
    input.updatedAt !== undefined && can(user, 'set_issue_timestamps', subject) ? isoTimestamp(input.updatedAt, 'updated_at') : undefined;
  const relations: Relations = can(user, 'admin_issue', subject) ? await resolveRelations(subject, input) : {};
  for (let attempt = 1; ; attempt++) {
    const current = attempt === 1 ? first : await findIssueOrNotFound(subject, user, iid);
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
      updatedAt: updatedAt ?? now,
    };
    validate(next);
    const stateEvent = state === current.state ? undefined : state === 'closed' ? 'closed' : 'reopened';
    const notes = systemNotesFor(await summarize(current, next));
    const hook = { action: stateEvent === 'closed' ? 'close' : stateEvent === 'reopened' ? 'reopen' : 'update', previous: current } as const;
    const result = await replaceIssue(current, next, await issueSideEffects(next, user, { event: stateEvent, notes, hook }));
    if (result === 'project_gone') throw new NotFoundError('Project');
    if (result !== 'issue_changed') return result;
    if (attempt >= MAX_ATTEMPTS) throw new ConflictError('The issue was modified by another request; try again');
  }
}

/**
 * Soft-deletes an issue (owners and admins): it leaves every read and list, keeps its iid, and an
 * open issue leaves `open_issues_count` (and its labels' counts) in the same transaction.
 */
export async function deleteIssue(subject: ProjectSubject, user: User, iid: number): Promise<void> {
  for (let attempt = 1; ; attempt++) {
    const current = await findIssueOrNotFound(subject, user, iid);
    if (!can(user, 'destroy_issue', subject)) throw new ForbiddenError();
    const now = new Date().toISOString();
    const result = await replaceIssue(current, { ...current, deletedAt: now, updatedAt: now });
    if (result === 'project_gone') throw new NotFoundError('Project');
    if (result !== 'issue_changed') return;
    if (attempt >= MAX_ATTEMPTS) throw new ConflictError('The issue was modified by another request; try again');
  }
}

/**
 * Moves an issue to another project (GitLab's `Issues::MoveService`): a new issue in `target`
 * with a new iid and the original's title, description, confidentiality, due date, author,
 * creation time and time tracking; the assignee when they can read the target; the labels of the
 * same names that exist in the target (none are created) and the milestone of the same title
 * there. The notes are copied (authors and times kept). Then, in one transaction, the new issue
 * appears with a `moved from` note, the original is closed with a `moved to` note, and both
 * projects' and labels' counts change; a concurrent change to the original (an edit, a comment)
 * makes the move start over, so no comment is left behind.
 *
 * @throws NotFoundError `Issue` when the caller cannot read it; BadRequestError with GitLab's
 *   messages when `target` is the source, or the caller lacks `admin_issue` on the source or
 *   `create_issue` on the target.
 * @example
 * const moved = await moveIssue(source, user, 3, target); // moved.projectId === target.project.id
 */
export async function moveIssue(source: ProjectSubject, user: User, iid: number, target: ProjectSubject): Promise<Issue> {
  for (let attempt = 1; ; attempt++) {
    const original = await findIssueOrNotFound(source, user, iid);
    if (target.project.id === source.project.id) throw new BadRequestError('Cannot move issue to project it originates from!');
    // GitLab's `can_move?`: an issue moved once stays where it was moved to.
    if (original.movedToId || !can(user, 'admin_issue', source) || !can(user, 'create_issue', target)) {
      throw new BadRequestError('Cannot move issue due to insufficient permissions!');
    }
    const [labelIds, milestoneId, assigneeIds, notes] = await Promise.all([
      mappedLabelIds(original, target.project.id),
      mappedMilestoneId(original, target.project.id),
      Promise.all(original.assigneeIds.map(async (id) => ((await canBeAssigned(id, target)) ? [id] : []))).then((ids) => ids.flat()),
      listIssueNotes(source.project.id, original.iid),
    ]);
    const [id, newIid] = await Promise.all([nextId('issues'), nextId(`issues#${target.project.id}`)]);
    const now = new Date().toISOString();
    const moved: Issue = {
      ...original,
      id,
      iid: newIid,
      projectId: target.project.id,
      state: 'opened',
      assigneeIds,
      milestoneId,
      labelIds,
      updatedAt: now,
      closedAt: null,
      deletedAt: null,
      movedToId: null,
      userNotesCount: notes.filter((note) => !note.system).length,
    } as Issue;
    const copies = (await nextIds('notes', notes.length)).map(
      (noteId, i): Note => ({ ...notes[i], id: noteId, projectId: moved.projectId, issueIid: moved.iid, issueId: moved.id }),
    );
    const closed: Issue = {
      ...original,
      state: 'closed',
      closedAt: original.state === 'closed' ? original.closedAt : now,
      updatedAt: now,
      movedToId: moved.id,
    };
    const extra = [
      ...(await issueSideEffects(moved, user, {
        event: 'opened',
        notes: [movedNote('from', pathOf(source), original.iid)],
        hook: { action: 'open', previous: null },
      })),
      ...(await issueSideEffects(closed, user, {
        event: original.state === 'closed' ? undefined : 'closed',
        notes: [movedNote('to', pathOf(target), moved.iid)],
        hook: { action: original.state === 'closed' ? 'update' : 'close', previous: original },
      })),
    ];
    // The copies are unreachable until the transaction below creates their issue; a failed
    // move takes them away again.
    await putNotes(copies);
    let result: Awaited<ReturnType<typeof writeIssues>>;
    try {
      result = await writeIssues([{ next: moved }, { previous: original, next: closed }], extra);
    } catch (error) {
      await removeNotes(copies);
      throw error;
    }
    if (typeof result !== 'string') return result[0];
    await removeNotes(copies);
    if (result === 'project_gone') throw new NotFoundError('Project');
    if (attempt >= MAX_ATTEMPTS) throw new ConflictError('The issue was modified by another request; try again');
  }
}

const pathOf = (subject: ProjectSubject) => `${subject.namespace.fullPath}/${subject.project.path}`;

/** Internal: the target's labels named like the issue's (case-insensitive); missing ones are dropped. */
async function mappedLabelIds(issue: Issue, targetProjectId: number): Promise<number[]> {
  const labels = await Promise.all(issue.labelIds.map((id) => getLabel(issue.projectId, id)));
  const found = await Promise.all(labels.map((label) => (label ? findLabelByName(targetProjectId, label.name) : undefined)));
  return [...new Set(found.flatMap((label) => (label ? [label.id] : [])))];
}

/** Internal: the target's milestone titled like the issue's, or `null`. */
async function mappedMilestoneId(issue: Issue, targetProjectId: number): Promise<number | null> {
  if (issue.milestoneId === null) return null;
  const milestone = await getMilestone(issue.projectId, issue.milestoneId);
  return milestone ? ((await findMilestoneByTitle(targetProjectId, milestone.title))?.id ?? null) : null;
}

/**
 * Internal: what an issue write changed that its system notes tell, with the names of the labels,
 * milestone and users involved (read only for the parts that changed).
 */
async function summarize(before: Issue, after: Issue): Promise<IssueChangeSummary> {
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
  if (after.dueDate !== before.dueDate) summary.dueDate = after.dueDate;
  if (after.confidential !== before.confidential) summary.confidential = after.confidential;
  if (after.state !== before.state) summary.state = after.state === 'closed' ? 'closed' : 'reopened';
  return summary;
}

/**
 * The operations an issue write carries in its transaction: its feed event (a confidential
 * issue's is restricted to its author, assignee and the actor), its system notes, and its webhook
 * event (`hook`: GitLab's issue hook action; the previous issue for `changes`).
 */
export async function issueSideEffects(
  issue: Issue,
  user: User,
  effects: { event?: 'opened' | 'closed' | 'reopened'; notes?: string[]; hook?: { action: HookIssueAction; previous: Issue | null } },
): Promise<TransactItem[]> {
  const operations: TransactItem[] = [];
  if (effects.hook) {
    const { put } = await prepareHookEvent({ projectId: issue.projectId, actorId: user.id, kind: 'issue', issue, ...effects.hook });
    operations.push(put);
  }
  if (effects.event) {
    const event: NewEvent = {
      projectId: issue.projectId,
      authorId: user.id,
      actionName: effects.event,
      targetId: issue.id,
      targetType: 'Issue',
      targetTitle: issue.title,
      restrictedTo: issue.confidential ? [...new Set([issue.authorId, ...issue.assigneeIds, user.id])] : null,
    };
    operations.push((await prepareEvent(event)).put);
  }
  const bodies = effects.notes ?? [];
  const ids = await nextIds('notes', bodies.length);
  const at = new Date().toISOString();
  for (const [i, body] of bodies.entries()) {
    const note: Note = { id: ids[i], projectId: issue.projectId, issueIid: issue.iid, issueId: issue.id, body, authorId: user.id, system: true, createdAt: at, updatedAt: at };
    operations.push(notePut(note));
  }
  return operations;
}

// ---------------------------------------------------------------------------------------------
// Lists

export interface IssueFilters {
  state?: IssueState | 'all';
  /** All must be on the issue; `No Label`/`None`: issues without labels; `Any`: with some. */
  labels?: string[];
  /** A milestone title; `No Milestone`/`None`: without one; `Any`: with one. */
  milestone?: string;
  iids?: number[];
  /** Case-insensitive substring of the title or the description. */
  search?: string;
}

const NONE = new Set(['no label', 'no milestone', 'none']);

/**
 * Internal: a predicate for the filters that are checked after the read, with the project's
 * label names and milestone title resolved once (an unknown name matches nothing). "No label" and
 * "any label" (and the same for milestones) count only labels and milestones that still exist:
 * deleting one does not rewrite its issues, so an issue may still hold its id.
 */
async function matcherFor(projectId: number, filters: IssueFilters): Promise<(issue: Issue) => boolean> {
  const checks: Array<(issue: Issue) => boolean> = [];
  if (filters.state && filters.state !== 'all') checks.push((issue) => issue.state === filters.state);
  const labels = filters.labels ?? [];
  const none = labels.some((name) => NONE.has(name.toLowerCase()));
  if (none || (labels.length === 1 && labels[0].toLowerCase() === 'any')) {
    const live = new Set((await listLabels(projectId)).map((label) => label.id));
    const labelled = (issue: Issue) => issue.labelIds.some((id) => live.has(id));
    checks.push(none ? (issue) => !labelled(issue) : labelled);
  } else if (labels.length > 0) {
    const found = await Promise.all(labels.map((name) => findLabelByName(projectId, name)));
    if (found.some((label) => !label)) return () => false;
    checks.push((issue) => found.every((label) => issue.labelIds.includes(label!.id)));
  }
  if (filters.milestone !== undefined) {
    const title = filters.milestone;
    if (NONE.has(title.toLowerCase()) || title.toLowerCase() === 'any') {
      const live = new Set((await listMilestones(projectId)).map((milestone) => milestone.id));
      const wanted = title.toLowerCase() === 'any';
      checks.push((issue) => (issue.milestoneId !== null && live.has(issue.milestoneId)) === wanted);
    } else {
      const milestone = await findMilestoneByTitle(projectId, title);
      if (!milestone) return () => false;
      checks.push((issue) => issue.milestoneId === milestone.id);
    }
  }
  if (filters.iids && filters.iids.length > 0) {
    const iids = new Set(filters.iids);
    checks.push((issue) => iids.has(issue.iid));
  }
  const search = filters.search?.toLowerCase();
  if (search) {
    checks.push((issue) => issue.title.toLowerCase().includes(search) || (issue.description ?? '').toLowerCase().includes(search));
  }
  return (issue) => checks.every((check) => check(issue));
}

/** The order of an issue list: the index read (`created_at` or `updated_at`) and its direction. */
export type IssueOrder = { orderBy: IssueOrderBy; ascending: boolean };

/** The state partitions that a `state` filter reads. */
const statesOf = (state: IssueFilters['state']): IssueState[] => (state === 'opened' || state === 'closed' ? [state] : ['opened', 'closed']);

/**
 * A project's issues visible to `user` matching `filters`, in `order`: one Query per state on the
 * index of that order (GSI1 by creation, GSI4 by update; `all` merges the two states by sort
 * key), so a page costs what it reads, not the project's size. Labels, milestone, iids, search
 * and confidentiality are checked after the read. Cursors are the sort key of the last entry.
 */
export async function projectIssueStream(
  subject: ProjectSubject,
  user: User | null,
  filters: IssueFilters,
  order: IssueOrder,
): Promise<StreamSource<Issue>> {
  const matches = await matcherFor(subject.project.id, filters);
  const colls = statesOf(filters.state).map((state) => issueCollections.projectIssues(subject.project.id, state, order.orderBy));
  return mergedStream(colls, order.ascending, (issue) => (matches(issue) && canReadIssue(user, subject, issue) ? issue : undefined));
}

const CURSOR = /^\d{4}-\d{2}-\d{2}T[\d:.]+Z#\d{12}$/;

/** Internal: several collections sharing one sort-key format, merged in sort-key order. */
function mergedStream<T>(colls: Collection[], ascending: boolean, select: (issue: Issue) => T | undefined): StreamSource<T> {
  return {
    async *read(after, hint) {
      let key: string | undefined;
      if (after !== undefined) {
        try {
          key = JSON.parse(Buffer.from(after, 'base64url').toString('utf8')).k;
        } catch {
          key = undefined;
        }
        if (typeof key !== 'string' || !CURSOR.test(key)) throw new ParamError('cursor is invalid');
      }
      const sortKeyOf = (item: Item) => item[colls[0].sortAttribute] as string;
      const iterators = colls.map((c) =>
        queryCollection(key === undefined ? c : { ...c, ...(ascending ? { from: key } : { below: key }) }, { ascending, pageSize: hint })[
          Symbol.asyncIterator
        ](),
      );
      const heads = await Promise.all(iterators.map((it) => it.next()));
      for (;;) {
        let best = -1;
        for (let i = 0; i < heads.length; i++) {
          if (heads[i].done) continue;
          if (best < 0) best = i;
          else {
            const cmp = sortKeyOf(heads[i].value).localeCompare(sortKeyOf(heads[best].value));
            if (ascending ? cmp < 0 : cmp > 0) best = i;
          }
        }
        if (best < 0) return;
        const item = heads[best].value as Item;
        heads[best] = await iterators[best].next();
        const sortKey = sortKeyOf(item);
        if (sortKey === key) continue; // `from` is inclusive
        yield { value: select(issueFromItem(item)), cursor: () => Buffer.from(JSON.stringify({ k: sortKey })).toString('base64url') };
      }
    },
  };
}

/** Largest number of projects (the group's and its subgroups') a group issue list merges. */
const GROUP_PROJECT_LIMIT = () => Number(process.env.GROUP_ISSUES_PROJECT_LIMIT ?? 100);

/**
 * `GET /groups/:id/issues`: the issues of the projects of `group` and of its subgroups whose
 * issues `user` may read, in `order`. The group tree is walked on the subgroup
 * index (one Query per group), its projects read from the namespace index (one Query per group)
 * and loaded in batches; then the state partitions (GSI1 or GSI4) of every readable project are merged by
 * sort key, so the first page costs one Query per project and state. More than
 * `GROUP_ISSUES_PROJECT_LIMIT` (default 100) projects is refused with 400 rather than merged.
 *
 * @returns the stream and the projects' subjects (for `path_with_namespace` in the response).
 */
export async function groupIssueStream(
  group: Namespace,
  user: User | null,
  filters: IssueFilters,
  order: IssueOrder,
): Promise<{ stream: StreamSource<Issue>; subjects: Map<number, ProjectSubject> }> {
  const projectIds = await groupProjectIds(group);
  const all = await projectSubjects(user, projectIds);
  const subjects = new Map([...all].filter(([, subject]) => !subject.namespace.deleting && can(user, 'read_issue', subject)));
  const matchers = new Map(await Promise.all([...subjects.keys()].map(async (id) => [id, await matcherFor(id, filters)] as const)));
  const colls = [...subjects.keys()].flatMap((id) => statesOf(filters.state).map((state) => issueCollections.projectIssues(id, state, order.orderBy)));
  const select = (issue: Issue) =>
    matchers.get(issue.projectId)!(issue) && canReadIssue(user, subjects.get(issue.projectId)!, issue) ? issue : undefined;
  const stream: StreamSource<Issue> = colls.length > 0 ? mergedStream(colls, order.ascending, select) : { async *read() {} };
  return { stream, subjects };
}

/** Internal: the ids of the projects of a group and its live subgroups, bounded. */
async function groupProjectIds(group: Namespace): Promise<number[]> {
  const ids: number[] = [];
  const queue = [group];
  const seen = new Set([group.id]);
  for (let current = queue.shift(); current; current = queue.shift()) {
    for await (const item of queryCollection(projectCollections.namespaceProjects(current.id))) {
      ids.push(Number(item.id));
      if (ids.length > GROUP_PROJECT_LIMIT()) {
        throw new ParamError(`the group has more than ${GROUP_PROJECT_LIMIT()} projects; list the issues of its projects or subgroups instead`);
      }
    }
    if (!current.subgroupCount) continue;
    for await (const item of queryCollection(namespaceCollections.subgroups(current.id))) {
      const child = namespaceFromItem(item);
      if (child.deleting || seen.has(child.id)) continue;
      seen.add(child.id);
      queue.push(child);
    }
  }
  return ids;
}

export type UserIssueScope = 'created_by_me' | 'assigned_to_me';

/**
 * `GET /issues`: the issues `user` opened (GSI2, or GSI5 by update) or is assigned (GSI3, or GSI6),
 * in `order`. Each chunk is checked with one batch read of the projects involved
 * (the caller must still be able to read the project and the issue); the state and the other
 * filters are checked after the read.
 */
export function userIssueStream(user: User, scope: UserIssueScope, filters: IssueFilters, order: IssueOrder): StreamSource<Issue> {
  const matchers = new Map<number, Promise<(issue: Issue) => boolean>>();
  const matcher = (projectId: number) => {
    if (!matchers.has(projectId)) matchers.set(projectId, matcherFor(projectId, filters));
    return matchers.get(projectId)!;
  };
  return filteredCollection<Issue>({
    collection: scope === 'created_by_me' ? issueCollections.userIssues(user.id, order.orderBy) : issueCollections.assignedIssues(user.id, order.orderBy),
    ascending: order.ascending,
    select: issueFromItem,
    keep: async (issues) => {
      const subjects = await projectSubjects(user, [...new Set(issues.map((issue) => issue.projectId))]);
      return Promise.all(
        issues.map(async (issue) => {
          const subject = subjects.get(issue.projectId);
          return subject !== undefined && canReadIssue(user, subject, issue) && (await matcher(issue.projectId))(issue);
        }),
      );
    },
  });
}

/** The subjects of the given projects for `user` (two batch reads and one for the memberships). */
export async function projectSubjects(user: User | null, projectIds: number[]): Promise<Map<number, ProjectSubject>> {
  const projects: Project[] = (await getMany(projectIds.map((id) => projectKeys.project(id)))).map(projectFromItem).filter((p) => !p.deleting);
  const namespaceItems = byKey(await getMany([...new Set(projects.map((p) => p.namespaceId))].map((id) => namespaceKeys.namespace(id))));
  const entries = projects.flatMap((project) => {
    const item = namespaceItems(namespaceKeys.namespace(project.namespaceId));
    return item ? [{ project, namespace: namespaceFromItem(item) }] : [];
  });
  const access = await projectAccessForMany(user, entries);
  return new Map(entries.map((entry, i) => [entry.project.id, { kind: 'project' as const, ...entry, access: access[i] }]));
}
