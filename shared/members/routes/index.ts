/** The members feature's HTTP slice: direct members of groups and projects (for the Lambda entries in `functions/`). */
import { groupMemberRoutes, projectMemberRoutes } from './members';
import { membershipRoutes } from './memberships';

export const routes = {
  members: { ...groupMemberRoutes, ...projectMemberRoutes },
  users: membershipRoutes,
};
