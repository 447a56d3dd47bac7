/** Secondary emails of the current user (`/user/emails`) and, for admins, of any user. */
import { deleteEmail, getEmail, listEmails } from '../../shared/data/emails';
import { addEmail } from '../../shared/domain/credentials';
import type { GroupRoutes } from '../../shared/http/route';
import { presentEmail } from '../../shared/presenters/users';
import { credentialRoutes } from './credential-routes';
import { emailParams } from './params';

export const emailRoutes = credentialRoutes('emails', 'email_id', {
  name: 'Email',
  createParams: emailParams,
  list: listEmails,
  get: getEmail,
  add: (user, params) => addEmail(user, params.email),
  remove: deleteEmail,
  present: presentEmail,
}) satisfies GroupRoutes<'users'>;
