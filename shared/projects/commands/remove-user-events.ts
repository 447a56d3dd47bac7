/**
 * What becomes of a deleted user's contribution events: they are deleted, from every feed
 * (GitLab's `events.author_id` foreign key cascades when the user row goes, and
 * `Users::DestroyService` deletes them in batches first), whether or not `hard_delete` is given:
 * after the deletion, `GET /projects/:id/events` and every other feed show none of them.
 *
 * The user's feed partition (`USER_EVENTS#<userId>`, GSI1) is walked a Query page at a time and
 * each event item deleted (it lives in its project's partition, so it leaves the project feed with
 * its index entry): the cost grows with the user's events, never with the projects. The walk is
 * repeated until a pass deletes nothing (`changeEveryItem`: the index lags the table a moment),
 * each delete answers whether the item was still there, and progress is logged; a re-run (the job
 * retried after a crash) deletes only what is left.
 *
 * Run by the user deletion job (a removal step declared in `functions/api.ts`) while the user is
 * marked as deleting: it stops authenticating, and an event recorded on its own (`recordEvent`)
 * is refused once its author is marked (its transaction checks the author is live). What can still leave one behind is a
 * race: an event put in the transaction of another write (an issue or note change,
 * `prepareEvent`) by a request that authenticated before the mark and landed after the walk's
 * last pass. For that one the read-time fallback stays: the feeds leave out an event whose
 * author no longer exists (`presentEvents`).
 */
import { changeEveryItem } from '../../platform/dynamo/walks';
import type { UserRemoval } from '../../users';
import { deleteUserContributions } from '../store/contributions';
import { eventFromItem, removeEvent } from '../store/events';
import { projectCollections } from '../store/keys';

/**
 * Deletes every contribution event `userId` authored, from its project's feed and the user's.
 * @returns how many events it deleted.
 * @example
 * await deleteUserEvents(user.id);
 */
export const deleteUserEvents = (userId: number): Promise<number> =>
  changeEveryItem(projectCollections.userEvents(userId), (item) => removeEvent(eventFromItem(item)), "deleted user's events deleted", { userId });

/**
 * The feeds' part of deleting a user (a removal step, `removeWithUser`), with or without
 * `hard_delete`: its events, then its contribution entries (`store/contributions.ts`, walked the
 * same way on their own index).
 */
export const removeUserEvents: UserRemoval = async (user) => (await deleteUserEvents(user.id)) + (await deleteUserContributions(user.id));
