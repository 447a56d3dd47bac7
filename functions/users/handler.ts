import { userRunnerRoutes } from '../../shared/ci/routes/user-runners';
import { routes as deployKeys } from '../../shared/deploy-keys/routes';
import { routes as members } from '../../shared/members/routes';
import { routes as projects } from '../../shared/projects/routes';
import { routes as users } from '../../shared/users/routes';
import { apiHandler } from '../api';

// Runners created by users (`POST /user/runners`): the CI feature's route in this group, its creation loaded on first use; the deploy keys of the projects a user and the caller maintain.
export const routes = { ...users.users, ...projects.users, ...members.users, ...userRunnerRoutes, ...deployKeys.users };
export const handler = apiHandler('users', routes);
