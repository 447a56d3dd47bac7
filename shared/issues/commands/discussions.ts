/**
 * Discussion writes on any noteable (GitLab's `API::Discussions` over `Notes::CreateService`):
 * starting a discussion writes a `DiscussionNote`; a reply joins the discussion's notes, and a
 * reply to an individual note turns that note into the first note of a discussion, in the reply's
 * transaction. A system note's discussion cannot be replied to (GitLab: `400 Bad request -
 * Discussion can not be replied to.`).
 *
 * Resolving (GitLab's `ResolvableNote`, `Discussions::ResolveService`): only merge request
 * discussions are resolvable. A note is resolved or unresolved by its author, the merge request's
 * author, a developer (or above) of the project, or an admin (GitLab's `resolve_note`; 403
 * otherwise), and must be resolvable (`400 Bad request - Note is not resolvable`: issue notes,
 * individual and system notes). A whole discussion is resolved or unresolved by the merge
 * request's author or a developer (or above) (GitLab's `Discussion#can_resolve?`, which is also
 * false, 403, for a discussion that is not resolvable). Each write is conditioned on the
 * discussion's unresolved count as read (`store/discussions.ts`), so the discussion's state and
 * the merge request's count of unresolved discussions stay exact under racing requests.
 */
import { can, type ProjectSubject } from '../../auth';
import { BadRequestError, ConflictError, ForbiddenError, NotFoundError, ParamError } from '../../platform/http/errors';
import type { User } from '../../users';
import {
  getDiscussionState,
  isResolvable,
  listDiscussionNotes,
  MAX_RESOLVED_PER_WRITE,
  toBeResolved,
  writeResolution,
  type Discussion,
} from '../store/discussions';
import type { Noteable } from '../store/noteables';
import { discussionRootOf, getNote, type Note } from '../store/notes';
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
 * Starts a discussion on a noteable the caller can read: its first note, a `DiscussionNote`, or a
 * `DiffNote` with `diff` (a position the caller checked against the noteable's diffs).
 * @example
 * const note = await startDiscussion(subject, issueNoteable(issue), user, { body: 'Why?' }, effects);
 */
export async function startDiscussion(
  subject: ProjectSubject,
  noteable: Noteable,
  user: User,
  input: { body: string; createdAt?: string; diff?: Pick<Note, 'position' | 'lineCode'> },
  effects?: NoteEffects,
): Promise<Note> {
  const createdAt = createdAtFor(user, subject, input.createdAt);
  return createNote(noteable, user, input.body, effects, { noteType: 'DiscussionNote', createdAt, ...(input.diff ? { diff: input.diff } : {}) });
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

/** Lost races (and index reads behind the discussion's state) re-read; past this many, 409. */
const RESOLVE_ATTEMPTS = 8;

/** Internal: a developer (or above) of the project, or an admin (GitLab's `resolve_note` on the project). */
const resolvesInProject = (user: User, subject: ProjectSubject) => can(user, 'admin_merge_request', subject);

/** Internal: `note` as a resolution leaves it. */
const withResolution = (note: Note, resolved: { by: number; at: string } | null): Note => {
  const { resolvedAt: _at, resolvedById: _by, ...rest } = note;
  return resolved ? { ...rest, resolvedAt: resolved.at, resolvedById: resolved.by } : rest;
};

/** Internal: maps a failed resolution write to GitLab's answer (`changed` is retried by the caller). */
function resolutionGone(noteable: Noteable, failure: 'project_gone' | 'noteable_gone'): never {
  if (failure === 'project_gone') throw new NotFoundError('Project');
  throw new NotFoundError(noteable.type === 'Issue' ? 'Issue' : 'Merge Request');
}

/**
 * Resolves or unresolves one note of a merge request discussion (`PUT .../notes/:note_id` with
 * `resolved`); resolving a resolved note (or unresolving an unresolved one) changes nothing.
 * @throws ForbiddenError (see the module comment); BadRequestError for a note that is not
 *   resolvable; NotFoundError `Note` when it went meanwhile; ConflictError after racing writes.
 * @example
 * const note = await resolveDiscussionNote(subject, user, mergeRequestNoteable(mr), note, true);
 */
export async function resolveDiscussionNote(subject: ProjectSubject, user: User, noteable: Noteable, note: Note, resolved: boolean): Promise<Note> {
  if (note.authorId !== user.id && noteable.authorId !== user.id && !resolvesInProject(user, subject)) throw new ForbiddenError();
  if (!isResolvable(note)) throw badRequest('Note is not resolvable');
  let current: Note | undefined = note;
  for (let attempt = 1; attempt <= RESOLVE_ATTEMPTS; attempt++) {
    if (attempt > 1) current = await getNote(noteable, note.id);
    if (!current) throw new NotFoundError('Note');
    if ((current.resolvedAt !== undefined) === resolved) return current;
    const rootId = discussionRootOf(current);
    const by = resolved ? { by: user.id, at: new Date().toISOString() } : null;
    const failure = await writeResolution(noteable, rootId, [current], await getDiscussionState(noteable, rootId), by);
    if (!failure) return withResolution(current, by);
    if (failure !== 'changed') resolutionGone(noteable, failure);
  }
  throw new ConflictError('The discussion was changed by another request; try again');
}

/**
 * Resolves or unresolves every resolvable note of a merge request discussion (`PUT
 * .../discussions/:discussion_id`), in transactions of at most {@link MAX_RESOLVED_PER_WRITE}
 * notes, each conditioned on the discussion's count as read.
 * @returns the discussion as written.
 * @throws ForbiddenError (see the module comment); ConflictError after racing writes.
 */
export async function resolveDiscussion(subject: ProjectSubject, user: User, noteable: Noteable, discussion: Discussion, resolved: boolean): Promise<Discussion> {
  if (!discussion.notes.some(isResolvable)) throw new ForbiddenError();
  if (noteable.authorId !== user.id && !resolvesInProject(user, subject)) throw new ForbiddenError();
  const rootId = discussionRootOf(discussion.notes[0]);
  let notes = discussion.notes;
  for (let attempt = 1; attempt <= RESOLVE_ATTEMPTS; ) {
    const before = await getDiscussionState(noteable, rootId);
    // The notes are read from an index that may lag behind the state item: read until they agree.
    if (notes.filter(toBeResolved).length !== (before ?? 0)) {
      attempt++;
      await new Promise((resolve) => setTimeout(resolve, 50 * attempt));
      notes = await listDiscussionNotes(noteable, rootId);
      continue;
    }
    const targets = notes.filter((note) => isResolvable(note) && (note.resolvedAt === undefined) === resolved);
    if (targets.length === 0) return { id: discussion.id, notes };
    const chunk = targets.slice(0, MAX_RESOLVED_PER_WRITE);
    const by = resolved ? { by: user.id, at: new Date().toISOString() } : null;
    const failure = await writeResolution(noteable, rootId, chunk, before, by);
    if (failure && failure !== 'changed') resolutionGone(noteable, failure);
    if (failure) {
      attempt++;
      notes = await listDiscussionNotes(noteable, rootId);
      continue;
    }
    const written = new Set(chunk.map((note) => note.id));
    notes = notes.map((note) => (written.has(note.id) ? withResolution(note, by) : note));
  }
  throw new ConflictError('The discussion was changed by another request; try again');
}
