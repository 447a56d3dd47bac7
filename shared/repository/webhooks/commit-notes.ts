/**
 * The Note Hook payload of a comment on a commit (GitLab's `Gitlab::DataBuilder::Note.build` with
 * `note.for_commit?`): `object_attributes` the note's hook attributes with `noteable_type:
 * "Commit"`, `commit_id` the commit's sha and `noteable_id: null`, and `commit` the commit's
 * `hook_attrs` (without changed files: `id`, `message`, `title`, `timestamp`, `url`, `author`).
 * A pure function of what the event stores (the note and the commit's attributes, taken when the
 * note was written, so delivery reads no repository) and the delivery context.
 *
 * The `commit_note` kind is declared to the outbox here, with how it is stored; the note writes
 * put its event in their transaction (`prepareHookEvent({ kind: 'commit_note', … })`).
 */
import {
  HOOK_EVENT_MAX_BYTES,
  noteHookData,
  registerHookEventForms,
  type HookDeliveryContext,
  type HookEvent,
  type HookEventForm,
  type HookEventOf,
  type HookPayloadBuilder,
} from '../../hooks';
import { projectFullPath, webUrlOf } from '../../projects';
import { commitUrl } from '../push/webhooks/payloads';
import type { CommitAttributes } from '../push/commits';
import type { CommitNote } from '../store/commit-notes';

/** What a `commit_note` event carries: the note as written and the commit it is on. */
export type CommitNoteHookFields = {
  action: 'create';
  note: CommitNote;
  commit: CommitAttributes;
};

declare module '../../hooks' {
  interface HookEventKinds {
    commit_note: CommitNoteHookFields;
  }
}

type CommitNoteHookEvent = HookEventOf<'commit_note'>;

/**
 * How a `commit_note` event is stored: as given; one too large for an item (a long note on a
 * commit with a long message) keeps the commit's title as its message rather than failing the note.
 */
const commitNoteHookEventForm = {
  toStored: (event: CommitNoteHookEvent) =>
    Buffer.byteLength(JSON.stringify(event)) <= HOOK_EVENT_MAX_BYTES ? { ...event } : { ...event, commit: { ...event.commit, message: event.commit.title } },
  fromStored: (stored: HookEvent) => stored as unknown as CommitNoteHookEvent,
} satisfies HookEventForm<CommitNoteHookEvent>;

registerHookEventForms({ commit_note: commitNoteHookEventForm });

/**
 * The Note Hook payload of a comment on a commit; `user` is the context's actor (the author).
 * @example
 * const body = JSON.stringify(commitNoteHookPayload(ctx, { action: 'create', note, commit }));
 */
export function commitNoteHookPayload(ctx: Pick<HookDeliveryContext, 'project' | 'namespace' | 'actor'>, event: CommitNoteHookFields): Record<string, unknown> {
  const { note, commit } = event;
  const url = commitUrl(webUrlOf(projectFullPath(ctx.namespace, ctx.project)), commit.id);
  return noteHookData(ctx, note, {
    attributes: {
      noteable_type: 'Commit',
      line_code: note.lineCode ?? null,
      commit_id: note.commitSha,
      noteable_id: null,
      system: false,
      type: note.noteType,
      ...(note.noteType === 'DiffNote' ? { position: note.position ?? null, original_position: note.position ?? null } : {}),
      discussion_id: note.discussionId,
      action: event.action,
      url: `${url}#note_${note.id}`,
    },
    noteable: { commit: { id: commit.id, message: commit.message, title: commit.title, timestamp: commit.timestamp, url, author: { name: commit.author.name, email: commit.author.email } } },
  });
}

/** How a `commit_note` event is delivered: to hooks with `note_events`, as `Note Hook`. */
export const commitNoteHookBuilder = {
  trigger: () => 'noteEvents',
  eventName: () => 'Note Hook',
  build: (event, context) => commitNoteHookPayload(context, event),
} satisfies HookPayloadBuilder<CommitNoteHookEvent>;

/** The delivery entry's builders of this feature's note events. */
export const commitNoteHookPayloads = { commit_note: commitNoteHookBuilder };
