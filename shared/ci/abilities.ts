/**
 * The CI feature's abilities on a project and on a group, as GitLab's `ProjectPolicy` and `GroupPolicy` name them. Pure rules,
 * written with `shared/auth/rules.ts`, assembled by `shared/auth/policy.ts` (admins may do all).
 */
import { DEVELOPER, featureOpen, MAINTAINER, OWNER, readsProject, REPORTER, type Abilities, type GroupRule, type ProjectRule } from '../auth/rules';

/**
 * See the project's pipelines, jobs, traces and artifacts: reporters and above, or everyone who
 * reads the project when `public_jobs` is on; nobody when CI is off for the project (members only when `private`).
 */
const readBuild: ProjectRule = (user, s) => featureOpen(user, s, 'builds') && (s.access.level >= REPORTER || s.project.publicJobs);

export const abilities = {
  project: {
    read_build: readBuild,
    /** Run pipelines; cancel, retry and play jobs: who may push (developers), in a project not archived. */
    update_build: (user, s) => readBuild(user, s) && !s.project.archived && s.access.level >= DEVELOPER,
    /** Erase any job (the job's own user may erase it too: `canEraseBuild`). */
    erase_build: (user, s) => readBuild(user, s) && !s.project.archived && s.access.level >= MAINTAINER,
    /** Delete artifacts before they expire, a job's or every job's of the project (GitLab's `destroy_artifacts`): maintainers, in a project not archived. */
    destroy_artifacts: (user, s) => readBuild(user, s) && !s.project.archived && s.access.level >= MAINTAINER,
    /** Administer builds (GitLab's `admin_build`): manage the project's pipeline trigger tokens (`manage_trigger`). Maintainers, in a project not archived. */
    admin_build: (user, s) => readBuild(user, s) && !s.project.archived && s.access.level >= MAINTAINER,
    /** See a commit's statuses (`GET …/repository/commits/:sha/statuses`): who sees the builds. */
    read_commit_status: readBuild,
    /** Report a commit's status (`POST /projects/:id/statuses/:sha`): developers, in a project not archived. */
    create_commit_status: (user, s) => readBuild(user, s) && !s.project.archived && s.access.level >= DEVELOPER,
    /** Manage the project's runners: maintainers. */
    admin_runner: (_user, s) => s.access.level >= MAINTAINER,
    /** Manage the project's CI/CD variables (`/projects/:id/variables`): maintainers. */
    admin_cicd_variables: (_user, s) => s.access.level >= MAINTAINER,
    /** Administer pipelines (read any pipeline's variables: `read_pipeline_variable`): maintainers who see its builds. */
    admin_pipeline: (user, s) => readBuild(user, s) && s.access.level >= MAINTAINER,
    /** See the project's environments and deployments: reporters and above. */
    read_environment: (user, s) => readsProject(user, s) && s.access.level >= REPORTER,
    /** Create, change, stop and delete environments, and report deployments: developers, in a project not archived. */
    update_environment: (user, s) => readsProject(user, s) && !s.project.archived && s.access.level >= DEVELOPER,
    /** Delete a deployment: maintainers (GitLab's `destroy_deployment`). */
    destroy_deployment: (user, s) => readsProject(user, s) && !s.project.archived && s.access.level >= MAINTAINER,
  } satisfies Record<string, ProjectRule>,
  group: {
    /** Manage the group's CI/CD variables (`/groups/:id/variables`): owners only (`GroupPolicy`'s `owner` rule), not maintainers. */
    admin_cicd_variables: (_user, s) => s.level >= OWNER,
    /** Create, change and delete the group's runners (GitLab's `create_runners`, `admin_group_runners`): owners. */
    admin_runner: (_user, s) => s.level >= OWNER,
    /** List the runners available to the group (`GET /groups/:id/runners`, `read_group_runners`): maintainers and owners. */
    read_group_runners: (_user, s) => s.level >= MAINTAINER,
  } satisfies Record<string, GroupRule>,
} satisfies Abilities;
