export { groupAccessFor, prefetchProjectAccess, projectAccessFor, projectAccessForMany, registerNamespaceSource, type GroupLink, type ProjectAccessGuess } from './access';
export { authorize, can, type Ability } from './policy';
export { ACCESS_LEVELS, DEVELOPER, GROUP_ACCESS_LEVELS, MAINTAINER, OWNER, PROJECT_ACCESS_LEVELS, isAdmin, type GroupSubject, type ProjectSubject } from './rules';
export {
  deleteMembership,
  getMembership,
  isMembershipActive,
  membershipFromItem,
  membershipsOf,
  putNewMembership,
  updateMembership,
  userMemberships,
  type Membership,
} from './store/memberships';
export { membershipCollections, membershipKeys, type MemberSource } from './store/keys';
