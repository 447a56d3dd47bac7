/**
 * Moving an issue to another project (GitLab's `Issues::MoveService`), with its notes.
 */
import { can, type ProjectSubject } from '../../auth';
import { nextId, nextIds } from '../../platform/dynamo/counters';
import { sharedSequences } from '../../platform/dynamo/sequences';
import { BadRequestError, NotFoundError } from '../../platform/http/errors';
import { projectFullPath } from '../../projects';
import type { User } from '../../users';
import { findIssueOrNotFound } from '../queries/issues';
import { writeIssues, type Issue } from '../store/issues';
import { findLabelByName, getLabel } from '../store/labels';
import { findMilestoneByTitle, getMilestone } from '../store/milestones';
import { listIssueNotes, putNotes, removeNotes, type IssueNote } from '../store/notes';
import { copyResourceEvents, removeResourceEventCopies, type RecordedEvent, type ResourceEventKind } from '../store/resource-events';
import { movedNote } from '../system-notes';
import { resolveProjectMilestoneId } from './group-milestones';
import { issueSideEffects } from './issue-effects';
import { canBeAssigned, ISSUE_RETRIES } from './issues';
import { AGAIN, retried } from './retry';

/**
 * Moves an issue (as found by the caller in `source`) to `target`: a new issue there with a new
 * iid and the original's title, description, confidentiality, due date, author, creation time and
 * time tracking; the assignee when they can read the target; the labels of the same names that
 * exist in the target (none are created) and the milestone of the same title there. The notes are
 * copied (authors and times kept), and so are its resource events (GitLab's
 * `CopyResourceEventsService`: label events keep their label, milestone events take the target's
 * milestone of the same title or are dropped, a `remove` keeps no milestone, state events as they
 * were); the new issue records no events of its own creation (GitLab creates it with
 * `skip_system_notes`). Then, in one transaction, the new issue appears with a `moved
 * from` note, the original is closed with a `moved to` note, and both projects' and labels' counts
 * change; a concurrent change to the original (an edit, a comment) makes the move start over, so
 * no comment is left behind.
 *
 * GitLab refuses a move it cannot make with 400 and its messages (its service checks
 * `can_move?`, which needs the issue loaded): when `target` is the source, when the issue was
 * moved already, or when the caller lacks `admin_issue` on the source or `create_issue` on the
 * target.
 *
 * @throws BadRequestError as above; NotFoundError `Issue` when the caller can no longer read it.
 * @example
 * const moved = await moveIssue(source, user, issue, target); // moved.projectId === target.project.id
 */
export async function moveIssue(source: ProjectSubject, user: User, issue: Issue, target: ProjectSubject): Promise<Issue> {
  const reread = () => findIssueOrNotFound(source, user, issue.iid);
  return retried(issue, reread, async (original) => {
    if (target.project.id === source.project.id) throw new BadRequestError('Cannot move issue to project it originates from!');
    // GitLab's `can_move?`: an issue moved once stays where it was moved to.
    if (original.movedToId || !can(user, 'admin_issue', source) || !can(user, 'create_issue', target)) {
      throw new BadRequestError('Cannot move issue due to insufficient permissions!');
    }
    const [labelIds, milestoneId, assigneeIds, notes] = await Promise.all([
      mappedLabelIds(original, target.project.id),
      mappedMilestoneId(original, target),
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
      closedById: null,
      deletedAt: null,
      movedToId: null,
      userNotesCount: notes.filter((note) => !note.system).length,
    } as Issue;
    const ids = await nextIds(sharedSequences.notes, notes.length);
    // A reply names its discussion's first note: the copy names that note's copy.
    const copyOf = new Map(notes.map((note, i) => [note.id, ids[i]]));
    const copies = notes.map(
      (note, i): IssueNote => ({
        ...note,
        id: ids[i],
        rootId: note.rootId === undefined ? undefined : (copyOf.get(note.rootId) ?? note.rootId),
        projectId: moved.projectId,
        issueIid: moved.iid,
        issueId: moved.id,
      }),
    );
    const closed: Issue = {
      ...original,
      state: 'closed',
      closedAt: original.state === 'closed' ? original.closedAt : now,
      closedById: original.state === 'closed' ? original.closedById : user.id,
      updatedAt: now,
      movedToId: moved.id,
    };
    // Its history is the original's, copied below, not events of its creation.
    const { actor: _created, resourceEvents: _createdEvents, ...movedEffects } = await issueSideEffects(moved, user, {
      event: 'opened',
      notes: [movedNote('from', projectFullPath(source.namespace, source.project), original.iid)],
      hook: { action: 'open', previous: null },
    });
    const closedEffects = await issueSideEffects(closed, user, {
      event: original.state === 'closed' ? undefined : 'closed',
      notes: [movedNote('to', projectFullPath(target.namespace, target.project), moved.iid)],
      hook: { action: original.state === 'closed' ? 'update' : 'close', previous: original },
    });
    // The copies are unreachable until the transaction below creates their issue; a failed
    // move takes them away again.
    await putNotes(copies);
    let eventCopies: Awaited<ReturnType<typeof copyResourceEvents>> = [];
    const cleanUp = () => Promise.all([removeNotes(copies), removeResourceEventCopies(eventCopies)]);
    let result: Awaited<ReturnType<typeof writeIssues>>;
    try {
      eventCopies = await copyResourceEvents(original, moved, eventMapper(original, target));
      result = await writeIssues([
        { next: moved, effects: movedEffects },
        { previous: original, next: closed, effects: closedEffects },
      ]);
    } catch (error) {
      await cleanUp();
      throw error;
    }
    if (typeof result !== 'string') return result[0];
    await cleanUp();
    if (result === 'project_gone') throw new NotFoundError('Project');
    return AGAIN;
  }, ISSUE_RETRIES);
}

/** Internal: the target's labels named like the issue's (case-insensitive); missing ones are dropped. */
async function mappedLabelIds(issue: Issue, targetProjectId: number): Promise<number[]> {
  const labels = await Promise.all(issue.labelIds.map((id) => getLabel(issue.projectId, id)));
  const found = await Promise.all(labels.map((label) => (label ? findLabelByName(targetProjectId, label.name) : undefined)));
  return [...new Set(found.flatMap((label) => (label ? [label.id] : [])))];
}

/**
 * Internal: the target's milestone titled like the issue's, or `null`; a group milestone stays
 * when the target can use it too (its group or an ancestor's, GitLab's `milestone_available?`).
 */
async function mappedMilestoneId(issue: Issue, target: ProjectSubject): Promise<number | null> {
  if (issue.milestoneId === null) return null;
  const milestone = await getMilestone(issue.projectId, issue.milestoneId);
  if (!milestone) return null;
  if (milestone.aliasOf) return (await resolveProjectMilestoneId(target, milestone.aliasOf.milestoneId)) ?? null;
  return (await findMilestoneByTitle(target.project.id, milestone.title))?.id ?? null;
}

/**
 * Internal: GitLab's copy of each resource event of `issue` for its move to `target`: a label
 * event keeps its label (in the source project); a milestone `add` takes the target's milestone
 * of the same title (or the group milestone the target can use) and is dropped when there is
 * none; a milestone `remove` keeps no milestone; a state event is kept as it was.
 */
function eventMapper(issue: Issue, target: ProjectSubject) {
  const milestones = new Map<number, Promise<number | null>>();
  const targetMilestone = (milestoneId: number) => {
    if (!milestones.has(milestoneId)) milestones.set(milestoneId, mappedMilestoneId({ ...issue, milestoneId }, target));
    return milestones.get(milestoneId)!;
  };
  return async (kind: ResourceEventKind, { id: _id, ...event }: RecordedEvent): Promise<Omit<RecordedEvent, 'id'> | undefined> => {
    if (kind === 'label') return { ...event, labelProjectId: event.labelProjectId ?? issue.projectId };
    if (kind !== 'milestone') return event;
    const { milestoneId, ...rest } = event;
    if (event.action === 'remove' || milestoneId === undefined) return rest;
    const mapped = await targetMilestone(milestoneId);
    return mapped === null ? undefined : { ...rest, milestoneId: mapped };
  };
}
