/**
 * Who may see and act on a project's pipelines and jobs (GitLab's `read_build`, `update_build`,
 * `erase_build`, `admin_runner`) and on its runners, built from the project abilities: reporters
 * and above read jobs, everyone who reads the project does when `public_jobs` is on; developers
 * (who may push) cancel, retry and play; maintainers, or the developer who started a job, erase
 * it; maintainers manage the runners of their projects.
 */
import { can, isAdmin, MAINTAINER, type ProjectSubject } from '../auth';
import { ForbiddenError, UnauthorizedError } from '../platform/http/errors';
import type { Caller } from '../platform/http/context';

const REPORTER = 20;

export function canReadBuilds(user: Caller | null, subject: ProjectSubject): boolean {
  if (!can(user, 'read_project', subject)) return false;
  if (user?.admin && user.state === 'active') return true;
  if (!subject.project.jobsEnabled) return false;
  return subject.access.level >= REPORTER || subject.project.publicJobs;
}

export function canUpdateBuilds(user: Caller | null, subject: ProjectSubject): boolean {
  return canReadBuilds(user, subject) && can(user, 'push_code', subject);
}

export function canEraseBuild(user: Caller | null, subject: ProjectSubject, job: { userId: number | null }): boolean {
  if (!canUpdateBuilds(user, subject)) return false;
  return subject.access.level >= MAINTAINER || (user?.admin ?? false) || (user !== null && job.userId === user.id);
}

export function canAdminRunners(user: Caller | null, subject: ProjectSubject): boolean {
  return can(user, 'admin_project', subject);
}

/**
 * GitLab's `read_runner`, `update_runner`, `assign_runner` and `read_builds` on a project runner:
 * an admin, or a maintainer of one of the projects it is enabled in (`subjects`: those the caller
 * may read). Deleting one also needs it to be enabled in that one project only (the route checks).
 */
export function canAdminRunner(user: Caller | null, subjects: readonly ProjectSubject[]): boolean {
  return isAdmin(user) || subjects.some((subject) => canAdminRunners(user, subject));
}

/** GitLab's `authorize!`: 403, or 401 for an anonymous caller. */
export function authorizeCi(user: Caller | null, allowed: boolean): void {
  if (allowed) return;
  if (user === null) throw new UnauthorizedError();
  throw new ForbiddenError();
}
