/**
 * Who may see and act on a project's pipelines, jobs and runners: the feature's abilities
 * (`abilities.ts`, assembled with every feature's by `shared/auth/policy.ts`) as the routes ask
 * them, and the one rule that needs a job (its own user may erase it). Runners' rules are in
 * `runner-policy.ts`.
 */
import { can, type ProjectSubject } from '../auth';
import { ForbiddenError, UnauthorizedError } from '../platform/http/errors';
import type { Caller } from '../platform/http/context';
import { refOpenTo } from './git';

export const canReadBuilds = (user: Caller | null, subject: ProjectSubject): boolean => can(user, 'read_build', subject);

export const canUpdateBuilds = (user: Caller | null, subject: ProjectSubject): boolean => can(user, 'update_build', subject);

/**
 * GitLab's `update_build` on a job and `update_pipeline`/`cancel_pipeline` on a pipeline
 * (`Ci::BuildPolicy`, `Ci::PipelinePolicy`): `update_build` on the project (developers), unless
 * the ref it runs for is protected from the user ({@link refOpenTo}).
 */
export async function canUpdateOnRef(user: Caller | null, subject: ProjectSubject, target: { ref: string; tag: boolean }): Promise<boolean> {
  return canUpdateBuilds(user, subject) && (await refOpenTo(user, subject, target));
}

/**
 * GitLab's `erase_build` on a job: maintainers, or the developer whose job it is; neither when its
 * ref is protected from them.
 */
export async function canEraseBuild(user: Caller | null, subject: ProjectSubject, job: { userId: number | null; ref: string; tag: boolean }): Promise<boolean> {
  const allowed = can(user, 'erase_build', subject) || (user !== null && job.userId === user.id && canUpdateBuilds(user, subject));
  return allowed && (await refOpenTo(user, subject, job));
}

/** GitLab's `destroy_artifacts` (delete a job's or the project's artifacts): maintainers. */
export const canDestroyArtifacts = (user: Caller | null, subject: ProjectSubject): boolean => can(user, 'destroy_artifacts', subject);

/**
 * GitLab's `read_pipeline_variable`: maintainers (`admin_pipeline`), or the developer who
 * triggered the pipeline while they may still update it (its ref not protected from them).
 */
export async function canReadPipelineVariables(user: Caller | null, subject: ProjectSubject, pipeline: { userId: number | null; ref: string; tag: boolean }): Promise<boolean> {
  if (can(user, 'admin_pipeline', subject)) return true;
  return user !== null && pipeline.userId === user.id && (await canUpdateOnRef(user, subject, pipeline));
}

/** GitLab's `manage_trigger` on a project (list, create, delete trigger tokens): `admin_build`, maintainers. */
export const canManageTriggers = (user: Caller | null, subject: ProjectSubject): boolean => can(user, 'admin_build', subject);

/**
 * GitLab's `admin_trigger` on a trigger token (`Ci::TriggerPolicy`): its owner, while they may
 * manage the project's triggers. Only they see the whole token and may change it; admins included.
 */
export function canAdminTrigger(user: Caller | null, subject: ProjectSubject, trigger: { ownerId: number }): boolean {
  return user !== null && trigger.ownerId === user.id && canManageTriggers(user, subject);
}

/**
 * GitLab's `authorize!` behind the `authenticate!` of its jobs and runners APIs (and of every
 * write): 403, or 401 for an anonymous caller.
 */
export function authorizeCi(user: Caller | null, allowed: boolean): void {
  if (allowed) return;
  if (user === null) throw new UnauthorizedError();
  throw new ForbiddenError();
}

/**
 * GitLab's `authorize!` on a read of its pipelines API, which authenticates writes only
 * (`authenticate_non_get!`): 403 whoever asks, anonymous callers of a public project included.
 */
export function authorizePipelineRead(allowed: boolean): void {
  if (!allowed) throw new ForbiddenError();
}
