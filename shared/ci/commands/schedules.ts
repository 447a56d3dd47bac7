/**
 * Writes of pipeline schedules (GitLab's `Ci::PipelineSchedules::CreateService`, `UpdateService`,
 * `TakeOwnershipService`, `VariablesCreateService`, `VariablesUpdateService`) and the pipelines
 * they create (`RunPipelineScheduleWorker`, `PipelineScheduleWorker`, `PlayService`).
 *
 * Validation is GitLab's, answered as its model errors (400 `{"message":{"<field>":[…]}}`): a
 * short ref is expanded to the full ref of the one branch or tag of that name, and is
 * `ambiguous` when both or neither exist; `cron` ` is invalid syntax`, `cron_timezone`
 * `syntax is invalid`; a ref protected from the caller refuses the write under `base`. Every
 * save sets the next run anew (GitLab's `before_save :set_next_run_at`). Variable values are
 * sealed here, before they reach the store.
 */
import { openSecret, sealSecret } from '../../platform/crypto/secret-box';
import { BadRequestError, NotFoundError, ValidationError } from '../../platform/http/errors';
import type { Logger } from '../../platform/logger';
import { isId } from '../../platform/dynamo/query';
import type { ProjectSubject } from '../../auth';
import { findProjectOrNotFound, type Project } from '../../projects';
import { openRepository } from '../../repository';
import { getUser, type User } from '../../users';
import { cronTimezoneValid, cronValid, nextRunAt } from '../config/cron';
import type { RefProtections } from '../git';
import type { PipelineVariable } from '../pipeline-variables';
import { canUpdateBuilds } from '../policy';
import { VARIABLE_KEY } from '../queries/variables';
import { refTarget, scheduleRefOpen } from '../schedule-policy';
import type { Pipeline } from '../store/pipelines';
import {
  deleteSchedule,
  getSchedule,
  insertSchedule,
  newScheduleId,
  putSchedule,
  recordSchedulePipeline,
  takeScheduledRun,
  type DueSchedule,
  type Schedule,
  type ScheduleInput,
  type StoredScheduleVariable,
} from '../store/schedules';
import { createPipeline, REFUSALS } from './pipelines';

/** What a client sets on a schedule. */
export interface ScheduleChanges {
  description?: string;
  ref?: string;
  cron?: string;
  cronTimezone?: string;
  active?: boolean;
  /** Inputs to set (by name, replacing a value) or, with `destroy`, to remove. */
  inputs?: ReadonlyArray<{ name: string; value?: unknown; destroy?: boolean }>;
}

/** What a schedule's inputs may take in all, as JSON (its item holds them). */
export const SCHEDULE_INPUTS_MAX_BYTES = 100_000;
/** One input's value, as JSON (GitLab's `PipelineScheduleInput::MAX_VALUE_SIZE`, an interpolation access's limit). */
export const SCHEDULE_INPUT_VALUE_MAX_CHARS = 1024;

/** The inputs `current` becomes with `changes` applied (GitLab's nested attributes: by name, `_destroy` removes). */
function withInputs(current: readonly ScheduleInput[], changes: ScheduleChanges['inputs']): ScheduleInput[] {
  let inputs = [...current];
  for (const change of changes ?? []) {
    const others = inputs.filter((input) => input.name !== change.name);
    if (change.destroy) inputs = others;
    else {
      const at = inputs.findIndex((input) => input.name === change.name);
      const input = { name: change.name, value: change.value ?? null };
      inputs = at === -1 ? [...inputs, input] : inputs.map((existing, i) => (i === at ? input : existing));
    }
  }
  // GitLab's `PipelineScheduleInput`: each value, as JSON, at most the size of an interpolated value. The file's spec is not consulted when saved.
  if (inputs.some((input) => [...JSON.stringify(input.value ?? null)].length > SCHEDULE_INPUT_VALUE_MAX_CHARS)) {
    throw new ValidationError({ 'inputs.value': [`exceeds max serialized size: ${SCHEDULE_INPUT_VALUE_MAX_CHARS} characters`] });
  }
  if (Buffer.byteLength(JSON.stringify(inputs)) > SCHEDULE_INPUTS_MAX_BYTES) throw new BadRequestError(`inputs are too large (maximum is ${SCHEDULE_INPUTS_MAX_BYTES} bytes in all)`);
  return inputs;
}

/** A schedule variable as given. */
export interface ScheduleVariableInput {
  key: string;
  value: string;
  variableType?: 'env_var' | 'file';
}

/** What a schedule's variables may take in all (its item holds them, as a pipeline's does). */
export const SCHEDULE_VARIABLES_MAX_BYTES = 100_000;

/** How GitLab's `not_found!` names a missing schedule and a missing schedule variable. */
export const SCHEDULE_NOT_FOUND = 'Pipeline Schedule';
export const SCHEDULE_VARIABLE_NOT_FOUND = 'Pipeline Schedule Variable';

/** The full ref of a short one: the one branch or tag of that name; undefined when both or neither exist (GitLab's `expand_short_ref`). */
async function expandRef(project: Project, ref: string): Promise<string | undefined> {
  if (/^refs\/(heads|tags)\/\S+/.test(ref)) return ref;
  const repository = await openRepository(project);
  const [branch, tag] = await Promise.all([repository.ref(`refs/heads/${ref}`), repository.ref(`refs/tags/${ref}`)]);
  if (branch && !tag) return `refs/heads/${ref}`;
  if (tag && !branch) return `refs/tags/${ref}`;
  return undefined;
}

/**
 * Validates a schedule as GitLab saves one: the caller may save it on its ref, the ref expands,
 * then the model's validations, all at once. Answers it with its full ref and next run.
 */
async function validated(subject: ProjectSubject, user: User, schedule: Schedule, action: 'create' | 'update'): Promise<Schedule> {
  const ref = await expandRef(subject.project, schedule.ref);
  if (!(await scheduleRefOpen(user, subject, ref ?? schedule.ref))) {
    throw new ValidationError({ base: [`The current user is not authorized to ${action} the pipeline schedule`] });
  }
  if (!ref) throw new ValidationError({ ref: ['is ambiguous'] });
  const errors: Record<string, string[]> = {};
  if (!(await cronValid(schedule.cron))) errors.cron = [' is invalid syntax'];
  if (!cronTimezoneValid(schedule.cronTimezone)) errors.cron_timezone = ['syntax is invalid'];
  if (schedule.description.trim() === '') errors.description = ["can't be blank"];
  if (Object.keys(errors).length > 0) throw new ValidationError(errors);
  return { ...schedule, ref, nextRunAt: await nextRunAt(schedule.cron, schedule.cronTimezone) };
}

/** Creates a schedule owned by `user`. */
export async function createSchedule(subject: ProjectSubject, user: User, input: Required<Pick<ScheduleChanges, 'description' | 'ref' | 'cron'>> & ScheduleChanges): Promise<Schedule> {
  const now = new Date().toISOString();
  const draft: Schedule = {
    id: 0,
    projectId: subject.project.id,
    ownerId: user.id,
    description: input.description,
    ref: input.ref,
    cron: input.cron.trim(),
    cronTimezone: input.cronTimezone ?? 'UTC',
    nextRunAt: null,
    active: input.active ?? true,
    variables: [],
    ...(input.inputs?.length ? { inputs: withInputs([], input.inputs) } : {}),
    createdAt: now,
    updatedAt: now,
    version: 1,
  };
  const schedule = { ...(await validated(subject, user, draft, 'create')), id: await newScheduleId() };
  if (await insertSchedule(schedule)) throw new NotFoundError('Project');
  return schedule;
}

/**
 * Changes a schedule with `change` (given the schedule as read, it answers the new one or
 * throws), written conditioned on the version read, read again and changed again when another
 * write came first. 404 when it is gone.
 */
async function changeSchedule(current: Schedule, change: (schedule: Schedule) => Promise<Schedule>): Promise<Schedule> {
  let schedule: Schedule | undefined = current;
  for (let attempt = 0; attempt < 10 && schedule; attempt++) {
    const next = { ...(await change(schedule)), updatedAt: new Date().toISOString(), version: schedule.version + 1 };
    if (await putSchedule(next, schedule.version)) return next;
    schedule = await getSchedule(current.projectId, current.id);
  }
  throw new NotFoundError(SCHEDULE_NOT_FOUND);
}

/** Edits a schedule (the route authorized `update_pipeline_schedule`); its next run is set anew. */
export function editSchedule(subject: ProjectSubject, user: User, schedule: Schedule, changes: ScheduleChanges): Promise<Schedule> {
  return changeSchedule(schedule, (read) =>
    validated(subject, user, {
      ...read,
      description: changes.description ?? read.description,
      ref: changes.ref ?? read.ref,
      cron: changes.cron?.trim() ?? read.cron,
      cronTimezone: changes.cronTimezone ?? read.cronTimezone,
      active: changes.active ?? read.active,
      ...(changes.inputs || read.inputs ? { inputs: withInputs(read.inputs ?? [], changes.inputs) } : {}),
    }, 'update'),
  );
}

/** Makes `user` the schedule's owner (the route authorized `admin_pipeline_schedule`). */
export function takeOwnership(schedule: Schedule, user: User): Promise<Schedule> {
  return changeSchedule(schedule, async (read) => ({ ...read, ownerId: user.id, nextRunAt: (await nextRunAt(read.cron, read.cronTimezone)) ?? read.nextRunAt }));
}

/** Deletes a schedule; 404 when it went meanwhile. The pipelines it created stay (GitLab nullifies their link). */
export async function removeSchedule(schedule: Schedule): Promise<void> {
  if (!(await deleteSchedule(schedule))) throw new NotFoundError(SCHEDULE_NOT_FOUND);
}

/** GitLab's `Ci::HasVariable` validations of a key and value. */
function checkVariable(variable: { key: string; value: string }): void {
  const errors: string[] = [];
  if (variable.key.length > 255) errors.push('is too long (maximum is 255 characters)');
  if (!VARIABLE_KEY.test(variable.key)) errors.push("can contain only letters, digits and '_'.");
  if (errors.length > 0) throw new ValidationError({ key: errors });
}

const variablesBytes = (variables: ReadonlyArray<{ key: string; value: string }>) => variables.reduce((sum, { key, value }) => sum + Buffer.byteLength(key) + Buffer.byteLength(value), 0);

/** The schedule's variables, opened. */
export const scheduleVariables = (schedule: Pick<Schedule, 'variables'>): Promise<PipelineVariable[]> =>
  Promise.all(schedule.variables.map(async ({ key, variableType, valueSealed }) => ({ key, variableType, value: await openSecret(valueSealed) })));

/** Internal: the variables with `key` set to `variable` (added at the end, or replaced where it is), within the size limit. */
async function withVariable(schedule: Schedule, key: string, variable: { value: string; variableType: 'env_var' | 'file' }): Promise<StoredScheduleVariable[]> {
  const opened = await scheduleVariables(schedule);
  const others = opened.filter((existing) => existing.key !== key);
  if (variablesBytes([...others, { key, value: variable.value }]) > SCHEDULE_VARIABLES_MAX_BYTES) {
    throw new BadRequestError(`variables are too large (maximum is ${SCHEDULE_VARIABLES_MAX_BYTES} bytes in all)`);
  }
  const stored = { key, variableType: variable.variableType, valueSealed: await sealSecret(variable.value) };
  const at = schedule.variables.findIndex((existing) => existing.key === key);
  return at === -1 ? [...schedule.variables, stored] : schedule.variables.map((existing, i) => (i === at ? stored : existing));
}

/** Adds a variable to a schedule; 400 when the key is taken (`has already been taken`) or invalid. */
export async function addScheduleVariable(schedule: Schedule, input: ScheduleVariableInput): Promise<PipelineVariable> {
  checkVariable(input);
  const variableType = input.variableType ?? 'env_var';
  await changeSchedule(schedule, async (read) => {
    if (read.variables.some((variable) => variable.key === input.key)) throw new ValidationError({ key: ['has already been taken'] });
    return { ...read, variables: await withVariable(read, input.key, { value: input.value, variableType }) };
  });
  return { key: input.key, value: input.value, variableType };
}

/** Changes a schedule variable's value or type (each kept when not given); 404 when there is none of that key. */
export async function editScheduleVariable(schedule: Schedule, key: string, changes: { value?: string; variableType?: 'env_var' | 'file' }): Promise<PipelineVariable> {
  let result: PipelineVariable | undefined;
  await changeSchedule(schedule, async (read) => {
    const current = (await scheduleVariables(read)).find((variable) => variable.key === key);
    if (!current) throw new NotFoundError(SCHEDULE_VARIABLE_NOT_FOUND);
    result = { key, value: changes.value ?? current.value, variableType: changes.variableType ?? current.variableType };
    return { ...read, variables: await withVariable(read, key, { value: result.value, variableType: result.variableType as 'env_var' | 'file' }) };
  });
  return result!;
}

/** Deletes a schedule variable; answers it as it was; 404 when there is none of that key. */
export async function removeScheduleVariable(schedule: Schedule, key: string): Promise<PipelineVariable> {
  let removed: PipelineVariable | undefined;
  await changeSchedule(schedule, async (read) => {
    removed = (await scheduleVariables(read)).find((variable) => variable.key === key);
    if (!removed) throw new NotFoundError(SCHEDULE_VARIABLE_NOT_FOUND);
    return { ...read, variables: read.variables.filter((variable) => variable.key !== key) };
  });
  return removed!;
}

/**
 * Creates the schedule's pipeline now, as `user`: source `schedule` on its ref (the branch or tag
 * its full ref names), with its variables as the pipeline's, and records it as the schedule's.
 * Refusals are GitLab's 400s (no such ref, ref protected from the user, no config, no job).
 */
export async function createSchedulePipeline(schedule: Schedule, subject: ProjectSubject, user: User): Promise<Pipeline> {
  if (!canUpdateBuilds(user, subject)) throw new ValidationError({ base: ['Insufficient permissions to create a new pipeline'] });
  const target = refTarget(schedule.ref);
  const found = schedule.ref.startsWith('refs/') ? await (await openRepository(subject.project)).ref(schedule.ref) : undefined;
  if (!found) throw new ValidationError({ base: [REFUSALS.commit_not_found] });
  const protections: RefProtections = new Map();
  if (!(await scheduleRefOpen(user, subject, schedule.ref, protections))) {
    throw new ValidationError({ base: [`You do not have sufficient permission to run a pipeline on '${target.ref}'. Please select a different branch or contact your administrator for assistance.`] });
  }
  const result = await createPipeline({
    project: subject.project,
    ref: target.ref,
    tag: target.tag,
    sha: found.peeled ?? found.oid,
    beforeSha: '',
    source: 'schedule',
    user,
    variables: await scheduleVariables(schedule),
    ...(schedule.inputs?.length ? { inputs: Object.fromEntries(schedule.inputs.map((input) => [input.name, input.value])) } : {}),
    protections,
  });
  if (result.result !== 'created') throw new ValidationError({ base: [REFUSALS[result.result]] });
  await recordSchedulePipeline(schedule.id, result.pipeline.id, schedule.projectId);
  return result.pipeline;
}

/**
 * `POST …/play`: runs the schedule now as the caller (GitLab's `PlayService` queues
 * `RunPipelineScheduleWorker` with the current user; the next scheduled run is not moved). As
 * there, the answer does not depend on the pipeline being created: a refusal is logged.
 */
export async function playSchedule(schedule: Schedule, subject: ProjectSubject, user: User, logger: Logger): Promise<void> {
  try {
    await createSchedulePipeline(schedule, subject, user);
  } catch (error) {
    if (!(error instanceof ValidationError)) throw error;
    logger.info('pipeline schedule played, no pipeline created', { scheduleId: schedule.id, projectId: schedule.projectId, reason: error.fields });
  }
}

export type ScheduleRunOutcome = 'ran' | 'not_created' | 'deactivated' | 'lost_race' | 'gone';

/**
 * Runs one due schedule (the scheduler, GitLab's `RunPipelineScheduleWorker` with `scheduling`):
 * reads it again, takes its run by moving its next run on with a write conditioned on the index
 * entry found (of two scheduler runs, one takes it; the other creates nothing), then creates the
 * pipeline as its owner. A schedule whose owner is gone or blocked is deactivated instead (GitLab
 * disables a blocked user's schedules); a pipeline refused (ref gone, owner without access, no
 * config) is logged, and the schedule runs again at its next time, as GitLab's worker does.
 */
export async function runDueSchedule(found: DueSchedule, context: { now: Date; logger: Logger }): Promise<ScheduleRunOutcome> {
  const schedule = await getSchedule(found.schedule.projectId, found.schedule.id);
  if (!schedule) return 'gone';
  const fields = { scheduleId: schedule.id, projectId: schedule.projectId, ownerId: schedule.ownerId };
  const owner = schedule.ownerId !== null && isId(schedule.ownerId) ? await getUser(schedule.ownerId) : undefined;
  const next = await nextRunAt(schedule.cron, schedule.cronTimezone, context.now);
  if (!owner || owner.state !== 'active') {
    if (!(await takeScheduledRun(schedule, found.entry, next, true))) return 'lost_race';
    context.logger.info('pipeline schedule deactivated: its owner is gone or blocked', fields);
    return 'deactivated';
  }
  if (!(await takeScheduledRun(schedule, found.entry, next))) return 'lost_race';
  try {
    const subject = await findProjectOrNotFound(String(schedule.projectId), owner);
    const pipeline = await createSchedulePipeline(schedule, subject, owner);
    context.logger.info('scheduled pipeline created', { ...fields, pipelineId: pipeline.id });
    return 'ran';
  } catch (error) {
    if (!(error instanceof ValidationError) && !(error instanceof NotFoundError)) throw error;
    context.logger.info('scheduled pipeline not created', { ...fields, reason: error instanceof ValidationError ? error.fields : error.body });
    return 'not_created';
  }
}
