/**
 * Pipeline schedules (GitLab's `lib/api/ci/pipeline_schedules.rb`), as python-gitlab's
 * `project.pipelineschedules` (with `.variables`, `.take_ownership()`, `.play()`,
 * `.pipelines.list()`) calls them. Every route needs a token (401). The list needs
 * `read_pipeline_schedule` on the project (403); a schedule the caller may not read, or none of
 * that id, is `404 Pipeline Schedule Not Found`; then each action asks its ability
 * (`schedule-policy.ts`) and answers 403. Writes refused by the model are 400
 * `{"message":{…}}`.
 */
import * as z from 'zod';
import { ForbiddenError, NotFoundError, ParamError } from '../../platform/http/errors';
import { paginate, paginationParams } from '../../platform/http/pagination';
import { idParam, limitedString, p, required } from '../../platform/http/params';
import { accepted, created, noContent, ok } from '../../platform/http/response';
import { route, type RoutesOf } from '../../platform/http/route';
import type { ProjectSubject } from '../../auth';
import { findProjectOrNotFound } from '../../projects';
import { getUser, type User } from '../../users';
import type { catalog } from '../catalog';
import {
  addScheduleVariable,
  createSchedule,
  editSchedule,
  editScheduleVariable,
  playSchedule,
  removeSchedule,
  removeScheduleVariable,
  scheduleVariables,
  SCHEDULE_NOT_FOUND,
  SCHEDULE_VARIABLE_NOT_FOUND,
  takeOwnership,
} from '../commands/schedules';
import { canReadBuilds } from '../policy';
import { presentPipelineBasic } from '../presenters/pipelines';
import { presentSchedule, presentScheduleDetails, presentScheduleVariable } from '../presenters/schedules';
import { projectWebUrl } from '../queries/jobs';
import { findScheduleOrNotFound, lastSchedulePipeline, scheduleList, schedulePipelineList } from '../queries/schedules';
import { canAdminSchedule, canCreateSchedules, canPlaySchedule, canReadSchedules, canUpdateSchedule } from '../schedule-policy';
import type { Schedule } from '../store/schedules';

const scheduleParams = z.object({ ...idParam, pipeline_schedule_id: required(p.int()) });
const variableParams = scheduleParams.extend({ key: required(p.string()) });

/** Column limits (`character varying(255)`), answered as model validations. */
const TEXT = { max: 255 } as const;

/** A variable's value: required but may be empty, a number read as its digits (Grape's `String`). */
const variableValue = z.preprocess((v) => (v === undefined || v === null ? v : String(v)), limitedString({ max: 10_000 }).optional());

/** Internal: the project whose schedules the caller reads (`read_pipeline_schedule`): 404 when they cannot see it, 403 when they can but not its schedules. */
async function readableProject(idOrPath: string, user: User): Promise<ProjectSubject> {
  const subject = await findProjectOrNotFound(idOrPath, user);
  if (!canReadSchedules(user, subject)) throw new ForbiddenError();
  return subject;
}

/** Internal: the project and the schedule (GitLab's `pipeline_schedule` helper: unreadable or unknown is `404 Pipeline Schedule Not Found`). */
async function findSchedule(params: { id: string; pipeline_schedule_id: number }, user: User): Promise<{ subject: ProjectSubject; schedule: Schedule }> {
  const subject = await findProjectOrNotFound(params.id, user);
  if (!canReadSchedules(user, subject)) throw new NotFoundError(SCHEDULE_NOT_FOUND);
  return { subject, schedule: await findScheduleOrNotFound(subject.project.id, params.pipeline_schedule_id) };
}

/** Internal: GitLab's `PipelineScheduleDetails`, with the variables when `user` may read them (none when not given: the writes' answers). */
async function details(subject: ProjectSubject, schedule: Schedule, user?: User) {
  const [owner, lastPipeline] = await Promise.all([schedule.ownerId === null ? undefined : getUser(schedule.ownerId), lastSchedulePipeline(schedule)]);
  const variables = user && canAdminSchedule(user, subject, schedule) ? await scheduleVariables(schedule) : undefined;
  return presentScheduleDetails(schedule, owner, { lastPipeline, projectWebUrl: projectWebUrl(subject), variables });
}

/** `inputs` of a schedule: `[{ name, value }]`, `_destroy` (or `destroy`) removing one on update (GitLab's nested attributes). */
const scheduleInputsParam = p.array(
  z.object({ name: limitedString({ max: 255 }), value: z.unknown().optional(), _destroy: p.bool(), destroy: p.bool() }).transform(({ name, value, _destroy, destroy }) => ({ name, value, destroy: _destroy === true || destroy === true })),
);

export const scheduleRoutes = {
  'GET /projects/:id/pipeline_schedules': route({
    params: z.object({ ...idParam, ...paginationParams, scope: p.oneOf(['active', 'inactive']) }),
    handler: async ({ params, user, link }) => {
      const subject = await readableProject(params.id, user);
      const page = await paginate(params, link, scheduleList(subject.project.id, params.scope));
      // The page's owners: one BatchGetItem (point reads of one turn go out together).
      const owners = await Promise.all(page.items.map((schedule) => (schedule.ownerId === null ? undefined : getUser(schedule.ownerId))));
      return ok(page.items.map((schedule, i) => presentSchedule(schedule, owners[i])), page.headers);
    },
  }),

  'GET /projects/:id/pipeline_schedules/:pipeline_schedule_id': route({
    params: scheduleParams,
    handler: async ({ params, user }) => {
      const { subject, schedule } = await findSchedule(params, user);
      return ok(await details(subject, schedule, user));
    },
  }),

  'GET /projects/:id/pipeline_schedules/:pipeline_schedule_id/pipelines': route({
    params: scheduleParams.extend({
      ...paginationParams,
      scope: p.oneOf(['running', 'pending', 'finished', 'branches', 'tags']),
      status: p.oneOf(['created', 'waiting_for_resource', 'preparing', 'pending', 'running', 'success', 'failed', 'canceled', 'skipped', 'manual', 'scheduled']),
      created_before: p.dateTime(),
      created_after: p.dateTime(),
      updated_before: p.dateTime(),
      updated_after: p.dateTime(),
      sort: p.oneOf(['asc', 'desc']),
    }),
    handler: async ({ params, user, link }) => {
      const { subject, schedule } = await findSchedule(params, user);
      if (!canReadBuilds(user, subject)) throw new ForbiddenError();
      const filters = {
        scope: params.scope,
        status: params.status,
        createdBefore: params.created_before,
        createdAfter: params.created_after,
        updatedBefore: params.updated_before,
        updatedAfter: params.updated_after,
        sort: params.sort,
      };
      const page = await paginate(params, link, schedulePipelineList(schedule.id, filters));
      const url = projectWebUrl(subject);
      return ok(page.items.map((pipeline) => presentPipelineBasic(pipeline, url)), page.headers);
    },
  }),

  'POST /projects/:id/pipeline_schedules': route({
    params: z.object({
      ...idParam,
      description: required(p.string(TEXT)),
      ref: required(p.string(TEXT)),
      cron: required(p.string(TEXT)),
      cron_timezone: p.string(TEXT),
      active: p.bool(),
      inputs: scheduleInputsParam,
    }),
    handler: async ({ params, user }) => {
      const subject = await findProjectOrNotFound(params.id, user);
      if (!canCreateSchedules(user, subject)) throw new ForbiddenError();
      const schedule = await createSchedule(subject, user, { description: params.description, ref: params.ref, cron: params.cron, cronTimezone: params.cron_timezone, active: params.active, inputs: params.inputs });
      return created(await details(subject, schedule));
    },
  }),

  'PUT /projects/:id/pipeline_schedules/:pipeline_schedule_id': route({
    params: scheduleParams.extend({ description: p.string(TEXT), ref: p.string(TEXT), cron: p.string(TEXT), cron_timezone: p.string(TEXT), active: p.bool(), inputs: scheduleInputsParam }),
    handler: async ({ params, user }) => {
      const { subject, schedule } = await findSchedule(params, user);
      if (!(await canUpdateSchedule(user, subject, schedule))) throw new ForbiddenError();
      const changes = { description: params.description, ref: params.ref, cron: params.cron, cronTimezone: params.cron_timezone, active: params.active, inputs: params.inputs };
      return ok(await details(subject, await editSchedule(subject, user, schedule, changes)));
    },
  }),

  'DELETE /projects/:id/pipeline_schedules/:pipeline_schedule_id': route({
    params: scheduleParams,
    handler: async ({ params, user }) => {
      const { subject, schedule } = await findSchedule(params, user);
      if (!canAdminSchedule(user, subject, schedule)) throw new ForbiddenError();
      await removeSchedule(schedule);
      return noContent();
    },
  }),

  'POST /projects/:id/pipeline_schedules/:pipeline_schedule_id/take_ownership': route({
    params: scheduleParams,
    handler: async ({ params, user }) => {
      const { subject, schedule } = await findSchedule(params, user);
      if (!canAdminSchedule(user, subject, schedule)) throw new ForbiddenError();
      // Already theirs: 200 and nothing written; else 201.
      if (schedule.ownerId === user.id) return ok(await details(subject, schedule));
      return created(await details(subject, await takeOwnership(schedule, user)));
    },
  }),

  'POST /projects/:id/pipeline_schedules/:pipeline_schedule_id/play': route({
    params: scheduleParams,
    handler: async ({ params, user, log }) => {
      const { subject, schedule } = await findSchedule(params, user);
      if (!(await canPlaySchedule(user, subject, schedule))) throw new ForbiddenError();
      await playSchedule(schedule, subject, user, log);
      return created({ message: '201 Created' });
    },
  }),

  'POST /projects/:id/pipeline_schedules/:pipeline_schedule_id/variables': route({
    params: scheduleParams.extend({ key: required(p.string(TEXT)), value: variableValue, variable_type: p.oneOf(['env_var', 'file']) }),
    handler: async ({ params, user }) => {
      if (params.value === undefined) throw new ParamError('value is missing');
      const { subject, schedule } = await findSchedule(params, user);
      if (!canCreateSchedules(user, subject) || !(await canUpdateSchedule(user, subject, schedule))) throw new ForbiddenError();
      const variable = await addScheduleVariable(schedule, { key: params.key, value: params.value, variableType: params.variable_type });
      return created(presentScheduleVariable(variable));
    },
  }),

  'GET /projects/:id/pipeline_schedules/:pipeline_schedule_id/variables/:key': route({
    params: variableParams,
    handler: async ({ params, user }) => {
      const { subject, schedule } = await findSchedule(params, user);
      if (!canAdminSchedule(user, subject, schedule)) throw new ForbiddenError();
      const variable = (await scheduleVariables(schedule)).find((candidate) => candidate.key === params.key);
      if (!variable) throw new NotFoundError(SCHEDULE_VARIABLE_NOT_FOUND);
      return ok(presentScheduleVariable(variable));
    },
  }),

  'PUT /projects/:id/pipeline_schedules/:pipeline_schedule_id/variables/:key': route({
    params: variableParams.extend({ value: variableValue, variable_type: p.oneOf(['env_var', 'file']) }),
    handler: async ({ params, user }) => {
      const { subject, schedule } = await findSchedule(params, user);
      if (!canCreateSchedules(user, subject) || !(await canUpdateSchedule(user, subject, schedule))) throw new ForbiddenError();
      const variable = await editScheduleVariable(schedule, params.key, { value: params.value, variableType: params.variable_type });
      return ok(presentScheduleVariable(variable));
    },
  }),

  'DELETE /projects/:id/pipeline_schedules/:pipeline_schedule_id/variables/:key': route({
    params: variableParams,
    handler: async ({ params, user }) => {
      const { subject, schedule } = await findSchedule(params, user);
      if (!canCreateSchedules(user, subject) || !canAdminSchedule(user, subject, schedule)) throw new ForbiddenError();
      return accepted(presentScheduleVariable(await removeScheduleVariable(schedule, params.key)));
    },
  }),
} satisfies RoutesOf<typeof catalog.ci_jobs>;
