/**
 * Testing a project hook (GitLab's `POST /projects/:id/hooks/:hook_id/test/:trigger`,
 * `TestHooks::ProjectService`): a sample event of the project for the trigger (its first commits,
 * issue, merge request, note), built with the kind's payload builder and sent to that one hook,
 * now, whatever its flags (GitLab's `force: true`). The hook's answer is the caller's: a 2xx is
 * `201 Created`, anything else GitLab's 422 with the reason.
 *
 * The hooks feature knows no kind of event: the samplers, each the feature's whose events they are,
 * and the payload builders are given by the composition root (`functions/hooks/handler.ts`),
 * loaded on first use. A trigger without a sampler answers GitLab's `Testing not available for this hook`.
 */
import { randomUUID } from 'node:crypto';
import { config } from '../platform/config';
import { getMany } from '../platform/dynamo/batch';
import type { Namespace } from '../namespaces';
import type { Project } from '../projects';
import { userFromItem, userKeys, type User } from '../users';
import { openHookToken, type HookPayloadRegistry } from './deliver';
import { hookHeaders } from './presenters/webhooks';
import { sendHook } from './send';
import type { HookEvent } from './store/hook-events';
import type { ProjectHook } from './store/hooks';
import { stableUuid } from './system-delivery';

/** The triggers GitLab's route accepts (`ProjectHook.triggers`); another value is a 400. */
export const HOOK_TEST_TRIGGERS = [
  'push_events',
  'tag_push_events',
  'issues_events',
  'confidential_issues_events',
  'note_events',
  'confidential_note_events',
  'merge_requests_events',
  'job_events',
  'pipeline_events',
  'wiki_page_events',
  'deployment_events',
  'feature_flag_events',
  'releases_events',
  'milestone_events',
  'emoji_events',
  'resource_access_token_events',
  'resource_deploy_token_events',
] as const;

export type HookTestTrigger = (typeof HOOK_TEST_TRIGGERS)[number];

/** `X-Gitlab-Event` of a test: the trigger's hook name (`tag_push_events`: `Tag Push Hook`, though the sample is a push). */
const EVENT_NAMES: Record<HookTestTrigger, string> = {
  push_events: 'Push Hook',
  tag_push_events: 'Tag Push Hook',
  issues_events: 'Issue Hook',
  confidential_issues_events: 'Confidential Issue Hook',
  note_events: 'Note Hook',
  confidential_note_events: 'Confidential Note Hook',
  merge_requests_events: 'Merge Request Hook',
  job_events: 'Job Hook',
  pipeline_events: 'Pipeline Hook',
  wiki_page_events: 'Wiki Page Hook',
  deployment_events: 'Deployment Hook',
  feature_flag_events: 'Feature Flag Hook',
  releases_events: 'Release Hook',
  milestone_events: 'Milestone Hook',
  emoji_events: 'Emoji Hook',
  resource_access_token_events: 'Resource Access Token Hook',
  resource_deploy_token_events: 'Resource Deploy Token Hook',
};

/** A sample event of the project (of a kind the payload builders know), or GitLab's reason there is none. */
export type HookTestSample = { event: HookEvent } | { error: string };

/** Finds a project's sample for a trigger (`project.issues.first`, ...). */
export type HookTestSampler = (project: Project, user: User) => Promise<HookTestSample>;

export interface HookTestWiring {
  samplers: Partial<Record<HookTestTrigger, HookTestSampler>>;
  /** The payload builders by kind (the delivery function's). */
  payloads: () => Promise<HookPayloadRegistry>;
}

let wiring: HookTestWiring | undefined;

/** Gives the samplers and the payload builders (by the composition root, at load). */
export function testHooksWith(given: HookTestWiring): void {
  wiring = given;
}

const NOT_AVAILABLE = 'Testing not available for this hook';

/**
 * Sends the trigger's sample event of `project` to `hook`, as `user`; `{ error }` when there is
 * no sample or the receiver did not take it (GitLab's 422 message).
 *
 * @example
 * const outcome = await testProjectHook(hook, { project, namespace }, user, 'push_events');
 * if ('error' in outcome) throw new ApiError(422, { message: outcome.error });
 */
export async function testProjectHook(hook: ProjectHook, where: { project: Project; namespace: Namespace }, user: User, trigger: HookTestTrigger): Promise<{ ok: true } | { error: string }> {
  const sampler = wiring?.samplers[trigger];
  if (!wiring || !sampler) return { error: NOT_AVAILABLE };
  const [sample, payloads] = await Promise.all([sampler(where.project, user), wiring.payloads()]);
  if ('error' in sample) return sample;
  const builder = Object.hasOwn(payloads, sample.event.kind) ? payloads[sample.event.kind] : undefined;
  if (!builder) return { error: NOT_AVAILABLE };
  const userIds = [...new Set([user.id, ...(builder.userIds?.(sample.event) ?? [])])].filter((id) => id !== user.id);
  const others = (await getMany(userIds.map((id) => userKeys.user(id)), { consistent: false })).map(userFromItem);
  const users = new Map<number, User>([[user.id, user], ...others.map((other): [number, User] => [other.id, other])]);
  const body = JSON.stringify(await builder.build(sample.event, { ...where, actor: user, users }));
  const token = (await openHookToken(hook)) ?? undefined;
  const result = await sendHook(
    {
      url: hook.url,
      headers: hookHeaders(EVENT_NAMES[trigger], { token, eventUuid: randomUUID(), webhookUuid: stableUuid(`hook:${hook.projectId}:${hook.id}`) }),
      body,
      verifySsl: hook.enableSslVerification,
    },
    { allowLocalNetwork: config().hooksAllowLocalNetwork },
  );
  return result.ok ? { ok: true } : { error: result.error };
}
