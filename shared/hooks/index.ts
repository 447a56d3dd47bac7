export type { HookDeliveryContext, HookPayloadBuilder, HookPayloadBuilders, HookPayloadRegistry, HookTrigger } from './deliver';
export type { HookTestSample, HookTestSampler, HookTestTrigger } from './test-hooks';
export { gitRepositoryHookAttrs, hookTime, noteHookData, projectHookAttrs, repositoryHookAttrs, userHookAttrs, type HookNote } from './presenters/webhooks';
export {
  HOOK_EVENT_MAX_BYTES,
  prepareHookEvent,
  registerHookEventForms,
  type HookEvent,
  type HookEventForm,
  type HookEventKind,
  type HookEventKinds,
  type HookEventOf,
  type NewHookEvent,
} from './store/hook-events';
