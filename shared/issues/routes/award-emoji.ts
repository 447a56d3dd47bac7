/**
 * Award emoji (emoji reactions) on issues and on their notes (GitLab's `API::AwardEmoji`). Every
 * call must be authenticated. Whoever can read the issue (confidential rules included: 404
 * otherwise) lists, reads and awards; the award's user or an admin deletes it (401 otherwise, as
 * GitLab's `unauthorized!`). Deleting answers 204.
 */
import { paginate } from '../../platform/http/pagination';
import { created, noContent, ok } from '../../platform/http/response';
import { route, type RoutesOf } from '../../platform/http/route';
import { findProjectOrNotFound } from '../../projects';
import type { catalog } from '../catalog';
import { awardEmoji, deleteAward } from '../commands/award-emoji';
import { presentAward, presentAwards } from '../presenters/award-emoji';
import { awardableAwards, findAwardOrNotFound } from '../queries/award-emoji';
import { findIssueOrNotFound } from '../queries/issues';
import { findNoteOrNotFound } from '../queries/notes';
import { noteableAwardable, noteAwardable } from '../store/award-emoji';
import { issueNoteable } from '../store/issues';
import { issueAwardParams, issueCreateParams, issueListParams, noteAwardParams, noteCreateParams, noteListParams } from './award-emoji.params';

export const awardEmojiRoutes = {
  'GET /projects/:id/issues/:issue_iid/award_emoji': route({
    params: issueListParams,
    handler: async ({ params, user, link }) => {
      const subject = await findProjectOrNotFound(params.id, user);
      const issue = await findIssueOrNotFound(subject, user, params.issue_iid);
      const page = await paginate(params, link, awardableAwards(noteableAwardable(issueNoteable(issue))));
      return ok(await presentAwards(page.items), page.headers);
    },
  }),

  'POST /projects/:id/issues/:issue_iid/award_emoji': route({
    params: issueCreateParams,
    handler: async ({ params, user }) => {
      const subject = await findProjectOrNotFound(params.id, user);
      // Reading the issue is what GitLab's `award_emoji` needs besides being signed in.
      const issue = await findIssueOrNotFound(subject, user, params.issue_iid);
      return created(await presentAward(await awardEmoji(noteableAwardable(issueNoteable(issue)), user, params.name)));
    },
  }),

  'GET /projects/:id/issues/:issue_iid/award_emoji/:award_id': route({
    params: issueAwardParams,
    handler: async ({ params, user }) => {
      const subject = await findProjectOrNotFound(params.id, user);
      const issue = await findIssueOrNotFound(subject, user, params.issue_iid);
      return ok(await presentAward(await findAwardOrNotFound(noteableAwardable(issueNoteable(issue)), params.award_id)));
    },
  }),

  'DELETE /projects/:id/issues/:issue_iid/award_emoji/:award_id': route({
    params: issueAwardParams,
    handler: async ({ params, user }) => {
      const subject = await findProjectOrNotFound(params.id, user);
      const awardable = noteableAwardable(issueNoteable(await findIssueOrNotFound(subject, user, params.issue_iid)));
      // Who may delete an award is a per-award rule: `deleteAward` checks it.
      await deleteAward(awardable, user, await findAwardOrNotFound(awardable, params.award_id));
      return noContent();
    },
  }),

  'GET /projects/:id/issues/:issue_iid/notes/:note_id/award_emoji': route({
    params: noteListParams,
    handler: async ({ params, user, link }) => {
      const subject = await findProjectOrNotFound(params.id, user);
      const noteable = issueNoteable(await findIssueOrNotFound(subject, user, params.issue_iid));
      const note = await findNoteOrNotFound(noteable, params.note_id);
      const page = await paginate(params, link, awardableAwards(noteAwardable(noteable, note)));
      return ok(await presentAwards(page.items), page.headers);
    },
  }),

  'POST /projects/:id/issues/:issue_iid/notes/:note_id/award_emoji': route({
    params: noteCreateParams,
    handler: async ({ params, user }) => {
      const subject = await findProjectOrNotFound(params.id, user);
      const noteable = issueNoteable(await findIssueOrNotFound(subject, user, params.issue_iid));
      const note = await findNoteOrNotFound(noteable, params.note_id);
      return created(await presentAward(await awardEmoji(noteAwardable(noteable, note), user, params.name, { system: note.system })));
    },
  }),

  'GET /projects/:id/issues/:issue_iid/notes/:note_id/award_emoji/:award_id': route({
    params: noteAwardParams,
    handler: async ({ params, user }) => {
      const subject = await findProjectOrNotFound(params.id, user);
      const noteable = issueNoteable(await findIssueOrNotFound(subject, user, params.issue_iid));
      const note = await findNoteOrNotFound(noteable, params.note_id);
      return ok(await presentAward(await findAwardOrNotFound(noteAwardable(noteable, note), params.award_id)));
    },
  }),

  'DELETE /projects/:id/issues/:issue_iid/notes/:note_id/award_emoji/:award_id': route({
    params: noteAwardParams,
    handler: async ({ params, user }) => {
      const subject = await findProjectOrNotFound(params.id, user);
      const noteable = issueNoteable(await findIssueOrNotFound(subject, user, params.issue_iid));
      const awardable = noteAwardable(noteable, await findNoteOrNotFound(noteable, params.note_id));
      // Who may delete an award is a per-award rule: `deleteAward` checks it.
      await deleteAward(awardable, user, await findAwardOrNotFound(awardable, params.award_id));
      return noContent();
    },
  }),
} satisfies RoutesOf<typeof catalog.award_emoji>;
