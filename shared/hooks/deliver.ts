/**
 * Delivers one webhook event to the project's hooks that subscribe to it (GitLab's
 * `WebHookService`). Delivery knows no kind of event: a registry of payload builders, one per
 * kind, given by the composition root (`functions/hook_delivery/handler.ts`) and written by the
 * feature that declares the kind, says which hook flag selects the hooks (e.g. `issues_events`,
 * or `confidential_issues_events` for a confidential issue, so a hook does not leak to its
 * receiver what the project's guests may not read), the `X-Gitlab-Event` it is sent as, and its
 * JSON body. The payload is built from the event's snapshot plus the names (users, ...) read now;
 * each hook gets its own request, with its secret token unsealed only for that request.
 *
 * A receiver that fails (status, timeout, refused address) is logged and not retried, as GitLab
 * does for a single delivery; errors reading the table are thrown, so the stream retries.
 */
import { openSecret } from '../platform/crypto/secret-box';
import { getMany } from '../platform/dynamo/batch';
import { logger } from '../platform/logger';
import { userKeys, userFromItem, type User } from '../users';
import { getNamespace, type Namespace } from '../namespaces';
import { getProject, type Project } from '../projects';
import type { HookEvent, HookEventFields, HookEventKind, HookEventOf } from './store/hook-events';
import { listHooks, type HookTriggers, type ProjectHook } from './store/hooks';
import { hookHeaders, projectHookAttrs, userHookAttrs } from './presenters/webhooks';
import { sendToSystemHooks, stableUuid } from './system-delivery';
import { listSystemHooks, type SystemHook } from './store/system-hooks';
import { sendHook, type HookDeliveryResult } from './send';

/** A hook flag that selects the hooks of a kind of event (`issuesEvents`, `confidentialNoteEvents`, ...). */
export type HookTrigger = Exclude<keyof HookTriggers, 'enableSslVerification'>;

/** What delivery reads for every event, for its payload builder. */
export interface HookDeliveryContext {
  /** The event's project (not being deleted) and its namespace. */
  project: Project;
  namespace: Namespace;
  /** Who made the change: the payload's `user`. */
  actor: User;
  /** The actor and the users the builder asked for ({@link HookPayloadBuilder.userIds}), by id; deleted ones are missing. */
  users: Map<number, User>;
}

/**
 * How the events of one kind are delivered, declared by the feature that writes them.
 *
 * @example
 * const ping: HookPayloadBuilder<PingEvent> = {
 *   trigger: () => 'pushEvents',
 *   eventName: () => 'Ping Hook',
 *   build: (event, ctx) => ({ object_kind: 'ping', user_id: ctx.actor.id }),
 * };
 */
export interface HookPayloadBuilder<E extends HookEventFields = HookEvent> {
  /** The hook flag a hook must have on to receive `event`. */
  trigger(event: E): HookTrigger;
  /** `X-Gitlab-Event` of `event` (`Issue Hook`, `Confidential Note Hook`, ...). */
  eventName(event: E): string;
  /** Users the payload shows besides the actor (authors, assignees), read in one batch with the actor. */
  userIds?(event: E): Iterable<number>;
  /** The JSON body; it may read what else it shows (labels, ...). */
  build(event: E, context: HookDeliveryContext): Record<string, unknown> | Promise<Record<string, unknown>>;
}

/** Payload builders by kind. */
export type HookPayloadRegistry = Readonly<Record<string, HookPayloadBuilder>>;

/**
 * A builder for every declared kind (`HookEventKinds`), each typed for its kind: what the
 * composition root wires, so a kind declared without its builder does not compile.
 */
export type HookPayloadBuilders = { readonly [K in HookEventKind]: HookPayloadBuilder<HookEventOf<K>> };

export interface DeliveryOptions {
  /** Whether hooks may target loopback and private addresses (local runtime only). */
  allowLocalNetwork: boolean;
  /** The payload builders of the kinds this delivery sends; an event of another kind is logged and dropped. */
  payloads: HookPayloadRegistry;
}

/** What happened to each hook of the event, for logs and tests. */
export type DeliveryReport = Array<{ hookId: number; result: HookDeliveryResult }>;

/**
 * Sends `event` to every hook of its project that wants it.
 *
 * @example
 * const report = await deliverHookEvent(hookEventFromImage(record.dynamodb.NewImage), { allowLocalNetwork: false, payloads });
 */
export async function deliverHookEvent(event: HookEvent, options: DeliveryOptions): Promise<DeliveryReport> {
  const builder = Object.hasOwn(options.payloads, event.kind) ? options.payloads[event.kind] : undefined;
  if (!builder) {
    // Retrying would not help: this function was deployed without the kind's builder.
    logger.error('no webhook payload builder for this kind of event; not delivered', { projectId: event.projectId, hookEventId: event.id, kind: event.kind });
    return [];
  }
  const trigger = builder.trigger(event);
  const [hooks, system] = await Promise.all([
    listHooks(event.projectId).then((all) => all.filter((hook) => hook[trigger] === true)),
    systemHooksOf(trigger),
  ]);
  if (hooks.length === 0 && system.hooks.length === 0 && system.repositoryUpdate.length === 0) return [];
  const context = await contextOf(event, builder);
  if (!context) return []; // the project was deleted since
  const payload = await builder.build(event, context);
  const body = JSON.stringify(payload);
  const eventName = builder.eventName(event);
  // Stable across the stream's retries, so a receiver can drop a delivery it already took.
  const eventUuid = stableUuid(`hook-event:${event.projectId}:${event.id}`);
  const allowLocalNetwork = options.allowLocalNetwork;
  // The instance's system hooks get the same event (`SystemHooksService#execute_hooks`), a push's without its commits.
  const systemSent = Promise.all([
    system.hooks.length > 0 && sendToSystemHooks(system.hooks, 'commits' in payload && trigger !== 'mergeRequestsEvents' ? { ...payload, commits: [] } : payload, eventUuid, allowLocalNetwork),
    system.repositoryUpdate.length > 0 && sendToSystemHooks(system.repositoryUpdate, repositoryUpdateData(event, context), stableUuid(`repository-update:${event.projectId}:${event.id}`), allowLocalNetwork),
  ]);
  const projectSent = Promise.all(
    hooks.map(async (hook) => {
      const token = (await openHookToken(hook)) ?? undefined;
      const result = await sendHook(
        {
          url: hook.url,
          headers: hookHeaders(eventName, { token, eventUuid, webhookUuid: stableUuid(`hook:${hook.projectId}:${hook.id}`) }),
          body,
          verifySsl: hook.enableSslVerification,
        },
        { allowLocalNetwork },
      );
      const fields = { hookId: hook.id, projectId: event.projectId, hookEventId: event.id, kind: event.kind, eventUuid, ...result };
      if (result.ok) logger.info('webhook delivered', fields);
      else logger.warn('webhook delivery failed', fields);
      return { hookId: hook.id, result };
    }),
  );
  const [report] = await Promise.all([projectSent, systemSent]);
  return report;
}

/** Internal: the system hooks an event of `trigger` goes to, and those that get a push as a `repository_update`. */
async function systemHooksOf(trigger: HookTrigger): Promise<{ hooks: SystemHook[]; repositoryUpdate: SystemHook[] }> {
  if (trigger !== 'pushEvents' && trigger !== 'tagPushEvents' && trigger !== 'mergeRequestsEvents') return { hooks: [], repositoryUpdate: [] };
  const all = await listSystemHooks();
  return {
    hooks: all.filter((hook) => hook[trigger] === true),
    repositoryUpdate: trigger === 'mergeRequestsEvents' ? [] : all.filter((hook) => hook.repositoryUpdateEvents === true),
  };
}

/**
 * Internal: GitLab's `repository_update` (`Gitlab::DataBuilder::Repository.update`) of one pushed
 * ref: the pusher, the project, the ref's change. GitLab sends one per push with every ref; here a
 * push's refs are events of their own, so each ref is one `repository_update`.
 */
function repositoryUpdateData(event: HookEvent, ctx: HookDeliveryContext): Record<string, unknown> {
  const user = userHookAttrs(ctx.actor);
  return {
    event_name: 'repository_update',
    user_id: user.id,
    user_name: user.name,
    user_email: user.email,
    user_avatar: user.avatar_url,
    project_id: ctx.project.id,
    project: projectHookAttrs(ctx.project, ctx.namespace),
    changes: [{ before: event.before, after: event.after, ref: event.ref }],
    refs: [event.ref],
  };
}

/** The hook's secret token in clear, for a delivery's `X-Gitlab-Token` header; `null` when none is set. */
export async function openHookToken(hook: ProjectHook): Promise<string | null> {
  return hook.tokenSealed ? openSecret(hook.tokenSealed) : null;
}

/** Internal: the project, its namespace and the users the payload shows, read in a few requests. */
async function contextOf(event: HookEvent, builder: HookPayloadBuilder): Promise<HookDeliveryContext | undefined> {
  const project = await getProject(event.projectId);
  if (!project || project.deleting) return undefined;
  const userIds = new Set([event.actorId, ...(builder.userIds?.(event) ?? [])]);
  const [namespace, userItems] = await Promise.all([
    getNamespace(project.namespaceId),
    getMany([...userIds].map((id) => userKeys.user(id)), { consistent: false }),
  ]);
  const users = new Map<number, User>(userItems.map((item) => [Number(item.id), userFromItem(item)]));
  const actor = users.get(event.actorId);
  if (!namespace || !actor) return undefined;
  return { project, namespace, actor, users };
}
