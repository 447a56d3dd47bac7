/** Secondary emails of the current user (`/user/emails`) and, for admins, of any user. */
import { deleteEmail, getEmail, listEmails } from '../store/emails';
import { addEmail } from '../credentials';
import type { RoutesOf } from '../../platform/http/route';
import { presentEmail } from '../presenters/users';
import { credentialRoutes } from './credential-routes';
import { emailParams } from './params';
import type { catalog } from '../catalog';

export const emailRoutes = credentialRoutes('emails', 'email_id', {
  name: 'Email',
  createParams: emailParams,
  list: listEmails,
  get: getEmail,
  add: (user, params) => addEmail(user, params.email),
  remove: deleteEmail,
  present: presentEmail,
}) satisfies RoutesOf<typeof catalog.users>;
