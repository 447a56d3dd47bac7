/**
 * `find…OrNotFound` helpers: 404 when the thing does not exist *or the caller may not see it*
 * (a private group is never revealed by a 403). They are the only way routes look things up by
 * a client-supplied id or URL-encoded path, and they resolve the caller's access once.
 */
import { groupAccessFor, can, type GroupSubject } from '../auth';
import type { User } from '../users';
import { NotFoundError } from '../platform/http/errors';
import { findNamespaceByPath, getNamespace, type Namespace } from './store/namespaces';

/** Whether a client-supplied `:id` is a numeric id (else a URL-encoded full path). */
export const isNumericId = (idOrPath: string | number) => typeof idOrPath === 'number' || /^\d+$/.test(idOrPath);

/** A namespace (user or group) by id or full path, without access checks. */
export async function findNamespace(idOrPath: string | number): Promise<Namespace | undefined> {
  return isNumericId(idOrPath) ? getNamespace(Number(idOrPath)) : findNamespaceByPath(String(idOrPath));
}

/** The group the caller may read, with the caller's level in it; 404 otherwise. */
export async function findGroupOrNotFound(idOrPath: string | number, user: User | null): Promise<GroupSubject> {
  const namespace = await findNamespace(idOrPath);
  if (namespace?.kind === 'group') {
    const subject: GroupSubject = { kind: 'group', group: namespace, level: await groupAccessFor(user, namespace) };
    if (can(user, 'read_group', subject)) return subject;
  }
  throw new NotFoundError('Group');
}
