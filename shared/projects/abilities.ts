/** The projects feature's abilities (assembled by `shared/auth/policy.ts`). */
import { isAdmin, MAINTAINER, OWNER, readsProject, REPORTER, type Abilities, type GlobalRule, type ProjectRule } from '../auth/rules';

export const abilities = {
  global: {
    /** Create projects for other users, create and remove fork relations. */
    admin_projects: isAdmin,
    /** Create, edit and delete project topics (GitLab's `authenticated_as_admin!` in `lib/api/topics.rb`). */
    admin_topics: isAdmin,
  } satisfies Record<string, GlobalRule>,
  project: {
    read_project: readsProject,
    fork_project: (user, s) => user !== null && readsProject(user, s) && (s.access.level >= REPORTER || s.project.visibility !== 'private'),
    star_project: (user, s) => user !== null && readsProject(user, s),
    /** Edit settings, manage hooks and members, share with groups. */
    admin_project: (_user, s) => s.access.level >= MAINTAINER,
    /** Owner-only: delete, archive, change visibility, rename the path. */
    remove_project: (_user, s) => s.access.level >= OWNER,
    archive_project: (_user, s) => s.access.level >= OWNER,
    rename_project: (_user, s) => s.access.level >= OWNER,
    change_namespace: (_user, s) => s.access.level >= OWNER,
    change_visibility_level: (_user, s) => s.access.level >= OWNER,
  } satisfies Record<string, ProjectRule>,
} satisfies Abilities;
