/**
 * The merge-requests feature's kinds of webhook events, declared to the hooks feature's outbox:
 * `merge_request` (opened, edited, closed, reopened, merged, approved, unapproved: GitLab's Merge
 * Request Hook) and `merge_request_note` (a comment on a merge request: Note Hook). Importing this
 * module registers how they are stored (the previous merge request reduced to the fields that
 * changed), so every process writing or reading them loads it (the writes through
 * `commands/effects.ts`, delivery through `builders.ts`).
 */
import { HOOK_EVENT_MAX_BYTES, registerHookEventForms, type HookEvent, type HookEventForm, type HookEventOf } from '../../hooks';
import type { Note } from '../issuables';
import type { MergeRequest } from '../store/merge-requests';

/** GitLab's merge request hook actions (`object_attributes.action`). */
export type MergeRequestHookAction = 'open' | 'update' | 'close' | 'reopen' | 'merge' | 'approved' | 'unapproved';

/** The source branch's newest commit, as the payload's `last_commit` shows it. */
export interface HookLastCommit {
  id: string;
  message: string;
  timestamp: string;
  author: { name: string; email: string };
}

declare module '../../hooks' {
  interface HookEventKinds {
    /** `previous` is the merge request before the change (for `changes`); `null` when opened. */
    merge_request: { action: MergeRequestHookAction; mergeRequest: MergeRequest; previous: MergeRequest | null; lastCommit: HookLastCommit | null };
    /** `mergeRequest` is the merge request as commented on. */
    merge_request_note: { action: 'create'; note: Note; mergeRequest: MergeRequest; lastCommit: HookLastCommit | null };
  }
}

export type MergeRequestHookEvent = HookEventOf<'merge_request'>;
export type MergeRequestNoteHookEvent = HookEventOf<'merge_request_note'>;

/** Internal: `previous` reduced to what changed; the description left out of an event too large for an item. */
function storedForm(event: MergeRequestHookEvent | MergeRequestNoteHookEvent): Record<string, unknown> {
  const stored: Record<string, unknown> = { ...event };
  if (event.kind === 'merge_request' && event.previous) {
    const previous = event.previous as unknown as Record<string, unknown>;
    const current = event.mergeRequest as unknown as Record<string, unknown>;
    const names = new Set([...Object.keys(previous), ...Object.keys(current)]);
    const changed = Object.fromEntries(
      [...names].filter((name) => JSON.stringify(previous[name]) !== JSON.stringify(current[name])).map((name) => [name, previous[name] ?? null]),
    );
    // Never an empty map (the local stream poller cannot read one back).
    stored.previous = Object.keys(changed).length > 0 ? changed : { id: current.id };
  }
  if (Buffer.byteLength(JSON.stringify(stored)) > HOOK_EVENT_MAX_BYTES) {
    stored.mergeRequest = { ...event.mergeRequest, description: null };
    if (stored.previous) delete (stored.previous as Record<string, unknown>).description;
  }
  return stored;
}

export const mergeRequestHookEventForms = {
  merge_request: {
    toStored: storedForm,
    fromStored(stored: HookEvent): MergeRequestHookEvent {
      const event = stored as unknown as MergeRequestHookEvent;
      return event.previous ? { ...event, previous: { ...event.mergeRequest, ...event.previous } } : event;
    },
  },
  merge_request_note: {
    toStored: storedForm,
    fromStored: (stored: HookEvent) => stored as unknown as MergeRequestNoteHookEvent,
  },
} satisfies { merge_request: HookEventForm<MergeRequestHookEvent>; merge_request_note: HookEventForm<MergeRequestNoteHookEvent> };

registerHookEventForms(mergeRequestHookEventForms);
