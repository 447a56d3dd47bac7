/**
 * The deploy keys feature's abilities (assembled by `shared/auth/policy.ts`), as GitLab's API
 * checks them: the instance's list and its public keys are the admins' (`authenticated_as_admin!`);
 * a project's keys its maintainers' (`authorize_admin_project`).
 */
import { isAdmin, MAINTAINER, type Abilities, type GlobalRule, type ProjectRule } from '../auth/rules';

export const abilities = {
  global: {
    /** List every deploy key of the instance, create public (instance-wide) ones. */
    admin_instance_deploy_keys: isAdmin,
  } satisfies Record<string, GlobalRule>,
  project: {
    /** Read, add, edit, enable and remove a project's deploy keys. */
    admin_deploy_keys: (_user, s) => s.access.level >= MAINTAINER,
  } satisfies Record<string, ProjectRule>,
} satisfies Abilities;
