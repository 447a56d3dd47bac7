/**
 * The parts of a noteable's writes that are the same whatever the noteable (GitLab's
 * `SystemNoteService` notes and the `commented on` event of `EventCreateService#leave_note`): each
 * an item for the transaction of the change it tells, built by its own store. The webhook events
 * differ per noteable (Issue Hook, Merge Request Hook, Note Hook payloads), so their owners build
 * them.
 */
import { nextIds } from '../../platform/dynamo/counters';
import { sharedSequences } from '../../platform/dynamo/sequences';
import type { TransactItem } from '../../platform/dynamo/transactions';
import { prepareEvent } from '../../projects';
import type { User } from '../../users';
import type { Noteable } from '../store/noteables';
import { newNote, notePut, type Note } from '../store/notes';

/** What writing a note needs of its noteable. */
export type NoteableTarget = Pick<Noteable, 'type' | 'projectId' | 'iid' | 'id'>;

/**
 * The Puts of system notes by `author` on `noteable` (bodies in GitLab's wording, see
 * `system-notes.ts`), for the transaction of the change they tell; none for no bodies.
 * @example
 * const notes = await systemNotePuts(noteable, user, ['merged']);
 */
export async function systemNotePuts(noteable: NoteableTarget, author: Pick<User, 'id'>, bodies: string[]): Promise<TransactItem[]> {
  const ids = await nextIds(sharedSequences.notes, bodies.length);
  const at = new Date().toISOString();
  return bodies.map((body, i) => notePut(newNote(noteable, { id: ids[i], body, authorId: author.id, system: true, createdAt: at, updatedAt: at })));
}

/**
 * The `commented on` feed event of `note` on `noteable` by `user`: the note is stored as data
 * (`noteable_type` the noteable's), presented with the event's author when the feed is read.
 *
 * @param target.title the noteable's title (the event's `target_title`).
 * @param target.restrictedTo who may see the event besides reporters and up (a confidential
 *   issue's author, assignees and the actor); `null`: everyone who reads the project.
 */
export async function commentEvent(
  noteable: NoteableTarget,
  note: Note,
  user: Pick<User, 'id'>,
  target: { title: string; restrictedTo: number[] | null },
): Promise<TransactItem> {
  const { put } = await prepareEvent({
    projectId: noteable.projectId,
    authorId: user.id,
    actionName: 'commented on',
    targetId: note.id,
    targetType: 'Note',
    targetTitle: target.title,
    restrictedTo: target.restrictedTo,
    note: { id: note.id, body: note.body, createdAt: note.createdAt, system: note.system, noteableId: noteable.id, noteableType: noteable.type },
  });
  return put;
}
