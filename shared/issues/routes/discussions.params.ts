/** Parameters of the issue discussion routes (GitLab's `lib/api/discussions.rb`). */
import * as z from 'zod';
import { paginationParams } from '../../platform/http/pagination';
import { p, required } from '../../platform/http/params';
import { issuePathParams as issuePath } from './issues.params';
import { NOTE_BODY_LIMIT } from './params';

const discussionIdParam = { discussion_id: required(p.string()) };
const noteIdParam = { note_id: required(p.int()) };

export const listParams = z.object({ ...issuePath, ...paginationParams });

export const discussionParams = z.object({ ...issuePath, ...discussionIdParam });

/** `POST .../discussions`; `created_at` counts only from owners and admins. */
export const createParams = z.object({ ...issuePath, body: required(p.string(NOTE_BODY_LIMIT)), created_at: p.string() });

/** `POST .../discussions/:discussion_id/notes`. */
export const replyParams = z.object({ ...issuePath, ...discussionIdParam, body: required(p.string(NOTE_BODY_LIMIT)), created_at: p.string() });

export const noteParams = z.object({ ...issuePath, ...discussionIdParam, ...noteIdParam });

/** `PUT .../notes/:note_id`: Grape's `exactly_one_of :body, :resolved`. */
export const updateParams = z
  .object({ ...issuePath, ...discussionIdParam, ...noteIdParam, body: p.string(NOTE_BODY_LIMIT), resolved: p.bool() })
  .superRefine((value, ctx) => {
    const given = [value.body, value.resolved].filter((v) => v !== undefined).length;
    if (given === 0) ctx.addIssue({ code: 'custom', message: 'body, resolved are missing, exactly one parameter must be provided' });
    if (given > 1) ctx.addIssue({ code: 'custom', message: 'body, resolved are mutually exclusive' });
  });
