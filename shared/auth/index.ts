export { groupAccessFor, prefetchProjectAccess, projectAccessFor, projectAccessForMany, registerNamespaceSource, type GroupLink, type ProjectAccessGuess } from './access';
export { authorize, can, type Ability } from './policy';
export {
  ACCESS_LEVELS,
  DEVELOPER,
  featureAccessLevel,
  GROUP_ACCESS_LEVELS,
  MAINTAINER,
  OWNER,
  PROJECT_ACCESS_LEVELS,
  PROJECT_FEATURES,
  isAdmin,
  type FeatureAccessLevel,
  type GroupSubject,
  type ProjectFeature,
  type ProjectSubject,
} from './rules';
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
