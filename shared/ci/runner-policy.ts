/**
 * Who may administer runners (GitLab's `RunnerPolicy` on project runners), apart from `policy.ts`,
 * whose job and pipeline rules read the repository's protected refs: the users function's
 * `POST /user/runners` asks these without loading the repository.
 */
import { can, isAdmin, type GroupSubject, type ProjectSubject } from '../auth';
import type { Caller } from '../platform/http/context';

/** GitLab's `create_runners`/`admin_group_runners` on a group: create, change and delete its runners (owners). */
export const canAdminGroupRunners = (user: Caller | null, subject: GroupSubject): boolean => can(user, 'admin_runner', subject);

/** GitLab's `create_instance_runner`, and every right on instance runners: administrators. */
export const canAdminInstanceRunners = (user: Caller | null): boolean => isAdmin(user);

/** GitLab's `admin_runner` on a project: create its runners, list and enable them (maintainers). */
export const canAdminRunners = (user: Caller | null, subject: ProjectSubject): boolean => can(user, 'admin_runner', subject);

/**
 * GitLab's `read_runner`, `update_runner`, `assign_runner` and `read_builds` on a runner: an
 * admin; for a project runner a maintainer of one of the projects it is enabled in (`subjects`:
 * those the caller may read; deleting one also needs it to be enabled in that one project only,
 * the route checks); for a group runner an owner of its group (`groups`, owners of an ancestor
 * included); for an instance runner nobody else.
 */
export function canAdminRunner(user: Caller | null, subjects: readonly ProjectSubject[], groups: readonly GroupSubject[] = []): boolean {
  return isAdmin(user) || subjects.some((subject) => canAdminRunners(user, subject)) || groups.some((group) => canAdminGroupRunners(user, group));
}
