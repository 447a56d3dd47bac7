/** Reads of direct members of groups and projects (`GET /groups/:id/members`, `/projects/:id/members`). */
import { membershipsOf, type MemberSource, type Membership } from '../auth';
import { NotFoundError } from '../platform/http/errors';
import type { User } from '../users';
import { readMember, withUsers, type Member } from './store/members';

/**
 * A direct member of a group or project; 404 `Member Not Found` when the user is not one.
 *
 * @example
 * const member = await findMemberOrNotFound({ kind: 'project', id: 7 }, 42);
 */
export async function findMemberOrNotFound(source: MemberSource, userId: number): Promise<Member> {
  const member = await readMember(source, userId);
  if (!member) throw new NotFoundError('Member');
  return member;
}

/** A membership of a list, with its user once loaded (see {@link listMembers}). */
export interface ListedMember {
  membership: Membership;
  user?: User;
}

/**
 * The direct members of a group or project, by user id ascending, optionally only those whose
 * username or name contains `query` (case-insensitive), for the route to page; the route then
 * loads the page's users with {@link loadUsers}.
 *
 * The membership items of a source are one partition range, read whole: a member list is bounded
 * (thousands at most, where GitLab itself pages the same relation with offsets), so the exact
 * total is always known. Without `query` no user is loaded here (only the page's users are, after
 * paging); with it every member's user is loaded (BatchGetItem, 100 per call) to match names.
 */
export async function listMembers(source: MemberSource, query: string | undefined): Promise<ListedMember[]> {
  const memberships = await membershipsOf(source);
  if (!query) return memberships.map((membership) => ({ membership }));
  const needle = query.toLowerCase();
  return (await withUsers(memberships)).filter(
    ({ user }) => user.username.toLowerCase().includes(needle) || user.name.toLowerCase().includes(needle),
  );
}

/**
 * A page of {@link listMembers} as members: the users not loaded yet are read (one BatchGetItem),
 * and members whose user is gone are left out.
 */
export async function loadUsers(listed: ListedMember[]): Promise<Member[]> {
  if (listed.every((entry): entry is Member => entry.user !== undefined)) return listed;
  return withUsers(listed.map((entry) => entry.membership));
}
