/**
 * What maintainers and admins do to runners through the Runners API: change a runner's settings
 * (GitLab's `UpdateRunnerService`, with the runner model's validations), enable it in one more
 * project (`AssignRunnerService`), disable it in one (`UnassignRunnerService`) and delete it
 * (`UnregisterRunnerService`). Store results become GitLab's answers here.
 */
import { isAdmin } from '../../auth';
import { ApiError, BadRequestError, ForbiddenError, NotFoundError, ValidationError } from '../../platform/http/errors';
import type { Caller } from '../../platform/http/context';
import { deleteRunner, disableRunnerInProject, enableRunnerInProject, runnerByDigest, runnerProjectIds, updateRunner, type Runner, type RunnerChanges } from '../store/runners';

/** GitLab's runner limits (`Ci::Runner` validations). */
const MAX_DESCRIPTION = 1024;
const MAX_NOTE = 1024;
const MAX_TAGS = 50;
const MAX_TAG_LENGTH = 255;
const MIN_TIMEOUT = 600;
/** The database column's range (an integer): larger values are refused rather than stored. */
const MAX_TIMEOUT = 2_147_483_647;

export interface RunnerSettings {
  description?: string;
  active?: boolean;
  tagList?: string[];
  runUntagged?: boolean;
  locked?: boolean;
  accessLevel?: string;
  maximumTimeout?: number;
  maintenanceNote?: string;
}

/** Changes a runner's settings after GitLab's validations (400 `{"message":{field:[...]}}`); 404 when it is gone meanwhile. */
export async function changeRunnerSettings(runner: Runner, settings: RunnerSettings): Promise<Runner> {
  const tags = settings.tagList === undefined ? undefined : [...new Set(settings.tagList.map((tag) => tag.trim()).filter(Boolean))];
  const errors: Record<string, string[]> = {};
  const add = (field: string, message: string) => (errors[field] ??= []).push(message);
  if (settings.description !== undefined && settings.description.length > MAX_DESCRIPTION) add('description', `is too long (maximum is ${MAX_DESCRIPTION} characters)`);
  if (settings.maintenanceNote !== undefined && settings.maintenanceNote.length > MAX_NOTE) add('maintenance_note', `is too long (maximum is ${MAX_NOTE} characters)`);
  if (settings.maximumTimeout !== undefined && settings.maximumTimeout < MIN_TIMEOUT) add('maximum_timeout', 'needs to be at least 10 minutes');
  if (settings.maximumTimeout !== undefined && settings.maximumTimeout > MAX_TIMEOUT) add('maximum_timeout', `must be less than or equal to ${MAX_TIMEOUT}`);
  if (tags && tags.length > MAX_TAGS) add('tags_list', `Too many tags specified. Please limit the number of tags to ${MAX_TAGS}`);
  if (tags?.some((tag) => tag.length > MAX_TAG_LENGTH)) add('tags_list', `tag is too long (maximum is ${MAX_TAG_LENGTH} characters)`);
  const runUntagged = settings.runUntagged ?? runner.runUntagged;
  if ((tags ?? runner.tags ?? []).length === 0 && !runUntagged) add('tags_list', 'can not be empty when runner is not allowed to pick untagged jobs');
  if (Object.keys(errors).length > 0) throw new ValidationError(errors);
  const changes: RunnerChanges = {
    description: settings.description,
    active: settings.active,
    tags,
    runUntagged: settings.runUntagged,
    locked: settings.locked,
    accessLevel: settings.accessLevel,
    maximumTimeout: settings.maximumTimeout,
    maintenanceNote: settings.maintenanceNote,
  };
  const updated = await updateRunner(runner, changes);
  if (!updated) throw new NotFoundError('Runner');
  return updated;
}

/**
 * Enables a runner in a project (the route checked that the caller maintains the project and may
 * assign the runner): a locked runner only by an admin; one already enabled there is a 400.
 */
export async function enableRunner(user: Caller, runner: Runner, projectId: number): Promise<Runner> {
  const admin = isAdmin(user);
  if (!admin && runner.locked) throw new ForbiddenError('Runner is locked');
  const result = await enableRunnerInProject(runner, projectId, { unlockedOnly: !admin });
  if (result === 'already_enabled') throw new BadRequestError('Assign to Validation failed: Runner has already been taken - runner_error');
  if (result === 'locked') throw new ForbiddenError('Runner is locked');
  if (result === 'project_gone') throw new NotFoundError('Project');
  const current = result === 'enabled' ? await runnerByDigest(runner.tokenDigest) : undefined;
  if (!current) throw new NotFoundError('Runner');
  return current;
}

/**
 * Disables a runner in a project: not in its only project, nor its owner project (delete the
 * runner instead), and a locked one only by an admin (GitLab's `UnassignRunnerService`).
 */
export async function disableRunner(user: Caller, runner: Runner, projectId: number): Promise<void> {
  for (let attempt = 0; attempt < 3; attempt++) {
    const ids = runnerProjectIds(runner);
    if (!ids.includes(projectId)) throw new NotFoundError('Runner');
    if (ids.length === 1) throw new ForbiddenError('Only one project associated with the runner. Please remove the runner instead');
    if (projectId === runner.projectId) throw new ForbiddenError('You cannot unassign a runner from the owner project. Delete the runner instead');
    if (runner.locked && !isAdmin(user)) throw new ForbiddenError('Runner is locked');
    const result = await disableRunnerInProject(runner, projectId);
    if (result === 'disabled') return;
    if (result === 'not_enabled') throw new NotFoundError('Runner');
    if (result === 'owner_project') throw new ForbiddenError('You cannot unassign a runner from the owner project. Delete the runner instead');
    // The runner changed meanwhile (another project enabled or disabled): decide again on what it is now.
    const current = await runnerByDigest(runner.tokenDigest);
    if (!current) throw new NotFoundError('Runner');
    runner = current;
  }
  throw new ApiError(409, { message: 'The runner changed while it was being updated; try again' });
}

/**
 * Deletes a runner (its token stops working at once): an admin always; anyone else only a runner
 * enabled in one project (GitLab's `delete_runner` is prevented for a runner of several).
 */
export async function removeRunner(user: Caller, runner: Runner): Promise<void> {
  if (!isAdmin(user) && runnerProjectIds(runner).length > 1) throw new ForbiddenError('Runner associated with more than one project');
  if (!(await deleteRunner(runner.tokenDigest))) throw new NotFoundError('Runner');
}
