/** The members feature's HTTP slice: direct members of groups and projects (for the Lambda entries in `functions/`). */
import { projectAccessTokenRoutes } from './access-tokens';
import { groupMemberRoutes, projectMemberRoutes } from './members';
import { membershipRoutes } from './memberships';

export const routes = {
  members: { ...groupMemberRoutes, ...projectMemberRoutes, ...projectAccessTokenRoutes },
  users: membershipRoutes,
};
