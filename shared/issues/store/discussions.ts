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
import { tableName } from '../../platform/dynamo/client';
import { getItem, queryAll, queryCollection } from '../../platform/dynamo/query';
import { type TransactItem, transactOr } from '../../platform/dynamo/transactions';
import { projectIsLive } from '../../projects';
import { issueCollections, issueKeys, type NoteableKeyed } from './keys';
import { noteCountPart, type Noteable } from './noteables';
import { discussionRootOf, noteFromItem, noteKey, type Note, type ResolutionChange } from './notes';

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

/*
 * Resolution (merge request discussions only, as in GitLab: `ResolvableNote`). A note is
 * resolvable when it is a user note of a merge request's threaded discussion (`DiscussionNote`);
 * a discussion is resolved when none of its resolvable notes is unresolved. Each resolvable
 * discussion has a state item (`issueKeys.mergeRequestDiscussion`) counting its unresolved notes:
 * every write that changes that number (start, reply, resolve, unresolve, delete) puts the new
 * count conditioned on the count read, so racing writes to one discussion are serialized (the
 * loser re-reads), and when the discussion turns unresolved or resolved the same transaction moves
 * the merge request's `unresolvedDiscussionsCount` by one. Reads never count.
 */

/**
 * Whether GitLab lets a note be resolved: a user note of a merge request discussion.
 * @example
 * isResolvable(note); // true for a `DiscussionNote` on a merge request
 */
export const isResolvable = (note: Pick<Note, 'noteableType' | 'noteType' | 'system'>): boolean =>
  note.noteableType === 'MergeRequest' && note.noteType === 'DiscussionNote' && !note.system;

/** Whether a resolvable note still needs resolving (GitLab's `to_be_resolved?`). */
export const toBeResolved = (note: Note): boolean => isResolvable(note) && note.resolvedAt === undefined;

/** Internal: the state item's key of a discussion. */
const stateKey = (noteable: NoteableKeyed, rootId: number) => issueKeys.mergeRequestDiscussion(noteable.projectId, noteable.iid, rootId);

/** A discussion's state as read: its unresolved count (`undefined`: no state item yet, i.e. 0). */
export type DiscussionState = number | undefined;

/** The unresolved count of a discussion as stored (consistent read); `undefined` when it has no state item. */
export async function getDiscussionState(noteable: NoteableKeyed, rootId: number): Promise<DiscussionState> {
  const item = await getItem(stateKey(noteable, rootId));
  return item ? Number(item.unresolved ?? 0) : undefined;
}

/**
 * The resolution change of a write that moves a discussion's unresolved count from `before` (as
 * read) to `after`: the state item's Put conditioned on `before`, and the merge request's count
 * change when the discussion turns unresolved (+1) or resolved (-1).
 */
export function resolutionChange(noteable: NoteableKeyed, rootId: number, before: DiscussionState, after: number): ResolutionChange {
  const was = before ?? 0;
  const state: TransactItem = {
    Put: {
      TableName: tableName(),
      Item: { ...stateKey(noteable, rootId), type: 'DiscussionState', projectId: noteable.projectId, rootId, unresolved: after },
      ...(before === undefined
        ? { ConditionExpression: 'attribute_not_exists(PK)' }
        : { ConditionExpression: 'unresolved = :before', ExpressionAttributeValues: { ':before': before } }),
    },
  };
  return { state, unresolvedDiscussionsDelta: was === 0 && after > 0 ? 1 : was > 0 && after === 0 ? -1 : 0 };
}

/** Why a resolution write did not happen: the project or noteable went, or the discussion changed since read (re-read). */
export type ResolutionFailure = 'project_gone' | 'noteable_gone' | 'changed';

/**
 * Resolves (`by` and `at` given) or unresolves the given notes of one discussion in one
 * transaction, each conditioned on being there in the state read, with the discussion's count
 * moved from `before` and the merge request's count of unresolved discussions when it crosses 0.
 * At most {@link MAX_RESOLVED_PER_WRITE} notes.
 */
export async function writeResolution(
  noteable: Noteable,
  rootId: number,
  notes: Note[],
  before: DiscussionState,
  resolved: { by: number; at: string } | null,
): Promise<ResolutionFailure | undefined> {
  const after = Math.max((before ?? 0) + (resolved ? -notes.length : notes.length), 0);
  const change = resolutionChange(noteable, rootId, before, after);
  const entries: Record<string, TransactItem> = {
    project: projectIsLive(noteable.projectId),
    noteable: noteCountPart(noteable, 0, undefined, change.unresolvedDiscussionsDelta),
    state: change.state,
  };
  notes.forEach((note, index) => {
    entries[`note${index}`] = {
      Update: {
        TableName: tableName(),
        Key: noteKey(note),
        ...(resolved
          ? {
              UpdateExpression: 'SET resolvedAt = :at, resolvedById = :by',
              ConditionExpression: 'attribute_exists(PK) AND attribute_not_exists(resolvedAt)',
              ExpressionAttributeValues: { ':at': resolved.at, ':by': resolved.by },
            }
          : { UpdateExpression: 'REMOVE resolvedAt, resolvedById', ConditionExpression: 'attribute_exists(PK) AND attribute_exists(resolvedAt)' }),
      },
    };
  });
  return transactOr<ResolutionFailure>(entries, [['project', 'project_gone'], ['noteable', 'noteable_gone']], 'changed');
}

/** The most notes one resolution transaction changes (DynamoDB's 100 items, less the project, noteable and state). */
export const MAX_RESOLVED_PER_WRITE = 90;
