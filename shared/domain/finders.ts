/**
 * `find…OrNotFound` helpers: 404 when the thing does not exist (or the caller may not know it
 * does). They are the only way routes look things up by a client-supplied id.
 */
import { getUser, type User } from '../data/users';
import { NotFoundError } from '../http/errors';

export async function findUserOrNotFound(id: number): Promise<User> {
  const user = await getUser(id);
  if (!user) throw new NotFoundError('User');
  return user;
}
