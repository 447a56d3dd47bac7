/**
 * What every repository route starts with: the project the caller may see (404 otherwise), the
 * ability the route needs (GitLab's `authorize_read_code!`, `authorize_push_project`, ...), and the
 * repository opened for reading.
 */
import { authorize, type ProjectSubject } from '../../auth';
import { projectFullPath, findProjectOrNotFound, webUrlOf } from '../../projects';
import type { User } from '../../users';
import { ObjectReader } from '../queries/objects';
import { openRepository } from '../repository';

export type RepositoryAbility = 'download_code' | 'push_code' | 'admin_protected_branches';

export interface RepositoryAccess {
  subject: ProjectSubject;
  reader: ObjectReader;
  /** The project's web URL, for `web_url` fields. */
  webUrl: string;
}

/** The project (404 when the caller may not see it), checked for `ability` (403, or 401 when anonymous), with its repository. */
export async function findRepositoryOrNotFound(idOrPath: string, user: User | null, ability: RepositoryAbility = 'download_code'): Promise<RepositoryAccess> {
  const subject = await findProjectOrNotFound(idOrPath, user);
  authorize(user, ability, subject);
  return { subject, reader: new ObjectReader(await openRepository(subject.project)), webUrl: projectWebUrl(subject) };
}

export const projectWebUrl = (subject: ProjectSubject) => webUrlOf(projectFullPath(subject.namespace, subject.project));
