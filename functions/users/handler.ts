/** The Users endpoint group: users, SSH keys, emails, impersonation tokens, activities. */
import { createGroupHandler } from '../../shared/platform/group-handler';
import { emailRoutes } from '../../shared/users/routes/emails';
import { impersonationTokenRoutes } from '../../shared/users/routes/impersonation-tokens';
import { sshKeyRoutes } from '../../shared/users/routes/ssh-keys';
import { userRoutes } from '../../shared/users/routes/users';

export const handler = createGroupHandler('users', {
  ...userRoutes,
  ...sshKeyRoutes,
  ...emailRoutes,
  ...impersonationTokenRoutes,
});
