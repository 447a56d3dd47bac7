/**
 * The issues feature's kinds of webhook events, declared to the hooks feature's outbox: `issue`
 * (an issue opened, edited, closed or reopened) and `note` (a comment on an issue). Writes put
 * them with `prepareHookEvent` (hooks) in their own transaction; delivery sends them with the
 * builders of `payloads.ts`.
 *
 * Importing this module registers how these events are stored ({@link issueHookEventForms}: the
 * previous issue as the fields that changed, the size bounded), so every process that writes or
 * reads them must load it: the delivery function does through `shared/issues/index.ts` (its
 * builders import it), and a module that calls `prepareHookEvent` for these kinds imports it
 * (`import './events';`). Without it the outbox stores the event as given, and warns.
 */
import { HOOK_EVENT_MAX_BYTES, registerHookEventForms, type HookEvent, type HookEventForm, type HookEventOf } from '../../hooks';
import type { Issue } from '../store/issues';
import type { Note } from '../store/notes';

/** GitLab's issue hook actions (`object_attributes.action`). */
export type IssueHookAction = 'open' | 'update' | 'close' | 'reopen';

declare module '../../hooks' {
  interface HookEventKinds {
    /** `previous` is the issue before the change (for the payload's `changes`); `null` when opened. */
    issue: { action: IssueHookAction; issue: Issue; previous: Issue | null };
    /** `issue` is the issue as commented on. */
    note: { action: 'create'; note: Note; issue: Issue };
  }
}

export type IssueHookEvent = HookEventOf<'issue'>;
export type NoteHookEvent = HookEventOf<'note'>;

/**
 * Internal: the event as stored: `previous` reduced to the fields that changed and, in the rare
 * event too large for one item (a long note on an issue with a long description), the issue's
 * description left out (the payload then carries `null`) rather than failing the user's write.
 */
function storedForm(event: IssueHookEvent | NoteHookEvent): Record<string, unknown> {
  const stored: Record<string, unknown> = { ...event };
  if (event.kind === 'issue' && event.previous) {
    const previous = event.previous as unknown as Record<string, unknown>;
    const current = event.issue as unknown as Record<string, unknown>;
    const names = new Set([...Object.keys(previous), ...Object.keys(current)]);
    stored.previous = Object.fromEntries(
      [...names].filter((name) => JSON.stringify(previous[name]) !== JSON.stringify(current[name])).map((name) => [name, previous[name] ?? null]),
    );
  }
  if (Buffer.byteLength(JSON.stringify(stored)) > HOOK_EVENT_MAX_BYTES) {
    stored.issue = { ...event.issue, description: null };
    if (stored.previous) delete (stored.previous as Record<string, unknown>).description;
  }
  return stored;
}

/** How `issue` and `note` events are stored in the outbox item and read back. */
export const issueHookEventForms = {
  issue: {
    toStored: storedForm,
    fromStored(stored: HookEvent): IssueHookEvent {
      const event = stored as unknown as IssueHookEvent;
      // `previous` was stored as the fields that changed: the rest are the issue's.
      return event.previous ? { ...event, previous: { ...event.issue, ...event.previous } } : event;
    },
  },
  note: {
    toStored: storedForm,
    fromStored: (stored: HookEvent) => stored as unknown as NoteHookEvent,
  },
} satisfies { issue: HookEventForm<IssueHookEvent>; note: HookEventForm<NoteHookEvent> };

registerHookEventForms(issueHookEventForms);
