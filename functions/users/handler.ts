import { userRunnerRoutes } from '../../shared/ci/routes/user-runners';
import { routes as members } from '../../shared/members/routes';
import { routes as projects } from '../../shared/projects/routes';
import { routes as users } from '../../shared/users/routes';
import { apiHandler } from '../api';

// Runners created by users (`POST /user/runners`): the CI feature's route in this group, its creation loaded on first use.
export const routes = { ...users.users, ...projects.users, ...members.users, ...userRunnerRoutes };
export const handler = apiHandler('users', routes);
