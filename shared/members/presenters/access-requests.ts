/**
 * GitLab's `AccessRequester` entity: the requester's `UserBasic` fields merged with `requested_at`.
 * Costs nothing beyond the request and user already read.
 */
import { presentUserPublic } from '../../users';
import type { AccessRequester } from '../access-requests';

export function presentAccessRequester({ request, user }: AccessRequester) {
  return { ...presentUserPublic(user), requested_at: request.requestedAt };
}
