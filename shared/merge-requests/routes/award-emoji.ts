/**
 * Award emoji on merge requests and on their notes (GitLab's `API::AwardEmoji` for
 * `merge_requests`), kept by the issues feature as an issue's are: every call must be
 * authenticated; whoever reads the merge request (404 otherwise) lists, reads and awards, and a
 * merge request's own `thumbsup`/`thumbsdown` count in its `upvotes`/`downvotes`; the award's user
 * or an admin deletes it (401 otherwise). Deleting answers 204.
 */
import * as z from 'zod';
import type { Caller, RouteRequest } from '../../platform/http/context';
import { paginate, paginationParams, type PaginationParams } from '../../platform/http/pagination';
import { p, required } from '../../platform/http/params';
import { created, noContent, ok } from '../../platform/http/response';
import { route, type RoutesOf } from '../../platform/http/route';
import type { catalog } from '../catalog';
import {
  awardableAwards,
  awardEmoji,
  deleteAward,
  findAwardOrNotFound,
  findNoteOrNotFound,
  noteableAwardable,
  noteAwardable,
  presentAward,
  presentAwards,
} from '../issuables';
import { mergeRequestPathParams } from './merge-requests.params';
import { findMergeRequestOf } from './find';

const noteId = { note_id: required(p.int()) };
const awardId = { award_id: required(p.int()) };
const name = { name: required(p.string()) };

/**
 * Internal: what the request names as the caller may read it (404 otherwise): the merge request,
 * or its note `note_id`, as an awardable (with whether that note is a system note, which takes none).
 */
async function awardableOf(params: { id: string; merge_request_iid: number; note_id?: number }, user: Caller) {
  const { noteable } = await findMergeRequestOf(params, user);
  if (params.note_id === undefined) return { awardable: noteableAwardable(noteable), system: false };
  const note = await findNoteOrNotFound(noteable, params.note_id);
  return { awardable: noteAwardable(noteable, note), system: note.system };
}

/** Internal: what the routes of a merge request's awards and of its notes' awards both read. */
type AwardPath = { id: string; merge_request_iid: number; note_id?: number };
type Request<P> = RouteRequest<AwardPath & P, Caller>;

async function list({ params, user, link }: Request<PaginationParams>) {
  const page = await paginate(params, link, awardableAwards((await awardableOf(params, user)).awardable));
  return ok(await presentAwards(page.items), page.headers);
}

async function award({ params, user }: Request<{ name: string }>) {
  const { awardable, system } = await awardableOf(params, user);
  return created(await presentAward(await awardEmoji(awardable, user, params.name, { system })));
}

async function show({ params, user }: Request<{ award_id: number }>) {
  return ok(await presentAward(await findAwardOrNotFound((await awardableOf(params, user)).awardable, params.award_id)));
}

async function remove({ params, user }: Request<{ award_id: number }>) {
  const { awardable } = await awardableOf(params, user);
  // Who may delete an award is a per-award rule: `deleteAward` checks it.
  await deleteAward(awardable, user, await findAwardOrNotFound(awardable, params.award_id));
  return noContent();
}

// Each route's own parameters: a merge request's awards never read a `note_id` from the query.
const onMergeRequest = mergeRequestPathParams;
const onNote = { ...mergeRequestPathParams, ...noteId };

export const mergeRequestAwardRoutes = {
  'GET /projects/:id/merge_requests/:merge_request_iid/award_emoji': route({ params: z.object({ ...onMergeRequest, ...paginationParams }), handler: list }),
  'POST /projects/:id/merge_requests/:merge_request_iid/award_emoji': route({ params: z.object({ ...onMergeRequest, ...name }), handler: award }),
  'GET /projects/:id/merge_requests/:merge_request_iid/award_emoji/:award_id': route({ params: z.object({ ...onMergeRequest, ...awardId }), handler: show }),
  'DELETE /projects/:id/merge_requests/:merge_request_iid/award_emoji/:award_id': route({ params: z.object({ ...onMergeRequest, ...awardId }), handler: remove }),
  'GET /projects/:id/merge_requests/:merge_request_iid/notes/:note_id/award_emoji': route({ params: z.object({ ...onNote, ...paginationParams }), handler: list }),
  'POST /projects/:id/merge_requests/:merge_request_iid/notes/:note_id/award_emoji': route({ params: z.object({ ...onNote, ...name }), handler: award }),
  'GET /projects/:id/merge_requests/:merge_request_iid/notes/:note_id/award_emoji/:award_id': route({ params: z.object({ ...onNote, ...awardId }), handler: show }),
  'DELETE /projects/:id/merge_requests/:merge_request_iid/notes/:note_id/award_emoji/:award_id': route({ params: z.object({ ...onNote, ...awardId }), handler: remove }),
} satisfies RoutesOf<typeof catalog.merge_requests>;
