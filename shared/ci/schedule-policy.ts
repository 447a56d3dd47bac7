/**
 * Who may do what with a pipeline schedule (GitLab's `Ci::PipelineSchedulePolicy` and the
 * project abilities it builds on), from the feature's abilities:
 *
 * - `read_pipeline_schedule`: who reads the project's pipelines (`read_build`: reporters, or
 *   everyone who reads the project when `public_jobs` is on).
 * - `create_pipeline_schedule`: who may run pipelines (`update_build`: developers), unless the
 *   schedule's ref is protected from them.
 * - `admin_pipeline_schedule` (delete, take ownership, read and delete its variables):
 *   maintainers (`admin_pipeline`), or its owner while a developer.
 * - `update_pipeline_schedule` (edit, add and change variables): its owner while a developer, or
 *   an admin; nobody from whom its ref is protected (maintainers who do not own it included).
 * - `play_pipeline_schedule`: who may run pipelines, unless the ref is protected from them.
 */
import { can, isAdmin, type ProjectSubject } from '../auth';
import type { Caller } from '../platform/http/context';
import { refOpenTo, type RefProtections } from './git';
import { canReadBuilds, canUpdateBuilds } from './policy';

/** A schedule's full ref as a branch or tag name (`refs/heads/main` → `main`). */
export function refTarget(ref: string): { ref: string; tag: boolean } {
  if (ref.startsWith('refs/tags/')) return { ref: ref.slice('refs/tags/'.length), tag: true };
  if (ref.startsWith('refs/heads/')) return { ref: ref.slice('refs/heads/'.length), tag: false };
  return { ref, tag: false };
}

export const canReadSchedules = (user: Caller | null, subject: ProjectSubject): boolean => canReadBuilds(user, subject);

export const canCreateSchedules = (user: Caller | null, subject: ProjectSubject): boolean => canUpdateBuilds(user, subject);

const ownsSchedule = (user: Caller | null, schedule: { ownerId: number | null }) => user !== null && schedule.ownerId === user.id;

/** GitLab's `admin_pipeline_schedule` (and `read_pipeline_schedule_variables`). */
export function canAdminSchedule(user: Caller | null, subject: ProjectSubject, schedule: { ownerId: number | null }): boolean {
  return can(user, 'admin_pipeline', subject) || (ownsSchedule(user, schedule) && canUpdateBuilds(user, subject));
}

/** Whether the schedule's ref (a full ref, or a name) is open to the user (GitLab's `protected_ref` condition, inverted). */
export function scheduleRefOpen(user: Caller | null, subject: ProjectSubject, ref: string, protections?: RefProtections): Promise<boolean> {
  return refOpenTo(user, subject, refTarget(ref), protections);
}

/** GitLab's `update_pipeline_schedule`: its owner while a developer, or an admin; never on a ref protected from them. */
export async function canUpdateSchedule(user: Caller | null, subject: ProjectSubject, schedule: { ownerId: number | null; ref: string }): Promise<boolean> {
  const allowed = isAdmin(user) || (ownsSchedule(user, schedule) && canUpdateBuilds(user, subject));
  return allowed && (await scheduleRefOpen(user, subject, schedule.ref));
}

/** GitLab's `play_pipeline_schedule`: who may run pipelines, on a ref open to them. */
export async function canPlaySchedule(user: Caller | null, subject: ProjectSubject, schedule: { ref: string }): Promise<boolean> {
  return canUpdateBuilds(user, subject) && (await scheduleRefOpen(user, subject, schedule.ref));
}
