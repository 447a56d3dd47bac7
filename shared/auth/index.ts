export { groupAccessFor, projectAccessFor, projectAccessForMany } from './access';
export { authorize, can, canReadEvent, canReadIssue, canUpdateIssue, isAdmin } from './policy';
export type { GroupSubject, ProjectSubject } from './policy';
export { GROUP_ACCESS_LEVELS, OWNER, PROJECT_ACCESS_LEVELS, isMembershipActive, membershipFromItem, ownerCountUpdate, putNewMembership } from './store/memberships';
export type { Membership } from './store/memberships';
