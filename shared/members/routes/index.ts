/** The members feature's HTTP slice: direct members of groups and projects, their access tokens and access requests (for the Lambda entries in `functions/`). */
import { groupAccessRequestRoutes, projectAccessRequestRoutes } from './access-requests';
import { groupAccessTokenRoutes, projectAccessTokenRoutes } from './access-tokens';
import { groupMemberRoutes, projectMemberRoutes } from './members';
import { membershipRoutes } from './memberships';

export const routes = {
  members: { ...groupMemberRoutes, ...projectMemberRoutes, ...projectAccessTokenRoutes },
  groups: { ...groupAccessTokenRoutes, ...groupAccessRequestRoutes },
  projects: projectAccessRequestRoutes,
  users: membershipRoutes,
};
