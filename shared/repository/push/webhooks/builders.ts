/**
 * How the push feature's hook events are delivered (GitLab's `Git::BranchHooksService` and
 * `Git::TagHooksService` with `WebHookService`): branch pushes go to hooks with `push_events` as
 * `Push Hook`, tag pushes to hooks with `tag_push_events` as `Tag Push Hook`. The composition root
 * (`functions/hook_delivery/handler.ts`) gives these to delivery.
 */
import type { HookEventOf, HookPayloadBuilder } from '../../../hooks';
// The kinds' declaration, and the registration of how they are stored, which reading them needs.
import './events';
import { pushHookPayload } from './payloads';

/** The payload builders of the `push` and `tag_push` hook events. */
export const pushHookPayloads = {
  push: {
    trigger: () => 'pushEvents',
    eventName: () => 'Push Hook',
    build: (event, context) => pushHookPayload(context, event),
  },
  tag_push: {
    trigger: () => 'tagPushEvents',
    eventName: () => 'Tag Push Hook',
    build: (event, context) => pushHookPayload(context, event),
  },
} satisfies { push: HookPayloadBuilder<HookEventOf<'push'>>; tag_push: HookPayloadBuilder<HookEventOf<'tag_push'>> };
