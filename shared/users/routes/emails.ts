/** Secondary emails of the current user (`/user/emails`) and, for admins, of any user. */
import { p, required } from '../../platform/http/params';
import type { RoutesOf } from '../../platform/http/route';
import type { catalog } from '../catalog';
import { addEmail, deleteEmail } from '../commands/credentials';
import { presentEmail } from '../presenters/users';
import { getEmail, listEmails } from '../queries/credentials';
import { credentialRoutes } from './credentials';
import { EMAIL_LIMIT } from './users.params';

export const emailRoutes = credentialRoutes('emails', 'email_id', {
  name: 'Email',
  createParams: { email: required(p.string(EMAIL_LIMIT)) },
  list: listEmails,
  get: getEmail,
  add: (user, params) => addEmail(user, params.email),
  remove: deleteEmail,
  present: presentEmail,
}) satisfies RoutesOf<typeof catalog.users>;
