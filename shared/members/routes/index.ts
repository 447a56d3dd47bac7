/** The members feature's HTTP slice: direct members of groups and projects, and their access tokens (for the Lambda entries in `functions/`). */
import { groupAccessTokenRoutes, projectAccessTokenRoutes } from './access-tokens';
import { groupMemberRoutes, projectMemberRoutes } from './members';
import { membershipRoutes } from './memberships';

export const routes = {
  members: { ...groupMemberRoutes, ...projectMemberRoutes, ...projectAccessTokenRoutes },
  groups: groupAccessTokenRoutes,
  users: membershipRoutes,
};
