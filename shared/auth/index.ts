export { groupAccessFor, projectAccessFor, projectAccessForMany } from './access';
export { authorize, can, canReadEvent, canReadIssue, canUpdateIssue, isAdmin, type GroupSubject, type ProjectSubject } from './policy';
export { GROUP_ACCESS_LEVELS, OWNER, PROJECT_ACCESS_LEVELS, isMembershipActive, membershipFromItem, putNewMembership, type Membership } from './store/memberships';
export { membershipCollections, membershipKeys, type MemberSource } from './store/keys';
