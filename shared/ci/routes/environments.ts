/**
 * Environments and deployments (GitLab's `lib/api/environments.rb`, `lib/api/deployments.rb`).
 * Reporters read them; developers create, change, stop and delete environments and report
 * deployments; maintainers delete deployments. A project the caller cannot see is a 404, an
 * ability they lack a 403 (401 for an anonymous caller).
 */
import * as z from 'zod';
import { can, type ProjectSubject } from '../../auth';
import { ApiError, BadRequestError, ForbiddenError, ParamError } from '../../platform/http/errors';
import { paginate, paginationParams } from '../../platform/http/pagination';
import { idParam, p, required } from '../../platform/http/params';
import { created, noContent, ok } from '../../platform/http/response';
import { route, type RoutesOf } from '../../platform/http/route';
import { findProjectOrNotFound } from '../../projects';
import { badRequest, type User } from '../../users';
import type { catalog } from '../catalog';
import {
  createDeployment,
  createEnvironment,
  deleteDeployment,
  deleteEnvironment,
  scheduleReviewAppsDeletion,
  stopEnvironment,
  stopStaleEnvironments,
  updateDeploymentStatus,
  updateEnvironment,
} from '../commands/environments';
import { presentDeployment, presentEnvironment, presentEnvironmentBasic } from '../presenters/environments';
import { presentBasicProjectsOf } from '../queries/basic-projects';
import { deploymentContext, deploymentFiltersError, deploymentList, environmentList, findDeploymentOrNotFound, findEnvironmentOrNotFound } from '../queries/environments';
import { environmentByName, ENVIRONMENT_STATES, ENVIRONMENT_TIERS, getDeployment, getEnvironment, type Deployment, type Environment } from '../store/environments';
import { authorizeCi } from '../policy';

/** GitLab's `Environment::MIN_SEARCH_LENGTH`. */
const MIN_SEARCH_LENGTH = 3;
const AUTO_STOP_SETTINGS = ['always', 'with_action'] as const;

/** Names, URLs, refs and shas are string columns of 255 characters (a longer one: GitLab's model validation answer). */
const LIMIT = { max: 255 } as const;

const environmentParams = z.object({ ...idParam, environment_id: required(p.int()) });
const deploymentParams = z.object({ ...idParam, deployment_id: required(p.int()) });

/** The fields of an environment a write may set (`slug` may not be given: it is made from the name). */
const environmentFields = {
  external_url: p.string(LIMIT),
  tier: p.oneOf(ENVIRONMENT_TIERS),
  description: p.string({ max: 10_000 }),
  auto_stop_setting: p.oneOf(AUTO_STOP_SETTINGS),
  slug: z.unknown().optional(),
};

function fieldsOf(params: { external_url?: string; tier?: (typeof ENVIRONMENT_TIERS)[number]; description?: string; auto_stop_setting?: string; slug?: unknown }) {
  if (params.slug !== undefined) throw new ParamError('slug is automatically generated and cannot be changed');
  return { externalUrl: params.external_url, tier: params.tier, description: params.description, autoStopSetting: params.auto_stop_setting };
}

/** The project, once the caller may `ability` there (404 when they cannot see it). */
async function projectFor(idOrPath: string, user: User | null, ability: 'read_environment' | 'update_environment' | 'destroy_deployment'): Promise<ProjectSubject> {
  const subject = await findProjectOrNotFound(idOrPath, user);
  authorizeCi(user, can(user, ability, subject));
  return subject;
}

/** Environments as lists and writes show them (with their project, as the request read it). */
async function presentEnvironments(environments: readonly Environment[], subject: ProjectSubject, user: User | null) {
  const [project] = await presentBasicProjectsOf([subject], user as User);
  return environments.map((environment) => presentEnvironment(environment, { project }));
}

/** Deployments with what they show, read in batches for the page. */
async function presentDeployments(deployments: readonly Deployment[], subject: ProjectSubject, known: Environment[] = []) {
  const context = await deploymentContext(subject, deployments, known);
  return deployments.map((deployment) => presentDeployment(deployment, context));
}

const listEnvironments = route({
  params: z
    .object({ ...idParam, ...paginationParams, name: p.string(), search: p.string(), states: p.oneOf(ENVIRONMENT_STATES) })
    .superRefine((value, ctx) => {
      if (value.name !== undefined && value.search !== undefined) ctx.addIssue({ code: 'custom', message: 'name, search cannot be used together' });
    }),
  handler: async ({ params, user, link }) => {
    const subject = await projectFor(params.id, user, 'read_environment');
    if (params.search !== undefined && params.search.length < MIN_SEARCH_LENGTH) throw badRequest(`Search query is less than ${MIN_SEARCH_LENGTH} characters`);
    const page = await paginate(params, link, await environmentList(subject.project.id, params));
    return ok(await presentEnvironments(page.items, subject, user), page.headers);
  },
});

const DEPLOYMENT_ORDERS = ['id', 'iid', 'created_at', 'updated_at', 'ref', 'finished_at'] as const;
const DEPLOYMENT_STATUSES = ['created', 'running', 'success', 'failed', 'canceled', 'skipped', 'blocked'] as const;
const REPORTED_STATUSES = ['running', 'success', 'failed', 'canceled'] as const;

const listDeployments = route({
  params: z.object({
    ...idParam,
    ...paginationParams,
    order_by: p.oneOf(DEPLOYMENT_ORDERS),
    sort: p.oneOf(['asc', 'desc']),
    updated_after: p.dateTime(),
    updated_before: p.dateTime(),
    finished_after: p.dateTime(),
    finished_before: p.dateTime(),
    environment: p.string(),
    status: p.oneOf(DEPLOYMENT_STATUSES),
  }),
  handler: async ({ params, user, link }) => {
    const subject = await projectFor(params.id, user, 'read_environment');
    const filters = {
      orderBy: params.order_by ?? 'id',
      sort: params.sort ?? 'asc',
      updatedAfter: params.updated_after,
      updatedBefore: params.updated_before,
      finishedAfter: params.finished_after,
      finishedBefore: params.finished_before,
      status: params.status,
      ...(params.environment !== undefined ? { environment: (await environmentByName(subject.project.id, params.environment)) ?? null } : {}),
    };
    const refused = deploymentFiltersError(filters);
    if (refused) throw badRequest(refused);
    const page = await paginate(params, link, deploymentList(subject.project.id, filters));
    return ok(await presentDeployments(page.items, subject, filters.environment ? [filters.environment] : []), page.headers);
  },
});

const DAY_MS = 86_400_000;

/**
 * `DELETE /projects/:id/environments/review_apps` (GitLab's answers: 200 with the environments
 * scheduled, or only named with `dry_run`, the default; 400 when there is none; 401 with its
 * message to a caller who may not delete environments).
 */
const deleteReviewApps = route({
  params: z.object({ ...idParam, before: p.dateTime(), limit: p.int(), dry_run: p.bool() }),
  handler: async ({ params, user }) => {
    // Grape's `values: 1..1000`.
    if (params.limit !== undefined && (params.limit < 1 || params.limit > 1000)) throw new ParamError('limit does not have a valid value');
    const subject = await projectFor(params.id, user, 'read_environment');
    const answer = (scheduled: Environment[], status: number, message?: string) =>
      new ApiError(status, { scheduled_entries: scheduled.map(presentEnvironmentBasic), unprocessable_entries: [], ...(message ? { message } : {}) });
    if (!can(user, 'update_environment', subject)) throw answer([], 401, 'You do not have permission to destroy environments in this project');
    const before = params.before ?? new Date(Date.now() - 30 * DAY_MS).toISOString();
    const scheduled = await scheduleReviewAppsDeletion(subject.project.id, { before, limit: params.limit ?? 100, dryRun: params.dry_run ?? true });
    if (scheduled.length === 0) {
      throw answer([], 400, 'Failed to authorize deletions for some or all of the environments. Ask someone with more permissions to delete the environments.');
    }
    return ok({ scheduled_entries: scheduled.map(presentEnvironmentBasic), unprocessable_entries: [] });
  },
});

/** `POST /projects/:id/environments/stop_stale`: `before` between ten years and a week ago (GitLab's `Invalid Date` otherwise). */
const stopStale = route({
  params: z.object({ ...idParam, before: required(p.dateTime()) }),
  handler: async ({ params, user }) => {
    const subject = await projectFor(params.id, user, 'update_environment');
    const before = Date.parse(params.before);
    if (before < Date.now() - 3652.5 * DAY_MS || before > Date.now() - 7 * DAY_MS) throw badRequest('Invalid Date');
    await stopStaleEnvironments(subject.project.id, params.before);
    return ok({ message: 'Successfully requested stop for all stale environments' });
  },
});

export const environmentRoutes = {
  'GET /projects/:id/environments': listEnvironments,
  'DELETE /projects/:id/environments/review_apps': deleteReviewApps,
  'POST /projects/:id/environments/stop_stale': stopStale,

  'GET /projects/:id/environments/:environment_id': route({
    params: environmentParams,
    handler: async ({ params, user }) => {
      const subject = await projectFor(params.id, user, 'read_environment');
      const environment = await findEnvironmentOrNotFound(subject.project.id, params.environment_id);
      const last = environment.lastDeploymentId === null ? undefined : await getDeployment(subject.project.id, environment.lastDeploymentId);
      const lastDeployment = last ? presentDeployment(last, await deploymentContext(subject, [last], [environment]), { withEnvironment: false }) : null;
      return ok(presentEnvironment(environment, { lastDeployment }));
    },
  }),

  'POST /projects/:id/environments': route({
    params: z.object({ ...idParam, name: required(p.string(LIMIT)), ...environmentFields }),
    handler: async ({ params, user }) => {
      const subject = await projectFor(params.id, user, 'update_environment');
      const environment = await createEnvironment(subject.project, params.name, fieldsOf(params));
      const [presented] = await presentEnvironments([environment], subject, user);
      return created(presented);
    },
  }),

  'PUT /projects/:id/environments/:environment_id': route({
    params: environmentParams.extend(environmentFields),
    handler: async ({ params, user }) => {
      const subject = await projectFor(params.id, user, 'update_environment');
      const fields = fieldsOf(params);
      const environment = await updateEnvironment(await findEnvironmentOrNotFound(subject.project.id, params.environment_id), fields);
      const [presented] = await presentEnvironments([environment], subject, user);
      return ok(presented);
    },
  }),

  'DELETE /projects/:id/environments/:environment_id': route({
    params: environmentParams,
    handler: async ({ params, user }) => {
      const subject = await projectFor(params.id, user, 'read_environment');
      const environment = await findEnvironmentOrNotFound(subject.project.id, params.environment_id);
      // GitLab's `destroy_environment`: developers, on a stopped environment only.
      if (!can(user, 'update_environment', subject) || (await deleteEnvironment(environment)) === 'not_stopped') throw new ForbiddenError();
      return noContent();
    },
  }),

  'POST /projects/:id/environments/:environment_id/stop': route({
    params: environmentParams.extend({ force: p.bool() }),
    handler: async ({ params, user }) => {
      const subject = await projectFor(params.id, user, 'read_environment');
      const environment = await findEnvironmentOrNotFound(subject.project.id, params.environment_id);
      // GitLab's `StopService` does nothing for a caller without `stop_environment`, and answers the environment.
      const stopped = can(user, 'update_environment', subject) ? await stopEnvironment(environment, params.force ?? false) : environment;
      const [presented] = await presentEnvironments([stopped], subject, user);
      return ok(presented);
    },
  }),

  'GET /projects/:id/deployments': listDeployments,

  'GET /projects/:id/deployments/:deployment_id': route({
    params: deploymentParams,
    handler: async ({ params, user }) => {
      const subject = await projectFor(params.id, user, 'read_environment');
      const [presented] = await presentDeployments([await findDeploymentOrNotFound(subject.project.id, params.deployment_id)], subject);
      return ok(presented);
    },
  }),

  'POST /projects/:id/deployments': route({
    params: z.object({
      ...idParam,
      environment: required(p.string(LIMIT)),
      sha: required(p.string(LIMIT)),
      ref: required(p.string(LIMIT)),
      tag: required(p.bool()),
      status: required(p.oneOf(REPORTED_STATUSES)),
    }),
    handler: async ({ params, user }) => {
      const subject = await projectFor(params.id, user, 'update_environment');
      const deployment = await createDeployment(subject.project, user, params);
      const [presented] = await presentDeployments([deployment], subject);
      return created(presented);
    },
  }),

  'PUT /projects/:id/deployments/:deployment_id': route({
    params: deploymentParams.extend({ status: required(p.oneOf(REPORTED_STATUSES)) }),
    handler: async ({ params, user }) => {
      const subject = await projectFor(params.id, user, 'read_environment');
      const deployment = await findDeploymentOrNotFound(subject.project.id, params.deployment_id);
      authorizeCi(user, can(user, 'update_environment', subject));
      if (deployment.jobId !== null) throw new ForbiddenError('Deployments created using GitLab CI can not be updated using the API');
      const [presented] = await presentDeployments([await updateDeploymentStatus(deployment, params.status)], subject);
      return ok(presented);
    },
  }),

  'DELETE /projects/:id/deployments/:deployment_id': route({
    params: deploymentParams,
    handler: async ({ params, user }) => {
      const subject = await findProjectOrNotFound(params.id, user);
      const deployment = await findDeploymentOrNotFound(subject.project.id, params.deployment_id);
      authorizeCi(user, can(user, 'destroy_deployment', subject));
      const refused = await deleteDeployment(deployment, await getEnvironment(subject.project.id, deployment.environmentId));
      if (refused === 'running') throw new BadRequestError('Cannot destroy running deployment');
      if (refused === 'last') throw new BadRequestError('Deployment currently deployed to environment');
      return noContent();
    },
  }),
} satisfies RoutesOf<typeof catalog.ci_jobs>;
