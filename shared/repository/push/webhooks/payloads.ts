/**
 * Push Hook and Tag Push Hook payloads, in GitLab's form (doc/user/project/integrations/webhook_events.md,
 * "Push events" and "Tag events"; `Gitlab::DataBuilder::Push.build`, `Commit#hook_attrs`). Pure
 * functions of the stored event and the delivery context: the project and the pusher as they are
 * at delivery, the push as it was.
 *
 * Choices where GitLab's documentation is not one thing:
 * - `message` (a tag's message, `null` for branches) and `push_options` (`{}`: push options are not
 *   taken) are sent, as `Gitlab::DataBuilder::Push` does, though the examples leave them out.
 * - `user_email` is `"[REDACTED]"` and `user_avatar` the pusher's avatar URL (`null` without
 *   one), as for every user in payloads here (`userHookAttrs`, `hooks/presenters/webhooks.ts`).
 * - `repository` is the deprecated slice of `project` the push builder sends (seven fields: the
 *   other payloads' four, and `git_http_url`, `git_ssh_url`, `visibility_level`).
 */
import { gitRepositoryHookAttrs, projectHookAttrs, userHookAttrs, type HookDeliveryContext } from '../../../hooks';
import type { PushCommit } from '../commits';
import type { PushHookEvent } from './events';

/** A commit's `url`: `<project web_url>/-/commit/<id>`. */
export const commitUrl = (projectWebUrl: string, id: string) => `${projectWebUrl}/-/commit/${id}`;

/** `Commit#hook_attrs(with_changed_files: true)`. */
export function commitHookAttrs(commit: PushCommit, projectWebUrl: string) {
  return {
    id: commit.id,
    message: commit.message,
    title: commit.title,
    timestamp: commit.timestamp,
    url: commitUrl(projectWebUrl, commit.id),
    author: { name: commit.author.name, email: commit.author.email },
    added: commit.added,
    modified: commit.modified,
    removed: commit.removed,
  };
}

/**
 * The payload of a `push` or `tag_push` event (`object_kind` is the event's kind).
 *
 * @example
 * const body = JSON.stringify(pushHookPayload(ctx, event)); // { object_kind: 'push', before, after, ref, ... }
 */
export function pushHookPayload(ctx: HookDeliveryContext, event: PushHookEvent): Record<string, unknown> {
  const project = projectHookAttrs(ctx.project, ctx.namespace);
  const pusher = userHookAttrs(ctx.actor);
  return {
    object_kind: event.kind,
    event_name: event.kind,
    before: event.before,
    after: event.after,
    ref: event.ref,
    ref_protected: event.refProtected,
    checkout_sha: event.checkoutSha,
    message: event.message,
    user_id: pusher.id,
    user_name: pusher.name,
    user_username: pusher.username,
    user_email: pusher.email,
    user_avatar: pusher.avatar_url,
    project_id: ctx.project.id,
    project,
    commits: event.commits.map((commit) => commitHookAttrs(commit, project.web_url)),
    total_commits_count: event.totalCommitsCount,
    push_options: {},
    repository: gitRepositoryHookAttrs(project),
  };
}
