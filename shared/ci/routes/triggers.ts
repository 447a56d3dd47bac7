/**
 * Pipeline trigger tokens and the pipelines they create (GitLab's `lib/api/ci/triggers.rb`).
 * Listing, reading, creating and deleting tokens needs `manage_trigger` (`admin_build`:
 * maintainers); the whole token is shown only to its owner (`admin_trigger`), who alone may change
 * it; others see its first 4 characters. `POST …/trigger/pipeline` needs no user token: the
 * trigger token (or a running job's token) is the credential, and the pipeline runs as the
 * trigger's owner (source `trigger`) or the job's user (source `pipeline`, in a project whose job
 * token scope lets the job's project in); an unknown token is a 404.
 */
import * as z from 'zod';
import { BadRequestError, ForbiddenError, NotFoundError, ValidationError } from '../../platform/http/errors';
import { paginate, paginationParams } from '../../platform/http/pagination';
import { hashParam, idParam, p, parseParams, required } from '../../platform/http/params';
import { created, noContent, ok } from '../../platform/http/response';
import { route, type RoutesOf } from '../../platform/http/route';
import { findProjectOrNotFound, jobTokenMayReach } from '../../projects';
import { getUser, type User } from '../../users';
import type { ProjectSubject } from '../../auth';
import type { catalog } from '../catalog';
import { createTrigger, editTrigger, removeTrigger, runTriggeredPipeline } from '../commands/triggers';
import { canAdminTrigger, canManageTriggers, canUpdateBuilds } from '../policy';
import { presentPipeline } from '../presenters/pipelines';
import { presentTrigger } from '../presenters/triggers';
import { projectWebUrl } from '../queries/jobs';
import { findTriggerOrNotFound, shownToken, triggererOf, triggerList } from '../queries/triggers';
import type { Trigger } from '../store/triggers';
import { pipelineInputsParam, pipelineVariablesParam } from './pipelines';

const triggerParams = z.object({ ...idParam, trigger_id: required(p.int()) });

/** A trigger's description: a string column (255 characters), answered as a model validation. */
const DESCRIPTION_LIMIT = { max: 255 } as const;

/** The project whose triggers the caller may manage (`manage_trigger`): 404 when they cannot see it, 403 when they can but not manage. */
async function managedProject(idOrPath: string, user: User): Promise<ProjectSubject> {
  const subject = await findProjectOrNotFound(idOrPath, user);
  if (!canManageTriggers(user, subject)) throw new ForbiddenError();
  return subject;
}

/** Internal: triggers as `user` sees them, their owners read in one batch. */
async function presented(triggers: readonly Trigger[], user: User, subject: ProjectSubject) {
  // Point reads of one turn go out as one BatchGetItem (`platform/dynamo/batch.ts`).
  return Promise.all(
    triggers.map(async (trigger) => presentTrigger(trigger, await shownToken(trigger, canAdminTrigger(user, subject, trigger)), await getUser(trigger.ownerId))),
  );
}

/**
 * `POST /projects/:id/trigger/pipeline`, and GitLab's form for webhooks,
 * `POST /projects/:id/ref/:ref/trigger/pipeline` (the ref in the path, URL-encoded when it holds
 * a slash: API Gateway matches one segment).
 */
const triggerPipeline = route({
  params: z.object({ ...idParam, ref: required(p.string()), token: required(p.string()), variables: hashParam(), inputs: pipelineInputsParam }),
  anonymous: true,
  handler: async ({ params }) => {
    const given = Object.entries(params.variables ?? {});
    if (!given.every(([, value]) => typeof value === 'string')) throw new BadRequestError('variables needs to be a map of key-valued strings');
    const { variables } = parseParams(z.object({ variables: pipelineVariablesParam }), { variables: given.map(([key, value]) => ({ key, value })) });
    const triggerer = await triggererOf(params.token);
    if (!triggerer) throw new NotFoundError();
    const subject = await findProjectOrNotFound(params.id, triggerer.user);
    if (triggerer.kind === 'trigger' && triggerer.trigger.projectId !== subject.project.id) throw new NotFoundError();
    // A job's token reaches another project only as its job token scope lets the job in.
    if (triggerer.kind === 'job' && !(await jobTokenMayReach(triggerer, subject))) throw new NotFoundError();
    if (!canUpdateBuilds(triggerer.user, subject)) throw new ValidationError({ base: ['Insufficient permissions to create a new pipeline'] });
    const pipeline = await runTriggeredPipeline({
      subject,
      ref: params.ref,
      user: triggerer.user,
      source: triggerer.kind === 'trigger' ? 'trigger' : 'pipeline',
      trigger: triggerer.kind === 'trigger' ? triggerer.trigger : undefined,
      variables: (variables ?? []).map(({ key, value }) => ({ key, value, variableType: 'env_var' })),
      // GitLab's payload is the request's parameters but the token: the inputs given too.
      payload: { ref: params.ref, variables: Object.fromEntries(given), ...(params.inputs === undefined ? {} : { inputs: params.inputs }), id: params.id },
      ...(params.inputs ? { inputs: params.inputs } : {}),
    });
    return created(presentPipeline(pipeline, projectWebUrl(subject), triggerer.user));
  },
});

export const triggerRoutes = {
  'GET /projects/:id/triggers': route({
    params: z.object({ ...idParam, ...paginationParams }),
    handler: async ({ params, user, link }) => {
      const subject = await managedProject(params.id, user);
      const page = await paginate(params, link, triggerList(subject.project.id));
      return ok(await presented(page.items, user, subject), page.headers);
    },
  }),

  'GET /projects/:id/triggers/:trigger_id': route({
    params: triggerParams,
    handler: async ({ params, user }) => {
      const subject = await managedProject(params.id, user);
      const [trigger] = await presented([await findTriggerOrNotFound(subject.project.id, params.trigger_id)], user, subject);
      return ok(trigger);
    },
  }),

  'POST /projects/:id/triggers': route({
    params: z.object({ ...idParam, description: required(p.string(DESCRIPTION_LIMIT)), expires_at: p.dateTime() }),
    handler: async ({ params, user }) => {
      const subject = await managedProject(params.id, user);
      const { trigger, token } = await createTrigger(subject.project, user, { description: params.description, expiresAt: params.expires_at });
      return created(presentTrigger(trigger, token, user));
    },
  }),

  'PUT /projects/:id/triggers/:trigger_id': route({
    params: triggerParams.extend({ description: p.string(DESCRIPTION_LIMIT) }),
    handler: async ({ params, user }) => {
      // GitLab finds the trigger among the project's before any ability, then asks `admin_trigger` (its owner).
      const subject = await findProjectOrNotFound(params.id, user);
      const trigger = await findTriggerOrNotFound(subject.project.id, params.trigger_id);
      if (!canAdminTrigger(user, subject, trigger)) throw new ForbiddenError('The current user is not authorized to update the pipeline trigger token');
      const [updated] = await presented([await editTrigger(trigger, params.description)], user, subject);
      return ok(updated);
    },
  }),

  'DELETE /projects/:id/triggers/:trigger_id': route({
    params: triggerParams,
    handler: async ({ params, user }) => {
      const subject = await managedProject(params.id, user);
      await removeTrigger(await findTriggerOrNotFound(subject.project.id, params.trigger_id));
      return noContent();
    },
  }),

  'POST /projects/:id/trigger/pipeline': triggerPipeline,
  'POST /projects/:id/ref/:ref/trigger/pipeline': triggerPipeline,
} satisfies RoutesOf<typeof catalog.ci_jobs>;
