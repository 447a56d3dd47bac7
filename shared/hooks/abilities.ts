/**
 * The hooks feature's abilities (assembled by `shared/auth/policy.ts`): system hooks are the
 * admins' (GitLab's `read_web_hook` / `admin_web_hook`, both admin-only). A project's hooks need
 * `admin_project` (the projects feature's).
 */
import { isAdmin, type Abilities, type GlobalRule } from '../auth/rules';

export const abilities = {
  global: {
    /** List, read, add, edit, test and remove the instance's system hooks. */
    admin_system_hooks: isAdmin,
  } satisfies Record<string, GlobalRule>,
} satisfies Abilities;
