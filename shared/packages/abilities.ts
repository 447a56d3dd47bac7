/**
 * The packages feature's abilities (assembled by `shared/auth/policy.ts`), as GitLab's
 * `ProjectPolicy` names them: whoever reads a public or internal project reads its packages, a
 * private project's need reporters and up; developers publish (`create_package`), maintainers
 * delete (`destroy_package`). A job's token acts as its user; a deploy token is no user and is
 * decided by its scopes and reach (`routes/access.ts`).
 */
import { DEVELOPER, MAINTAINER, readsProject, REPORTER, type Abilities, type ProjectRule } from '../auth/rules';

export const abilities = {
  project: {
    read_package: (user, s) => readsProject(user, s) && (s.project.visibility !== 'private' || s.access.level >= REPORTER),
    create_package: (user, s) => user !== null && s.access.level >= DEVELOPER,
    destroy_package: (user, s) => user !== null && s.access.level >= MAINTAINER,
  } satisfies Record<string, ProjectRule>,
} satisfies Abilities;
