/** A user by id, or GitLab's `404 User Not Found`. */
import { NotFoundError } from '../platform/http/errors';
import { getUser, type User } from './store/users';

export async function findUserOrNotFound(id: number): Promise<User> {
  const user = await getUser(id);
  if (!user) throw new NotFoundError('User');
  return user;
}
