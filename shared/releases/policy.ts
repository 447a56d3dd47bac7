/**
 * Who may write a release: GitLab's `create_release`, `update_release` and `destroy_release`
 * (`abilities.ts`: developers of a project that is not archived), which `ReleasePolicy` takes
 * away on a tag the caller may not create (a protected tag whose create level they lack).
 */
import { authorize, type ProjectSubject } from '../auth';
import { ForbiddenError } from '../platform/http/errors';
import { TagRules } from '../repository';
import type { User } from '../users';

/**
 * Authorizes a write of the release of `tag` (403 otherwise); one Query (the project's protected
 * tags) once the project-level ability holds, whose protections it answers (creating the tag reuses them).
 * @example
 * await authorizeReleaseWrite(user, 'create_release', subject, params.tag_name);
 */
export async function authorizeReleaseWrite(user: User | null, ability: 'create_release' | 'update_release' | 'destroy_release', subject: ProjectSubject, tag: string): Promise<TagRules> {
  authorize(user, ability, subject);
  const rules = await TagRules.load(subject.project.id);
  if (!rules.canCreate(user, subject, tag)) throw new ForbiddenError();
  return rules;
}
