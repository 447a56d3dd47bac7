/**
 * What protecting and unprotecting a name does whatever the kind of ref (`ProtectedRef`): the
 * name's length, a name protected already, a project gone meanwhile, a name not protected.
 */
import { RecordNotFoundError, ValidationError } from '../../platform/http/errors';

/** The longest name or pattern protected (GitLab's `ProtectedRef` name, 255 characters). */
const MAX_NAME_LENGTH = 255;

/**
 * Protects a name: `existing` reads it first, so a name protected already is refused (`taken`)
 * before any id is allocated; `insert`'s condition still decides a race. 404 when the project went.
 */
export async function protectName<T>(
  name: string,
  existing: () => Promise<unknown>,
  insert: () => Promise<T | 'exists' | 'project_gone'>,
  taken: () => Error,
): Promise<T> {
  if (name.length > MAX_NAME_LENGTH) throw new ValidationError({ name: [`is too long (maximum is ${MAX_NAME_LENGTH} characters)`] });
  const created = (await existing()) ? 'exists' : await insert();
  if (created === 'exists') throw taken();
  if (created === 'project_gone') throw new RecordNotFoundError();
  return created;
}

/** Unprotects a name; `404 Not found` when it is not protected (any more). */
export async function unprotectName(deleted: Promise<boolean>): Promise<void> {
  if (!(await deleted)) throw new RecordNotFoundError();
}
