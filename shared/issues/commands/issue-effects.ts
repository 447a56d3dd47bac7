/**
 * What an issue write and a comment carry in their transactions besides the issue and the note
 * (GitLab runs these as callbacks of the same change): the feed event, the system notes, the
 * webhook event, the `assigned` todos of its new assignees and the todos of the users a new or
 * edited title and description mention, each an item built by its own store (`prepareEvent`,
 * `notePut`, `prepareHookEvent`, `newTodoPuts`),
 * so they exist exactly when the change does.
 */
import type { ProjectSubject } from '../../auth';
import { prepareHookEvent, type HookEventOf } from '../../hooks';
import type { TransactItem } from '../../platform/dynamo/transactions';
import { prepareEvent, type NewEvent } from '../../projects';
import type { User } from '../../users';
import { issueNoteable, type Issue, type IssueEffects } from '../store/issues';
import { countChanges } from '../store/issue-index';
import type { Note } from '../store/notes';
import { issueTarget, resourceEventPuts, type ResourceEventActor } from '../store/resource-events';
import { commentEvent, systemNotePuts } from './note-effects';
import { issueMentionTarget, issueMentionText, mentionTodoItems } from './mention-todos';
import { requestTodoItems } from './request-todos';
// Registers how `issue` and `note` hook events are stored: every process writing them loads it.
import '../webhooks/events';

/** GitLab's issue hook actions. */
type HookIssueAction = HookEventOf<'issue'>['action'];

/**
 * Internal: who may see the feed event of a change to `issue` besides reporters and up: for a
 * confidential issue its author, assignees and the actor; `null` (everyone who reads the project)
 * otherwise.
 */
const eventAudience = (issue: Issue, user: User): number[] | null =>
  issue.confidential ? [...new Set([issue.authorId, ...issue.assigneeIds, user.id])] : null;

/**
 * The effects of an issue write: its feed event (`event`), its system notes (`notes`, bodies in
 * GitLab's wording), its webhook event (`hook`: GitLab's issue hook action; the previous
 * issue for `changes`), and its actor, for the resource events the write records.
 */
export async function issueSideEffects(
  issue: Issue,
  user: User,
  effects: {
    event?: 'opened' | 'closed' | 'reopened';
    notes?: string[];
    hook?: { action: HookIssueAction; previous: Issue | null };
    /** What caused a state change (the merge request merged), for its resource state event. */
    stateSource?: Omit<ResourceEventActor, 'userId'>;
    /**
     * The project as `user` sees it: given (an issue opened or edited by a user), its new
     * assignees get `assigned` todos, and a new issue's title and description, or an edited
     * one's when they changed, give todos to the users they newly mention ({@link mentionTodos}).
     */
    subject?: ProjectSubject;
  },
): Promise<IssueEffects> {
  const actor: ResourceEventActor = { userId: user.id, ...effects.stateSource };
  // Each effect takes its own id: asked for at once (one counter write). The resource events of
  // the write are known once the issue before it is (the hook's `previous`).
  // New assignees get an `assigned` todo (before mention todos: one pending todo per user and issue).
  const previous = effects.hook?.previous ?? null;
  const assigned = effects.subject && effects.hook ? issue.assigneeIds.filter((id) => !previous?.assigneeIds.includes(id)) : [];
  const [hook, event, notes, resourceEvents, assignedTodos] = await Promise.all([
    effects.hook && prepareHookEvent({ projectId: issue.projectId, actorId: user.id, kind: 'issue', issue, ...effects.hook }),
    effects.event &&
      prepareEvent({
        projectId: issue.projectId,
        authorId: user.id,
        actionName: effects.event,
        targetId: issue.id,
        targetType: 'Issue',
        targetTitle: issue.title,
        restrictedTo: eventAudience(issue, user),
      } satisfies NewEvent),
    systemNotePuts(issueNoteable(issue), user, effects.notes ?? []),
    effects.hook && resourceEventPuts(effects.hook.previous ? issueTarget(effects.hook.previous) : undefined, issueTarget(issue), actor),
    requestTodoItems(issueNoteable(issue), assigned.map((userId) => ({ userId, action: 'assigned' as const })), user.id, { created: effects.hook?.action === 'open' }),
  ]);
  // The mention todos fill what room the write leaves in its transaction (no read without an `@`).
  const used = notes.length + (resourceEvents ? resourceEvents.length : 0) + assignedTodos.length;
  const mentioned = effects.subject ? await mentionTodos(effects.subject, issue, user, previous, used, assigned) : [];
  const todos = [...assignedTodos, ...mentioned];
  // The write records the resource events of what it changes, by `user` (`store/resource-events.ts`).
  return {
    ...(hook ? { hook: hook.put } : {}),
    ...(event ? { event: event.put } : {}),
    notes,
    actor,
    ...(resourceEvents ? { resourceEvents } : {}),
    ...(todos && todos.length > 0 ? { todos } : {}),
  };
}

/** DynamoDB's cap on the operations of one transaction. */
const MAX_TRANSACTION_OPERATIONS = 100;

/**
 * Internal: the todos of the users a new issue's title and description mention, or those an edit
 * of them newly mentions (GitLab's `update_issue` with the previously mentioned users skipped);
 * none when neither changed, and none for its new assignees (they got theirs). At most as many as
 * the issue write leaves room for in its transaction: the project, the issue, its list and label
 * counts, the hook, the event, the notes, resource events and assignment todos (`effectCount`).
 */
async function mentionTodos(subject: ProjectSubject, issue: Issue, user: User, previous: Issue | null, effectCount: number, assigned: number[]): Promise<TransactItem[]> {
  const text = issueMentionText(issue);
  const before = previous ? issueMentionText(previous) : undefined;
  if (before === text) return [];
  // The assignees' counts of open issues (`store/user-counts.ts`), at most one operation each.
  const assigneeCounts = new Set([...issue.assigneeIds, ...(previous?.assigneeIds ?? [])]).size;
  const room = MAX_TRANSACTION_OPERATIONS - (4 + effectCount + assigneeCounts + countChanges(previous ?? undefined, issue).size);
  const source = { text, before, authorId: user.id, createdAt: new Date().toISOString(), skipUserIds: assigned };
  // Two operations per todo: its Put and its user's pending count.
  return mentionTodoItems(issueMentionTarget(subject, issue), source, Math.floor(room / 2));
}

/**
 * The effects of a comment (`note`, by `user`, at `now`): the `commented on` feed event, whose
 * note is stored as data (presented with the event's author when the feed is read), and the
 * note's webhook event with the issue as commented on (a comment touches `updated_at`).
 */
export async function commentEffects(issue: Issue, note: Note, user: User, now: string): Promise<Pick<IssueEffects, 'event' | 'hook'>> {
  // Asked for at once: their ids come from one counter write.
  const [event, hook] = await Promise.all([
    commentEvent(issueNoteable(issue), note, user, { title: issue.title, restrictedTo: eventAudience(issue, user) }),
    prepareHookEvent({ projectId: issue.projectId, actorId: user.id, kind: 'note', action: 'create', note, issue: { ...issue, updatedAt: now } }),
  ]);
  return { event, hook: hook.put };
}
