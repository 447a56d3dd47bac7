/** The groups feature's abilities (assembled by `shared/auth/policy.ts`). */
import { isAdmin, MAINTAINER, OWNER, visibleTo, type Abilities, type GlobalRule, type GroupRule } from '../auth/rules';

export const abilities = {
  global: {
    /** Create a top-level group. */
    create_group: (user) => user !== null && (user.canCreateGroup || isAdmin(user)),
  } satisfies Record<string, GlobalRule>,
  group: {
    read_group: (user, s) => visibleTo(user, s.group.visibility, s.level),
    create_projects: (_user, s) => s.level >= MAINTAINER,
    /** Owner-only: edit and delete the group, manage its members, create subgroups. */
    admin_group: (_user, s) => s.level >= OWNER,
  } satisfies Record<string, GroupRule>,
} satisfies Abilities;
