/**
 * The deploy tokens feature's abilities (assembled by `shared/auth/policy.ts`), as GitLab's
 * policies: a project's maintainers read, create and delete its tokens; a group's maintainers read
 * its tokens, and only its owners create and delete them.
 */
import { MAINTAINER, OWNER, type Abilities, type GroupRule, type ProjectRule } from '../auth/rules';

const projectMaintainer: ProjectRule = (_user, s) => s.access.level >= MAINTAINER;

export const abilities = {
  project: {
    read_deploy_token: projectMaintainer,
    create_deploy_token: projectMaintainer,
    destroy_deploy_token: projectMaintainer,
  } satisfies Record<string, ProjectRule>,
  group: {
    read_deploy_token: (_user, s) => s.level >= MAINTAINER,
    create_deploy_token: (_user, s) => s.level >= OWNER,
    destroy_deploy_token: (_user, s) => s.level >= OWNER,
  } satisfies Record<string, GroupRule>,
} satisfies Abilities;
