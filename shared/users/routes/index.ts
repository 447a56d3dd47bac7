/** The users feature's HTTP slice, by endpoint group (for the Lambda entries in `functions/`). */
import { emailRoutes } from './emails';
import { gpgKeyRoutes } from './gpg-keys';
import { impersonationTokenRoutes } from './impersonation-tokens';
import { personalAccessTokenRoutes } from './personal-access-tokens';
import { sshKeyRoutes } from './ssh-keys';
import { statusRoutes } from './status';
import { stateRoutes } from './states';
import { followRoutes } from './follows';
import { userRoutes } from './users';

export const routes = {
  users: { ...userRoutes, ...sshKeyRoutes, ...gpgKeyRoutes, ...emailRoutes, ...impersonationTokenRoutes, ...personalAccessTokenRoutes, ...statusRoutes, ...stateRoutes, ...followRoutes },
};
