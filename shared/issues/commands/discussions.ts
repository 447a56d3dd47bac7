/**
 * Discussion writes on any noteable (GitLab's `API::Discussions` over `Notes::CreateService`):
 * starting a discussion writes a `DiscussionNote`; a reply joins the discussion's notes, and a
 * reply to an individual note turns that note into the first note of a discussion, in the reply's
 * transaction. A system note's discussion cannot be replied to (GitLab: `400 Bad request -
 * Discussion can not be replied to.`). Issue discussions are not resolvable (only merge requests'
 * are, in GitLab): resolving a note of one is `400 Bad request - Note is not resolvable`, and the
 * discussion resolve route does not exist for issues.
 */
import { can, type ProjectSubject } from '../../auth';
import { BadRequestError, NotFoundError, ParamError } from '../../platform/http/errors';
import type { User } from '../../users';
import type { Noteable } from '../store/noteables';
import { discussionRootOf, type Note } from '../store/notes';
import { createNote, type NoteEffects } from './notes';

/** GitLab's `bad_request!(reason)`. */
const badRequest = (reason: string) => new BadRequestError(`400 Bad request - ${reason}`);

/**
 * Internal: `created_at` counts only from an owner or an admin (GitLab's `set_note_created_at`);
 * others' is ignored, as GitLab's `Notes::CreateService` drops it.
 */
function createdAtFor(user: User, subject: ProjectSubject, createdAt: string | undefined): string | undefined {
  if (createdAt === undefined || !can(user, 'set_issue_timestamps', subject)) return undefined;
  const time = Date.parse(createdAt);
  if (Number.isNaN(time)) throw new ParamError('created_at is invalid');
  return new Date(time).toISOString();
}

/**
 * Starts a discussion on a noteable the caller can read: its first note, a `DiscussionNote`.
 * @example
 * const note = await startDiscussion(subject, issueNoteable(issue), user, { body: 'Why?' }, effects);
 */
export async function startDiscussion(
  subject: ProjectSubject,
  noteable: Noteable,
  user: User,
  input: { body: string; createdAt?: string },
  effects?: NoteEffects,
): Promise<Note> {
  return createNote(noteable, user, input.body, effects, { noteType: 'DiscussionNote', createdAt: createdAtFor(user, subject, input.createdAt) });
}

/**
 * Replies in a discussion (its notes as read, oldest first): an individual note's discussion
 * becomes a threaded one; a system note's cannot be replied to (400).
 * @throws NotFoundError `Discussion` when it has no notes (or its first note went meanwhile).
 */
export async function replyToDiscussion(
  subject: ProjectSubject,
  noteable: Noteable,
  user: User,
  discussion: Note[],
  input: { body: string; createdAt?: string },
  effects?: NoteEffects,
): Promise<Note> {
  const first = discussion[0];
  if (!first) throw new NotFoundError('Discussion');
  // GitLab: `part_of_discussion? || can_convert_to_discussion?` (a system note cannot be converted).
  if (first.noteType !== 'DiscussionNote' && first.system) throw badRequest('Discussion can not be replied to.');
  // The reply carries the discussion's first note id (that of a deleted first note too, so the discussion keeps its id).
  const inReplyTo = first.id === discussionRootOf(first) ? first : { ...first, id: discussionRootOf(first), noteType: 'DiscussionNote' as const };
  return createNote(noteable, user, input.body, effects, { inReplyTo, createdAt: createdAtFor(user, subject, input.createdAt) });
}

/** Resolving a note of a noteable whose discussions are not resolvable (issues): GitLab's 400. */
export function resolveNote(): never {
  throw badRequest('Note is not resolvable');
}
