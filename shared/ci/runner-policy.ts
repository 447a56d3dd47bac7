/**
 * Who may administer runners (GitLab's `RunnerPolicy` on project runners), apart from `policy.ts`,
 * whose job and pipeline rules read the repository's protected refs: the users function's
 * `POST /user/runners` asks these without loading the repository.
 */
import { can, isAdmin, type ProjectSubject } from '../auth';
import type { Caller } from '../platform/http/context';

/** GitLab's `admin_runner` on a project: create its runners, list and enable them (maintainers). */
export const canAdminRunners = (user: Caller | null, subject: ProjectSubject): boolean => can(user, 'admin_runner', subject);

/**
 * GitLab's `read_runner`, `update_runner`, `assign_runner` and `read_builds` on a project runner:
 * an admin, or a maintainer of one of the projects it is enabled in (`subjects`: those the caller
 * may read). Deleting one also needs it to be enabled in that one project only (the route checks).
 */
export function canAdminRunner(user: Caller | null, subjects: readonly ProjectSubject[]): boolean {
  return isAdmin(user) || subjects.some((subject) => canAdminRunners(user, subject));
}
