/** Parameters of the award emoji routes of issues and their notes (GitLab's `lib/api/award_emoji.rb`). */
import * as z from 'zod';
import { paginationParams } from '../../platform/http/pagination';
import { p, required } from '../../platform/http/params';
import { issuePathParams as issuePath } from './issues.params';

const noteIdParam = { note_id: required(p.int()) };
const awardIdParam = { award_id: required(p.int()) };

export const issueListParams = z.object({ ...issuePath, ...paginationParams });
export const issueCreateParams = z.object({ ...issuePath, name: required(p.string()) });
export const issueAwardParams = z.object({ ...issuePath, ...awardIdParam });

export const noteListParams = z.object({ ...issuePath, ...noteIdParam, ...paginationParams });
export const noteCreateParams = z.object({ ...issuePath, ...noteIdParam, name: required(p.string()) });
export const noteAwardParams = z.object({ ...issuePath, ...noteIdParam, ...awardIdParam });
