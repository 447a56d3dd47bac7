/**
 * Scope `users` (GitLab's `SearchResults#users` through `UsersFinder`, entity `UserBasic`): the
 * users whose name or username match (admins: the email too), from the users' search entries
 * (U22, the list of `GET /users?search=`); nothing for a caller who may not list users.
 */
import { can } from '../../auth';
import { listUsers, presentUserPublic } from '../../users';
import type { SearchInput, SearchLevel, SearchPage } from '../search';
import { emptyPage, pageOf } from './pages';

export async function searchUsers(_level: SearchLevel, input: SearchInput): Promise<SearchPage> {
  if (!can(input.user, 'read_users_list')) return emptyPage(input);
  const page = await pageOf(input, await listUsers({ search: input.search }, { searchEmails: can(input.user, 'read_users_admin_fields') }));
  return { items: page.items.map(presentUserPublic), headers: page.headers };
}
