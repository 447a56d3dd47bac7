/** The users feature's abilities (assembled by `shared/auth/policy.ts`). */
import { isAdmin, type Abilities, type GlobalRule } from '../auth/rules';

export const abilities = {
  global: {
    /** Create, modify, delete, block users; manage other users' keys, emails, tokens; see activities. */
    admin_users: isAdmin,
    /** See admin-only fields and filters of users (email, identities, `external`, `extern_uid`). */
    read_users_admin_fields: isAdmin,
    /** List all users (`GET /users` without `username`): any signed-in user. */
    read_users_list: (user) => user !== null,
  } satisfies Record<string, GlobalRule>,
} satisfies Abilities;
