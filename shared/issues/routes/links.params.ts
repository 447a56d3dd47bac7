/** Parameters of the issue link routes (GitLab's `lib/api/issue_links.rb`). */
import * as z from 'zod';
import { p, required } from '../../platform/http/params';
import { issuePathParams } from './issues.params';

/** `POST .../links`: the target issue by its project (id or full path) and iid; `relates_to` by default. */
export const createLinkParams = z.object({
  ...issuePathParams,
  target_project_id: required(p.string()),
  target_issue_iid: required(p.int()),
  link_type: p.oneOf(['relates_to', 'blocks', 'is_blocked_by']).transform((v) => v ?? 'relates_to'),
});

/** `GET`/`DELETE .../links/:issue_link_id`. */
export const linkParams = z.object({ ...issuePathParams, issue_link_id: required(p.int()) });

export const listLinksParams = z.object(issuePathParams);
