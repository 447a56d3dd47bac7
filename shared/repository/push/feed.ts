/**
 * The contribution events of a push (GitLab's `EventCreateService#push` / `#bulk_push`), as the
 * projects feature's feeds hold them: `action_name` `pushed new` (a ref created), `pushed to`
 * (updated) or `deleted`, no target, and `data` the push data. The projects feature's event
 * presenter shows GitLab's `push_data` from it.
 *
 * - One ref: `data` is the spec's push data, `{before, after, ref, user_id, user_name, repository,
 *   commits, total_commits_count}`, where `commits` holds only the newest commit (GitLab builds an
 *   event's push data from the last commit alone).
 * - A bulk push (more than three refs of one kind created, updated or deleted at once, GitLab's
 *   `push_event_activities_limit`): one event whose `data` is `{action, ref_count, ref_type}`
 *   (`Gitlab::DataBuilder::Push.build_bulk`).
 */
import { projectHookAttrs, repositoryHookAttrs } from '../../hooks';
import type { Namespace } from '../../namespaces';
import type { NewEvent, Project } from '../../projects';
import type { User } from '../../users';
import type { CommitAttributes } from './commits';
import { commitUrl } from './webhooks/payloads';
import type { PushAction } from './webhooks/events';

/** GitLab's `action_name` of a push event, by what the push did to the ref. */
export const PUSH_ACTION_NAMES: Record<PushAction, string> = { created: 'pushed new', pushed: 'pushed to', removed: 'deleted' };

/** A message longer than this is cut in an event's data (an item holds 400 KB). */
const MAX_EVENT_MESSAGE = 65_536;

export interface PushEventInput {
  project: Project;
  namespace: Namespace;
  user: User;
  action: PushAction;
  ref: string;
  before: string;
  after: string;
  /** The newest commit, or none (a deletion, or a ref created at an existing commit). */
  newest: CommitAttributes | undefined;
  totalCommitsCount: number;
}

/**
 * The event of one ref's push.
 *
 * @example
 * await recordEvent(pushEvent({ project, namespace, user, action: 'pushed', ref: 'refs/heads/main', before, after, newest, totalCommitsCount: 1 }));
 */
export function pushEvent(input: PushEventInput): NewEvent {
  const { project, namespace, user, newest } = input;
  const attrs = projectHookAttrs(project, namespace);
  return {
    projectId: project.id,
    authorId: user.id,
    actionName: PUSH_ACTION_NAMES[input.action],
    data: {
      before: input.before,
      after: input.after,
      ref: input.ref,
      user_id: user.id,
      user_name: user.name,
      // `{name, url, description, homepage}`, `url` being the SSH address.
      repository: repositoryHookAttrs(attrs),
      commits: newest
        ? [
            {
              id: newest.id,
              message: newest.message.length > MAX_EVENT_MESSAGE ? newest.message.slice(0, MAX_EVENT_MESSAGE) : newest.message,
              timestamp: newest.timestamp,
              url: commitUrl(attrs.web_url, newest.id),
              author: { name: newest.author.name, email: newest.author.email },
            },
          ]
        : [],
      total_commits_count: input.totalCommitsCount,
    },
  };
}

/** The one event of a bulk push: `refCount` refs of `refType` created, updated or deleted. */
export function bulkPushEvent(project: Project, user: User, action: PushAction, refType: 'branch' | 'tag', refCount: number): NewEvent {
  return {
    projectId: project.id,
    authorId: user.id,
    actionName: PUSH_ACTION_NAMES[action],
    data: { action, ref_count: refCount, ref_type: refType },
  };
}
