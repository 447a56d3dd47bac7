import { removeAllMembershipsOf } from '../../shared/members';
import { routes as members } from '../../shared/members/routes';
import { forgetUser } from '../../shared/projects';
import { routes as projects } from '../../shared/projects/routes';
import { removeWithUser } from '../../shared/users';
import { routes as users } from '../../shared/users/routes';
import { apiHandler } from '../api';

// Deleting a user also removes what it has in the features that build on users: its personal
// projects and stars, then its memberships (users cannot import them; this entry wires them).
removeWithUser(forgetUser, (user) => removeAllMembershipsOf(user.id));

export const routes = { ...users.users, ...projects.users, ...members.users };
export const handler = apiHandler('users', routes);
