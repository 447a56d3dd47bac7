/**
 * Delivers one webhook event to the project's hooks that subscribe to its kind (GitLab's
 * `WebHookService`): issues to hooks with `issues_events`, notes to hooks with `note_events`, and
 * those of confidential issues only to hooks that opted in with `confidential_issues_events` /
 * `confidential_note_events` (as `Confidential Issue Hook` / `Confidential Note Hook`), so a hook
 * does not leak to its receiver what the project's guests may not read.
 * The payload is built from the event's snapshot plus the names (users, labels, milestones) read
 * now; each hook gets its own request, with its secret token unsealed only for that request.
 * *
 * A receiver that fails (status, timeout, refused address) is logged and not retried, as GitLab
 * does for a single delivery; errors reading the table are thrown, so the stream retries.
 */
import { createHash } from 'node:crypto';
import { getMany } from '../platform/dynamo/batch';
import type { HookEvent } from './store/hook-events';
import { listHooks, openHookToken, type ProjectHook } from './store/hooks';
import { userKeys, userFromItem, type User } from '../users';
import { listLabels, listMilestones } from '../issues';
import { getNamespace } from '../groups';
import { getProject } from '../projects';
import { logger } from '../platform/logger';
import { hookHeaders, issueHookPayload, noteHookPayload, type HookContext } from './presenters/webhooks';
import { sendHook, type HookDeliveryResult } from './send';

export interface DeliveryOptions {
  /** Whether hooks may target loopback and private addresses (local runtime only). */
  allowLocalNetwork: boolean;
}

/** What happened to each hook of the event, for logs and tests. */
export type DeliveryReport = Array<{ hookId: number; result: HookDeliveryResult }>;

/** Whether `hook` wants events of this kind (confidential ones only when it says so). */
function wants(hook: ProjectHook, event: HookEvent): boolean {
  const confidential = event.issue.confidential;
  if (event.kind === 'issue') return confidential ? hook.confidentialIssuesEvents === true : hook.issuesEvents;
  return confidential ? hook.confidentialNoteEvents === true : hook.noteEvents;
}

/**
 * Sends `event` to every hook of its project that wants it.
 *
 * @example
 * const report = await deliverHookEvent(hookEventFromImage(record.dynamodb.NewImage), { allowLocalNetwork: false });
 */
export async function deliverHookEvent(event: HookEvent, options: DeliveryOptions): Promise<DeliveryReport> {
  const hooks = (await listHooks(event.projectId)).filter((hook) => wants(hook, event));
  if (hooks.length === 0) return [];
  const context = await contextOf(event);
  if (!context) return []; // the project was deleted since
  const payload =
    event.kind === 'issue' ? issueHookPayload(context, event.issue, event.previous, event.action) : noteHookPayload(context, event.note, event.issue);
  const body = JSON.stringify(payload);
  // Stable across the stream's retries, so a receiver can drop a delivery it already took.
  const eventUuid = stableUuid(`hook-event:${event.projectId}:${event.id}`);
  return Promise.all(
    hooks.map(async (hook) => {
      const token = (await openHookToken(hook)) ?? undefined;
      const result = await sendHook(
        {
          url: hook.url,
          headers: hookHeaders(event.kind, {
            token,
            eventUuid,
            webhookUuid: stableUuid(`hook:${hook.projectId}:${hook.id}`),
            confidential: event.issue.confidential,
          }),
          body,
          verifySsl: hook.enableSslVerification,
        },
        { allowLocalNetwork: options.allowLocalNetwork },
      );
      const fields = { hookId: hook.id, projectId: event.projectId, hookEventId: event.id, kind: event.kind, eventUuid, ...result };
      if (result.ok) logger.info('webhook delivered', fields);
      else logger.warn('webhook delivery failed', fields);
      return { hookId: hook.id, result };
    }),
  );
}

/** Internal: a UUID-formatted name digest (the same name always gives the same id). */
function stableUuid(name: string): string {
  const hex = createHash('sha256').update(name).digest('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-5${hex.slice(13, 16)}-${((parseInt(hex[16], 16) & 0x3) | 0x8).toString(16)}${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}

/** Internal: the project, its namespace and the names the payload shows, read in a few batches. */
async function contextOf(event: HookEvent): Promise<HookContext | undefined> {
  const project = await getProject(event.projectId);
  if (!project || project.deleting) return undefined;
  const previous = event.kind === 'issue' ? event.previous : null;
  const userIds = new Set([event.actorId, event.issue.authorId, ...event.issue.assigneeIds, ...(previous?.assigneeIds ?? [])]);
  if (event.kind === 'note') userIds.add(event.note.authorId);
  const [namespace, userItems, labels, milestones] = await Promise.all([
    getNamespace(project.namespaceId),
    getMany([...userIds].map((id) => userKeys.user(id)), { consistent: false }),
    listLabels(project.id),
    listMilestones(project.id),
  ]);
  const users = new Map<number, User>(userItems.map((item) => [Number(item.id), userFromItem(item)]));
  const actor = users.get(event.actorId);
  if (!namespace || !actor) return undefined;
  return {
    project,
    namespace,
    actor,
    users,
    labels: new Map(labels.map((label) => [label.id, label])),
    milestones: new Map(milestones.map((milestone) => [milestone.id, milestone])),
  };
}
