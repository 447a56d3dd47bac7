/**
 * What a merge request write carries in its transaction besides the merge request: the feed event
 * (`opened`, `closed`, `reopened`, `approved`, and `accepted`: GitLab's `action_name` of a merged
 * merge request), the system notes, the Merge Request Hook event and the resource events of what
 * it changed in labels, milestone and state (the issues feature's, as an issue's), and the todos
 * of a new assignee (`assigned`) and a new reviewer (`review_requested`), each an item built by
 * its own store.
 */
import { prepareHookEvent } from '../../hooks';
import type { TransactItem } from '../../platform/dynamo/transactions';
import { prepareEvent, type Project } from '../../projects';
import type { User } from '../../users';
import { mergeRequestNoteable, mergeRequestSystemNotes, requestTodoItems, resourceEventPuts, type ResourceTarget, type TodoRequest } from '../issuables';
import type { MergeRequest } from '../store/merge-requests';
import type { VersionCommit } from '../store/versions';
// Registers how the feature's hook events are stored: every process writing them loads it (an
// import of types alone is dropped when compiled, so the module is imported for its effect too).
import '../webhooks/events';
// eslint-disable-next-line no-duplicate-imports -- the statement above is kept for its effect, this one is erased
import type { HookLastCommit, MergeRequestHookAction } from '../webhooks/events';

export type FeedAction = 'opened' | 'closed' | 'reopened' | 'accepted' | 'approved';

export interface MergeRequestEffects {
  hook?: TransactItem;
  event?: TransactItem;
  notes?: TransactItem[];
  resourceEvents?: TransactItem[];
  todos?: TransactItem[];
}

/** Internal: a merge request as the resource events see it. */
const resourceTarget = (mr: MergeRequest): ResourceTarget => ({ ...mr, type: 'MergeRequest' });

/** The payload's `last_commit` from a version's newest commit. */
export function lastCommitOf(commits: VersionCommit[] | undefined): HookLastCommit | null {
  const newest = commits?.[0];
  if (!newest) return null;
  return {
    id: newest.id,
    message: String(newest.message),
    timestamp: String(newest.committed_date ?? newest.created_at ?? ''),
    author: { name: String(newest.author_name ?? ''), email: String(newest.author_email ?? '') },
  };
}

/**
 * The effects of a merge request write by `user` in `project` (the target). With a hook (every
 * change of the merge request itself), the resource events of the change from the hook's
 * `previous` (none: a new merge request) and the todos of a new assignee and reviewer. Each
 * effect takes its own ids, asked for at once.
 */
export async function mergeRequestEffects(
  mr: MergeRequest,
  user: User,
  project: Pick<Project, 'visibility'>,
  effects: { event?: FeedAction; notes?: string[]; hook?: { action: MergeRequestHookAction; previous: MergeRequest | null; lastCommit: HookLastCommit | null } },
): Promise<MergeRequestEffects> {
  const { hook, event, notes } = effects;
  // A new assignee gets an `assigned` todo, a new reviewer a `review_requested` one.
  const previous = hook?.previous;
  const requests: TodoRequest[] = !hook
    ? []
    : [
        ...(mr.assigneeId && mr.assigneeId !== previous?.assigneeId ? [{ userId: mr.assigneeId, action: 'assigned' as const }] : []),
        ...(mr.reviewer && mr.reviewer.userId !== previous?.reviewer?.userId ? [{ userId: mr.reviewer.userId, action: 'review_requested' as const }] : []),
      ];
  const [hookEvent, feedEvent, notePuts, resourceEvents, todos] = await Promise.all([
    hook && prepareHookEvent({ projectId: mr.projectId, actorId: user.id, kind: 'merge_request', mergeRequest: mr, ...hook }),
    event && prepareEvent({ projectId: mr.projectId, authorId: user.id, actionName: event, targetId: mr.id, targetType: 'MergeRequest', targetTitle: mr.title }),
    notes && notes.length > 0 ? mergeRequestSystemNotes(mr, user, notes) : undefined,
    hook && resourceEventPuts(hook.previous ? resourceTarget(hook.previous) : undefined, resourceTarget(mr), { userId: user.id }),
    requestTodoItems(mergeRequestNoteable(mr), requests, user.id, { created: hook?.previous === null }),
  ]);
  return {
    ...(hookEvent ? { hook: hookEvent.put } : {}),
    ...(feedEvent ? { event: feedEvent.put } : {}),
    ...(notePuts ? { notes: notePuts } : {}),
    ...(resourceEvents && resourceEvents.length > 0 ? { resourceEvents } : {}),
    ...(todos && todos.length > 0 ? { todos } : {}),
  };
}
