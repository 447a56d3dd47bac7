/**
 * The push feature's kinds of webhook events, declared to the hooks feature's outbox: `push` (a
 * branch created, updated or deleted) and `tag_push` (a tag created, moved or deleted). `afterPush`
 * puts one per ref (none when a push changes more than three refs of a kind and action at once,
 * as GitLab's `push_event_hooks_limit`); delivery sends them with the builders of `builders.ts`.
 *
 * Importing this module registers how these events are stored ({@link pushHookEventForms}: bounded
 * in size), so every process that writes or reads them loads it: the delivery function through
 * `builders.ts`, and `afterPush` through its own import.
 */
import { HOOK_EVENT_MAX_BYTES, registerHookEventForms, type HookEvent, type HookEventForm, type HookEventOf } from '../../../hooks';
import { logger } from '../../../platform/logger';
import type { PushCommit } from '../commits';

/** What a push did to its ref (GitLab's push event payload `action`). */
export type PushAction = 'pushed' | 'created' | 'removed';

/** What a `push` or `tag_push` event carries: the push as it was, the payload's parts but the project and the pusher. */
export type PushHookFields = {
  action: PushAction;
  /** The full ref name (`refs/heads/main`, `refs/tags/v1.0`). */
  ref: string;
  /** Object ids, 40 zeros for a ref created / deleted. */
  before: string;
  after: string;
  refProtected: boolean;
  /** The commit the ref leads to (a tag's commit); null when the ref was deleted (or a tag names no commit). */
  checkoutSha: string | null;
  /** A tag's message (`''` for a lightweight tag); null for branches and deleted tags. */
  message: string | null;
  /** The newest 20 commits at most, oldest first. */
  commits: PushCommit[];
  totalCommitsCount: number;
};

declare module '../../../hooks' {
  interface HookEventKinds {
    push: PushHookFields;
    tag_push: PushHookFields;
  }
}

export type PushHookEvent = HookEventOf<'push'> | HookEventOf<'tag_push'>;

const sizeOf = (value: unknown) => Buffer.byteLength(JSON.stringify(value));

/** Internal: `text` cut to at most `max` characters. */
const clip = (text: string, max: number) => (text.length > max ? text.slice(0, max) : text);

/**
 * Internal: the event as stored. A push whose commits list too many paths or carry huge messages
 * (a commit adding 100,000 files) would not fit one item: its path lists are shortened first,
 * then its messages, then its oldest commits left out, until it fits ({@link HOOK_EVENT_MAX_BYTES}).
 */
function storedForm(event: PushHookEvent): Record<string, unknown> {
  const stored = { ...event } as Record<string, unknown> & PushHookFields;
  if (sizeOf(stored) <= HOOK_EVENT_MAX_BYTES) return stored;
  const steps: Array<(commit: PushCommit) => PushCommit> = [
    ...[1000, 100, 10, 0].map((paths) => (commit: PushCommit) => ({
      ...commit,
      added: commit.added.slice(0, paths),
      modified: commit.modified.slice(0, paths),
      removed: commit.removed.slice(0, paths),
    })),
    ...[10_000, 1000].map((chars) => (commit: PushCommit) => ({ ...commit, message: clip(commit.message, chars), title: clip(commit.title, chars) })),
  ];
  for (const step of steps) {
    stored.commits = stored.commits.map(step);
    if (sizeOf(stored) <= HOOK_EVENT_MAX_BYTES) break;
  }
  while (sizeOf(stored) > HOOK_EVENT_MAX_BYTES && stored.commits.length > 0) stored.commits = stored.commits.slice(1);
  if (stored.message !== null && sizeOf(stored) > HOOK_EVENT_MAX_BYTES) stored.message = clip(stored.message, 10_000);
  logger.warn('push hook event too large for the outbox; its commits were shortened', { projectId: event.projectId, ref: event.ref });
  return stored;
}

/** How `push` and `tag_push` events are stored in the outbox item and read back. */
export const pushHookEventForms = {
  push: { toStored: storedForm, fromStored: (stored: HookEvent) => stored as unknown as HookEventOf<'push'> },
  tag_push: { toStored: storedForm, fromStored: (stored: HookEvent) => stored as unknown as HookEventOf<'tag_push'> },
} satisfies { push: HookEventForm<HookEventOf<'push'>>; tag_push: HookEventForm<HookEventOf<'tag_push'>> };

registerHookEventForms(pushHookEventForms);
