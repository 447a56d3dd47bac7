/** What the merge request routes share: the merge request their path names. */
import { findProjectOrNotFound } from '../../projects';
import { mergeRequestNoteable } from '../issuables';
import { findMergeRequestOrNotFound } from '../queries/merge-requests';

/**
 * The merge request a route's path names (`:id`, `:merge_request_iid`) as the caller may see it
 * (404 otherwise), with its target project (`subject`) and as a noteable.
 * @example
 * const { subject, mr, noteable } = await findMergeRequestOf(params, user);
 */
export async function findMergeRequestOf(params: { id: string; merge_request_iid: number }, user: Parameters<typeof findProjectOrNotFound>[1]) {
  const subject = await findProjectOrNotFound(params.id, user);
  const mr = await findMergeRequestOrNotFound(subject, user, params.merge_request_iid);
  return { subject, mr, noteable: mergeRequestNoteable(mr) };
}
