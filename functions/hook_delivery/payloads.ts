/**
 * The payload builders of every declared kind of hook event (one missing does not compile), by
 * the features that declare the kinds: what delivery sends (`handler.ts`), and what the hooks
 * function loads on first use to test a project hook (`functions/hooks/handler.ts`).
 */
import type { HookPayloadBuilders } from '../../shared/hooks/deliver';
import { ciHookPayloads } from '../../shared/ci';
import { issueHookPayloads } from '../../shared/issues';
import { mergeRequestHookPayloads } from '../../shared/merge-requests';
import { commitNoteHookPayloads } from '../../shared/repository';
import { pushHookPayloads } from '../../shared/repository/push';
import { wikiPageHookPayloads } from '../../shared/wikis';

export const payloads: HookPayloadBuilders = { ...issueHookPayloads, ...pushHookPayloads, ...commitNoteHookPayloads, ...mergeRequestHookPayloads, ...ciHookPayloads, ...wikiPageHookPayloads };
