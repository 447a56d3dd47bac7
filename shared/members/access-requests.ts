/**
 * Access requests to projects and groups (GitLab's `API::AccessRequests`,
 * `Members::RequestAccessService`, `Members::ApproveAccessRequestService`, `AccessRequestsFinder`):
 * a signed-in user who may see a project or group but has no access to it asks for access, when
 * the project or group has `request_access_enabled`; those who manage its members (a project's
 * maintainers and owners, a group's owners, admins) list the requests, approve one (the membership
 * is added with the members feature's `addMember`, so its events are those of any new member) or
 * deny it; the requester may withdraw their own. Refusals are GitLab's 403s; an unknown request is
 * its `404 Not found`.
 */
import { can, DEVELOPER, isAdmin, type GroupSubject, type MemberSource, type ProjectSubject } from '../auth';
import { byKey, getMany } from '../platform/dynamo/batch';
import { ForbiddenError, NotFoundError, RecordNotFoundError } from '../platform/http/errors';
import { userFromItem, userKeys, type User } from '../users';
import { addMember } from './commands';
import { deleteAccessRequest, getAccessRequest, insertAccessRequest, type AccessRequest } from './store/access-requests';
import type { Member } from './store/members';

export { accessRequestList } from './store/access-requests';

/** A project or group, as the caller sees it. */
export type RequestSource = ProjectSubject | GroupSubject;

/** A pending request with its user, as the AccessRequester entity shows both. */
export interface AccessRequester {
  request: AccessRequest;
  user: User;
}

export const sourceOf = (subject: RequestSource): MemberSource =>
  subject.kind === 'project' ? { kind: 'project', id: subject.project.id } : { kind: 'group', id: subject.group.id };

/** GitLab's `admin_member_access_request`: whoever manages the source's members (`admin_project`, `admin_group`). */
export function canManageAccessRequests(user: User, subject: RequestSource): boolean {
  return subject.kind === 'project' ? can(user, 'admin_project', subject) : can(user, 'admin_group', subject);
}

/**
 * GitLab's `request_access`: the source lets users ask (`request_access_enabled`), is not private
 * (one sees a private one only as a member), and the caller has no access to it yet, inherited
 * access included (admins of a project never ask). A pending request of the caller's refuses
 * another (`insertAccessRequest`).
 */
function mayRequestAccess(user: User, subject: RequestSource): boolean {
  if (subject.kind === 'project') {
    return subject.project.requestAccessEnabled && subject.project.visibility !== 'private' && subject.access.level === 0 && !isAdmin(user);
  }
  return subject.group.requestAccessEnabled && subject.group.visibility !== 'private' && subject.level === 0;
}

/** Asks for access to the project or group for `user` (developer, GitLab's default). 403 when it may not ask, or asked already. */
export async function requestAccess(user: User, subject: RequestSource): Promise<AccessRequester> {
  if (!mayRequestAccess(user, subject)) throw new ForbiddenError();
  const source = sourceOf(subject);
  const request: AccessRequest = { sourceKind: source.kind, sourceId: source.id, userId: user.id, accessLevel: DEVELOPER, requestedAt: new Date().toISOString() };
  const result = await insertAccessRequest(request);
  if (result === 'source_gone') throw new NotFoundError(source.kind === 'project' ? 'Project' : 'Group');
  if (result === 'exists') throw new ForbiddenError();
  return { request, user };
}

/** The requests of a page with their users (one BatchGetItem); a request of a deleted user is left out. */
export async function withRequesters(requests: AccessRequest[]): Promise<AccessRequester[]> {
  if (requests.length === 0) return [];
  const find = byKey(await getMany(requests.map((request) => userKeys.user(request.userId))));
  return requests.flatMap((request) => {
    const item = find(userKeys.user(request.userId));
    return item && !item.deleting ? [{ request, user: userFromItem(item) }] : [];
  });
}

/** A user's pending request for the source, or GitLab's `404 Not found`. */
async function findRequestOrNotFound(subject: RequestSource, userId: number): Promise<AccessRequest> {
  const request = await getAccessRequest(sourceOf(subject), userId);
  if (!request) throw new RecordNotFoundError();
  return request;
}

/**
 * Approves a user's request: the user becomes a member at `accessLevel` (default: the level asked
 * for, developer) through `addMember` (its answers: 409 when the user became a member meanwhile,
 * 404 when the user is gone; the request then stays, for denying), then the request is removed.
 * Approving is refused (403) to whoever may not manage the source's members.
 */
export async function approveAccessRequest(actor: User, subject: RequestSource, userId: number, accessLevel: number | undefined): Promise<Member> {
  const request = await findRequestOrNotFound(subject, userId);
  if (!canManageAccessRequests(actor, subject)) throw new ForbiddenError();
  const member = await addMember(sourceOf(subject), { userId, accessLevel: accessLevel ?? request.accessLevel, expiresAt: null }, actor);
  await deleteAccessRequest(request);
  return member;
}

/** Denies a request, or withdraws one's own (GitLab's `withdraw_member_access_request`); 403 for anyone else. */
export async function denyAccessRequest(actor: User, subject: RequestSource, userId: number): Promise<void> {
  const request = await findRequestOrNotFound(subject, userId);
  if (actor.id !== userId && !canManageAccessRequests(actor, subject)) throw new ForbiddenError();
  await deleteAccessRequest(request);
}
