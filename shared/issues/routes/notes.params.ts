/** Parameters of the issue note routes (GitLab's `lib/api/notes.rb`). */
import * as z from 'zod';
import { paginationParams } from '../../platform/http/pagination';
import { p, required } from '../../platform/http/params';
import { issuePathParams as issuePath } from './issues.params';
import { NOTE_BODY_LIMIT } from './params';

const noteIdParam = { note_id: required(p.int()) };

/** `GET .../notes`: newest first by `created_at` unless told otherwise. */
export const listParams = z.object({
  ...issuePath,
  ...paginationParams,
  order_by: p.oneOf(['created_at', 'updated_at']).transform((v) => v ?? 'created_at'),
  sort: p.oneOf(['asc', 'desc']).transform((v) => v ?? 'desc'),
});

export const createParams = z.object({ ...issuePath, body: required(p.string(NOTE_BODY_LIMIT)) });

export const noteParams = z.object({ ...issuePath, ...noteIdParam });

export const updateParams = z.object({ ...issuePath, ...noteIdParam, body: required(p.string(NOTE_BODY_LIMIT)) });
