/**
 * The Terraform states feature's project abilities (assembled by `shared/auth/policy.ts`), as
 * GitLab's `ProjectPolicy` and roles declare them: developers read states (`terraform plan
 * -lock=false`), maintainers write, lock, unlock and delete them (`admin_terraform_state`).
 */
import { DEVELOPER, MAINTAINER, readsProject, type Abilities, type ProjectRule } from '../auth/rules';

export const abilities = {
  project: {
    /** GitLab's `read_terraform_state`: developers and above. */
    read_terraform_state: (user, s) => readsProject(user, s) && s.access.level >= DEVELOPER,
    /** GitLab's `admin_terraform_state`: maintainers and above (store a version, lock, unlock, delete). */
    admin_terraform_state: (user, s) => readsProject(user, s) && s.access.level >= MAINTAINER,
  } satisfies Record<string, ProjectRule>,
} satisfies Abilities;
