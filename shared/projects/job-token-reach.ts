/**
 * Whether a running CI job's token may reach a project other than its own: GitLab's job token
 * scope (`Ci::JobToken::Scope#accessible?`, inbound). The CI feature (above this one) keeps the
 * scopes and registers the decision through the composition root (`functions/api.ts`); without
 * one, a job token reaches its own project only. Every place a job token is used on another
 * project asks this one function: the API routes that take job tokens ({@link
 * findProjectForJobOrNotFound} in `finders.ts`) and git over HTTP (the repository's smart HTTP).
 */
import type { ProjectSubject } from '../auth';

/** Whether jobs of `sourceProjectId` may use their token on `targetProjectId` (a different project). */
export type JobTokenReachDecider = (sourceProjectId: number, targetProjectId: number) => Promise<boolean>;

let decider: JobTokenReachDecider | undefined;

export function decideJobTokenReachWith(decide: JobTokenReachDecider): void {
  decider = decide;
}

/**
 * Whether the job (of `job.projectId`) may reach `subject`'s project by its scope: its own project
 * always; another only as the CI feature decides. The caller still checks what the job's user may
 * do there (GitLab: the job token has the user's access, within the scope).
 * @example
 * if (!(await jobTokenMayReach(auth.job, subject))) throw new NotFoundError('Project');
 */
export async function jobTokenMayReach(job: { projectId: number }, subject: ProjectSubject): Promise<boolean> {
  if (job.projectId === subject.project.id) return true;
  return decider ? decider(job.projectId, subject.project.id) : false;
}
