/** Reads of direct members of groups and projects (`GET /groups/:id/members`, `/projects/:id/members`). */
import { isMembershipActive, membershipsOf, OWNER, type MemberSource, type Membership, type ProjectSubject } from '../auth';
import { NotFoundError } from '../platform/http/errors';
import type { User } from '../users';
import { getLiveUser, readMember, withUsers, type Member } from './store/members';

/**
 * The member a personal project has without a membership item: its namespace's owner, at access
 * level 50. GitLab stores it as a member row when it creates the project (`Projects::CreateService`
 * adds the namespace owner: `add_owner`; 9.x added them as master), so the Members API lists it
 * (`GET /projects/:id/members`: `source.users` / `source_members`) and finds it
 * (`GET /projects/:id/members/:user_id`: `source.members.find_by!`). Here the owner's access comes
 * from the namespace (`projectAccessFor`), so the entry is derived: from the project's creation,
 * without expiry. Undefined for a group's project.
 */
export function personalProjectOwner({ project, namespace }: ProjectSubject): Membership | undefined {
  if (namespace.kind !== 'user' || namespace.ownerId === null) return undefined;
  return {
    sourceKind: 'project',
    sourceId: project.id,
    userId: namespace.ownerId,
    accessLevel: OWNER,
    expiresAt: null,
    createdAt: project.createdAt,
    createdById: project.creatorId,
  };
}

/**
 * A direct member of a group or project; 404 `Member Not Found` when the user is not one.
 * `implicit` is a member the source has without a membership item ({@link personalProjectOwner}),
 * which stands for that user.
 *
 * @example
 * const member = await findMemberOrNotFound({ kind: 'project', id: 7 }, 42);
 */
export async function findMemberOrNotFound(source: MemberSource, userId: number, implicit?: Membership): Promise<Member> {
  if (implicit && implicit.userId === userId) {
    const user = await getLiveUser(userId);
    if (user) return { membership: implicit, user };
  }
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
 * loads the page's users with {@link loadUsers}. `implicit` ({@link personalProjectOwner}) is
 * listed in its place, instead of any membership item of the same user.
 *
 * The membership items of a source are one partition range, read whole: a member list is bounded
 * (thousands at most, where GitLab itself pages the same relation with offsets), so the exact
 * total is always known. Without `query` no user is loaded here (only the page's users are, after
 * paging); with it every member's user is loaded (BatchGetItem, 100 per call) to match names.
 */
export async function listMembers(source: MemberSource, query: string | undefined, implicit?: Membership): Promise<ListedMember[]> {
  const stored = await membershipsOf(source);
  const memberships = implicit
    ? [...stored.filter((m) => m.userId !== implicit.userId), implicit].sort((a, b) => a.userId - b.userId)
    : stored;
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

/** A source whose members are members of another (an ancestor group, a group a project is shared with). */
export interface InheritedSource {
  source: MemberSource;
  /** The highest level it gives (a share's `group_access`); none for an ancestor group. */
  cap?: number;
}

/**
 * Every member of a group or project, inherited ones included (`GET …/members/all`): its direct
 * members and those of `inherited` (its ancestor groups; for a project also the groups it is
 * shared with, capped at the share's level), each user once with the highest level it has, the
 * direct membership on a tie (GitLab's `MembersFinder` with `inherited`, `direct` and
 * `invited_groups`). Expired memberships give nothing, as in access checks. By user id, for the
 * route to page; `query` as {@link listMembers}. Reads each source's range whole: the chain is at
 * most GitLab's 20 nesting levels plus the project's shares, and member lists are bounded.
 */
export async function listAllMembers(source: MemberSource, inherited: InheritedSource[], query: string | undefined, implicit?: Membership): Promise<ListedMember[]> {
  const [direct, ...others] = await Promise.all([listMembers(source, query, implicit), ...inherited.map(({ source }) => listMembers(source, query))]);
  const best = new Map<number, ListedMember>();
  const consider = (entry: ListedMember, cap: number = OWNER) => {
    if (!isMembershipActive(entry.membership)) return;
    const membership = entry.membership.accessLevel > cap ? { ...entry.membership, accessLevel: cap } : entry.membership;
    const current = best.get(membership.userId);
    if (!current || membership.accessLevel > current.membership.accessLevel) best.set(membership.userId, { ...entry, membership });
  };
  direct.forEach((entry) => consider(entry));
  others.forEach((entries, index) => entries.forEach((entry) => consider(entry, inherited[index].cap)));
  return [...best.values()].sort((a, b) => a.membership.userId - b.membership.userId);
}
