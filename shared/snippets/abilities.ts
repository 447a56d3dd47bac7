/**
 * The snippets feature's project abilities (assembled by `shared/auth/policy.ts`), as GitLab's
 * `ProjectPolicy` declares them; the rules that need the snippet itself (author, visibility) are
 * in `policy.ts`, built on these.
 */
import { featureOpen, GUEST, MAINTAINER, REPORTER, type Abilities, type ProjectRule } from '../auth/rules';

export const abilities = {
  project: {
    /** The project's snippets feature is open to the caller (GitLab's `feature_available?(:snippets)`; else 403). */
    read_snippets: (user, s) => featureOpen(user, s, 'snippets'),
    /** Reporters and above create snippets (GitLab's `create_snippet`: guests cannot). */
    create_snippet: (user, s) => featureOpen(user, s, 'snippets') && s.access.level >= REPORTER,
    /** Members see every snippet of the project, private ones included. */
    read_all_snippets: (_user, s) => s.access.level >= GUEST,
    /** Maintainers edit and delete others' snippets (GitLab's `update_project_snippet`/`admin_project_snippet` on the project). */
    admin_snippets: (_user, s) => s.access.level >= MAINTAINER,
    /** An author deletes its own snippet only while a reporter or above. */
    delete_own_snippet: (_user, s) => s.access.level >= REPORTER,
  } satisfies Record<string, ProjectRule>,
} satisfies Abilities;
