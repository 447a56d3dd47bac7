/** The Users endpoint group: users, SSH keys, emails, impersonation tokens, activities. */
import { createGroupHandler } from '../../shared/http/group-handler';
import { emailRoutes } from './emails';
import { impersonationTokenRoutes } from './impersonation-tokens';
import { sshKeyRoutes } from './ssh-keys';
import { userRoutes } from './users';

export const handler = createGroupHandler('users', {
  ...userRoutes,
  ...sshKeyRoutes,
  ...emailRoutes,
  ...impersonationTokenRoutes,
});
