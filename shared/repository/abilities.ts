/** The repository feature's abilities (assembled by `shared/auth/policy.ts`), as GitLab's project policy names them. */
import { DEVELOPER, MAINTAINER, readsProject, REPORTER, type Abilities, type ProjectRule } from '../auth/rules';

/** Guests of a private project read its issues, not its code; whoever reads a public or internal project reads its code. */
const downloadCode: ProjectRule = (user, s) => readsProject(user, s) && (s.project.visibility !== 'private' || s.access.level >= REPORTER);

export const abilities = {
  project: {
    /** Clone, fetch, read files, commits, branches and tags. */
    download_code: downloadCode,
    /** Push to unprotected branches, create branches, tags and commits. */
    push_code: (_user, s) => !s.project.archived && s.access.level >= DEVELOPER,
    /** Push to protected branches, protect and unprotect branches, delete protected tags. */
    admin_protected_branches: (_user, s) => !s.project.archived && s.access.level >= MAINTAINER,
  } satisfies Record<string, ProjectRule>,
} satisfies Abilities;
