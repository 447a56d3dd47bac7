/**
 * The releases feature's abilities (assembled by `shared/auth/policy.ts`), as GitLab's
 * `ProjectPolicy` names them: whoever reads the project reads its releases (anonymous callers of
 * a public project too); developers create, edit and delete them (`ReleasePolicy` delegates to the
 * project) unless the project is archived. `ReleasePolicy` also prevents the writes on a tag the
 * caller may not create (protected tags): `policy.ts`, which reads the tag's protections.
 */
import { DEVELOPER, readsProject, type Abilities, type ProjectRule } from '../auth/rules';

const writeRelease: ProjectRule = (user, s) => user !== null && !s.project.archived && s.access.level >= DEVELOPER;

export const abilities = {
  project: {
    read_release: readsProject,
    create_release: writeRelease,
    update_release: writeRelease,
    destroy_release: writeRelease,
  } satisfies Record<string, ProjectRule>,
} satisfies Abilities;
