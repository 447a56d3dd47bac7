/**
 * Discussions (GitLab's threads): every note belongs to one, named by a 40-hex id. A discussion is
 * its first note and the replies to it: a reply stores the first note's id (`rootId`), a note
 * without one starts its own discussion (every note written before discussions existed does, so
 * no note needs rewriting for it). The id is derived from the first note's id, so it needs no
 * lookup item: 24 hex digits of a SHA-1 over that id, then the id in 16 hex digits (an id whose
 * digest part does not match names no discussion).
 *
 * Each note item carries its place among its noteable's discussions on GSI1
 * (`issueIndexKeys.noteThread`: the first note's id, then its own), so a page of discussions is
 * one Query that reads the notes of those discussions and one more note, never the noteable's
 * other notes.
 */
import { createHash } from 'node:crypto';
import { ParamError } from '../../platform/http/errors';
import type { StreamSource } from '../../platform/http/pagination';
import { queryAll, queryCollection } from '../../platform/dynamo/query';
import { issueCollections, type NoteableKeyed } from './keys';
import { discussionRootOf, noteFromItem, type Note } from './notes';

/** One discussion: its id and its notes, oldest first (never empty). */
export interface Discussion {
  id: string;
  notes: Note[];
}

/** Internal: the digest part of a discussion id. */
const digestOf = (rootId: number) => createHash('sha1').update(`discussion:${rootId}`).digest('hex').slice(0, 24);

/**
 * The id of the discussion a note belongs to.
 * @example
 * discussionIdOf(note); // '3f7a…0000000000000029' (40 hex digits)
 */
export const discussionIdOf = (note: Pick<Note, 'id' | 'rootId'>): string => {
  const rootId = discussionRootOf(note);
  return `${digestOf(rootId)}${rootId.toString(16).padStart(16, '0')}`;
};

/** The first note id a discussion id names, or `undefined` when it names none. */
export function discussionRootFromId(id: string): number | undefined {
  if (!/^[0-9a-f]{40}$/.test(id)) return undefined;
  const rootId = Number.parseInt(id.slice(24), 16);
  if (!Number.isSafeInteger(rootId) || rootId <= 0 || digestOf(rootId) !== id.slice(0, 24)) return undefined;
  return rootId;
}

/** The notes of one discussion of a noteable, oldest first (empty: no such discussion). */
export async function listDiscussionNotes(noteable: NoteableKeyed, rootId: number): Promise<Note[]> {
  return (await queryAll(issueCollections.discussionNotes(noteable, rootId))).map(noteFromItem);
}

/**
 * A noteable's discussions, oldest first, as a stream the route pages: one GSI1 Query read as the
 * page pulls, a discussion yielded once the next one's first note (or the end) is read. Cursors
 * (keyset paging) name the last discussion's first note.
 */
export function discussionStream(noteable: NoteableKeyed): StreamSource<Discussion> {
  const cursorOf = (rootId: number) => Buffer.from(JSON.stringify({ r: rootId })).toString('base64url');
  const entry = (notes: Note[]) => {
    const rootId = discussionRootOf(notes[0]);
    return { value: { id: discussionIdOf(notes[0]), notes }, cursor: () => cursorOf(rootId) };
  };
  return {
    async *read(after, hint) {
      let afterRootId: number | undefined;
      if (after !== undefined) {
        try {
          afterRootId = JSON.parse(Buffer.from(after, 'base64url').toString('utf8')).r;
        } catch {
          afterRootId = undefined;
        }
        if (!Number.isSafeInteger(afterRootId) || (afterRootId as number) <= 0) throw new ParamError('cursor is invalid');
      }
      let current: Note[] = [];
      // Discussions are mostly one or two notes: twice the page is about one Query.
      for await (const item of queryCollection(issueCollections.noteableDiscussions(noteable, afterRootId), { pageSize: Math.min(hint * 2, 100) })) {
        const note = noteFromItem(item);
        if (current.length > 0 && discussionRootOf(current[0]) !== discussionRootOf(note)) {
          yield entry(current);
          current = [];
        }
        current.push(note);
      }
      if (current.length > 0) yield entry(current);
    },
  };
}
