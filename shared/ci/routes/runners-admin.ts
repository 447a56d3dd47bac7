/**
 * GitLab's Runners API as users call it (`lib/api/ci/runners.rb`; python-gitlab's `gl.runners`,
 * `project.runners`; gitbeaker's `Runners`): list the runners of the projects the caller
 * maintains (`GET /runners`), every runner (admins, `/runners/all`, `type=` among them), read,
 * update, delete one and list the jobs it took; list the runners serving a project (its own, its
 * groups', the instance's) or available to a group (`/groups/:id/runners`, maintainers), enable a
 * runner of another project in a project and disable it there. A project runner is read and
 * changed by an admin or a maintainer of a project it is enabled in, a group runner by an owner
 * of its group, an instance runner by admins (read by anyone) (GitLab's `RunnerPolicy`, 403 `No access granted`);
 * the project routes answer 404 to callers who cannot see the project, 403 to those who may not
 * administer it. The runner's token is never shown.
 */
import * as z from 'zod';
import { isAdmin, type GroupSubject, type ProjectSubject } from '../../auth';
import { config } from '../../platform/config';
import { ApiError, ForbiddenError } from '../../platform/http/errors';
import { paginate, paginationParams } from '../../platform/http/pagination';
import { idParam, p, required } from '../../platform/http/params';
import { created, noContent, ok } from '../../platform/http/response';
import { route, type RoutesOf } from '../../platform/http/route';
import type { Caller } from '../../platform/http/context';
import { findProjectOrNotFound, presentProjects } from '../../projects';
import type { catalog } from '../catalog';
import { resetRunnerToken } from '../commands/runners';
import { changeRunnerSettings, disableRunner, enableRunner, removeRunner } from '../commands/runners-admin';
import { authorizeCi } from '../policy';
import { canAdminRunner, canAdminRunners } from '../runner-policy';
import { presentJob } from '../presenters/jobs';
import { presentRunner, presentRunnerDetails, presentRunnerManager } from '../presenters/runners';
import { jobContext } from '../queries/jobs';
import { allRunnerList, findRunnerOrNotFound, ownedRunnerList, projectRunnerList, runnerGroupSubjects, runnerJobList, runnerSubjects, type RunnerJob } from '../queries/runners';
import { runnerProjectIds, runnerTypeOf, TOKEN_MOVE_PROJECT_LIMIT, type Runner } from '../store/runners';
import { BUILD_STATUSES, filterParams, filtersOf, SCOPES, STATUSES, runnerSettingParams } from './runners.params';
import type { JobStatus } from '../status';

const runnerParams = z.object({ id: required(p.int()) });
const projectRunnerParams = z.object({ ...idParam, runner_id: required(p.int()) });

/** GitLab's `authenticate_show_runner!`/`authenticate_update_runner!`: the runner with the caller's view of its projects (its group), or 403. */
async function administrableRunner(user: Caller, runnerId: number): Promise<{ runner: Runner; subjects: ProjectSubject[]; groups: GroupSubject[] }> {
  const runner = await findRunnerOrNotFound(runnerId);
  const [subjects, groups] = await Promise.all([runnerSubjects(user, runner), runnerGroupSubjects(user, runner)]);
  if (!canAdminRunner(user, subjects, groups)) throw new ForbiddenError('No access granted');
  return { runner, subjects, groups };
}

/** A project the caller may administer the runners of (GitLab's `read_project_runners`/`admin_project_runners`): 404 or 403 otherwise. */
async function runnersProject(id: string, user: Caller): Promise<ProjectSubject> {
  const subject = await findProjectOrNotFound(id, user);
  authorizeCi(user, canAdminRunners(user, subject));
  return subject;
}

/**
 * `RunnerDetails`: the projects shown are those the caller is a member of (all of them for an
 * admin); a group runner's group as GitLab's `BasicGroupDetails` (the caller may administer it, so sees it).
 */
async function presentDetails(user: Caller, runner: Runner, subjects: ProjectSubject[], groups: GroupSubject[]) {
  const shown = isAdmin(user) ? subjects : subjects.filter((subject) => subject.access.level > 0);
  const presentedGroups = groups.map(({ group }) => ({ id: group.id, web_url: `${config().externalUrl}/groups/${group.fullPath}`, name: group.name }));
  return presentRunnerDetails(runner, await presentProjects(shown, user, { simple: true }), { canUpdate: true, groups: presentedGroups });
}

/** GitLab's `JobBasicWithProject`: each job with its project; contexts loaded once per project of the page. */
async function presentRunnerJobs(user: Caller, entries: RunnerJob[]) {
  const byProject = new Map<number, RunnerJob[]>();
  for (const entry of entries) byProject.set(entry.subject.project.id, [...(byProject.get(entry.subject.project.id) ?? []), entry]);
  const contexts = new Map(
    await Promise.all([...byProject].map(async ([id, list]) => [id, await jobContext(list[0].subject, list.map((entry) => entry.job))] as const)),
  );
  const subjects = [...byProject.values()].map((list) => list[0].subject);
  const projects = new Map((await presentProjects(subjects, user, { simple: true })).map((project, i) => [subjects[i].project.id, project]));
  return entries.map(({ job, subject }) => ({ ...presentJob(job, contexts.get(subject.project.id)!), project: projects.get(subject.project.id) ?? null }));
}

/** A runner's new token (`reset_authentication_token`), as GitLab's `ResetTokenResult`: 403 when the runner went meanwhile. */
export async function tokenResetAnswer(runner: Runner): Promise<{ token: string; token_expires_at: null }> {
  const reset = await resetRunnerToken(runner);
  if (reset === 'runner_gone') throw new ForbiddenError();
  if (reset === 'too_many_projects') throw new ApiError(422, { message: `Runner is enabled in more than ${TOKEN_MOVE_PROJECT_LIMIT} projects: its token cannot be reset` });
  return { token: reset.token, token_expires_at: null };
}

export const runnerAdminRoutes = {
  'GET /runners': route({
    params: z.object({ scope: p.oneOf(STATUSES), ...filterParams }),
    handler: async ({ params, user, link }) => {
      const page = await paginate(params, link, await ownedRunnerList(user, filtersOf(params)));
      return ok(page.items.map(presentRunner), page.headers);
    },
  }),

  'GET /runners/all': route({
    params: z.object({ scope: p.oneOf(SCOPES), ...filterParams }),
    handler: async ({ params, user, link }) => {
      // GitLab's `authenticated_as_admin!`.
      if (!isAdmin(user)) throw new ForbiddenError();
      const page = await paginate(params, link, allRunnerList(filtersOf(params)));
      return ok(page.items.map(presentRunner), page.headers);
    },
  }),

  'GET /runners/:id': route({
    params: runnerParams,
    handler: async ({ params, user }) => {
      // GitLab's `authenticate_show_runner!`: an instance runner is shown to every user (its note to admins only).
      const shared = await findRunnerOrNotFound(params.id);
      if (runnerTypeOf(shared) === 'instance_type') return ok(presentRunnerDetails(shared, [], { canUpdate: isAdmin(user) }));
      const { runner, subjects, groups } = await administrableRunner(user, params.id);
      return ok(await presentDetails(user, runner, subjects, groups));
    },
  }),

  'PUT /runners/:id': route({
    params: runnerParams
      .extend(runnerSettingParams)
      .superRefine((params, ctx) => {
        // Grape's `at_least_one_of` and `mutually_exclusive`, in its words.
        const names = ['description', 'active', 'paused', 'tag_list', 'run_untagged', 'locked', 'access_level', 'maximum_timeout', 'maintenance_note'] as const;
        if (names.every((name) => params[name] === undefined)) {
          ctx.addIssue({ code: 'custom', message: `${names.join(', ')} are missing, at least one parameter must be provided` });
        }
        if (params.active !== undefined && params.paused !== undefined) ctx.addIssue({ code: 'custom', message: 'active, paused are mutually exclusive' });
      }),
    handler: async ({ params, user }) => {
      const { runner, subjects, groups } = await administrableRunner(user, params.id);
      const updated = await changeRunnerSettings(runner, {
        description: params.description,
        active: params.paused !== undefined ? !params.paused : params.active,
        tagList: params.tag_list,
        runUntagged: params.run_untagged,
        locked: params.locked,
        accessLevel: params.access_level,
        maximumTimeout: params.maximum_timeout,
        maintenanceNote: params.maintenance_note,
      });
      return ok(await presentDetails(user, updated, subjects, groups));
    },
  }),

  'DELETE /runners/:id': route({
    params: runnerParams,
    handler: async ({ params, user }) => {
      const runner = await findRunnerOrNotFound(params.id);
      // GitLab's `authenticate_delete_runner!`: several projects first, then access (a group runner: its group's owners).
      if (!isAdmin(user)) {
        if (runnerProjectIds(runner).length > 1) throw new ForbiddenError('Runner associated with more than one project');
        if (!canAdminRunner(user, await runnerSubjects(user, runner), await runnerGroupSubjects(user, runner))) throw new ForbiddenError('No access granted');
      }
      await removeRunner(user, runner);
      return noContent();
    },
  }),

  'GET /runners/:id/managers': route({
    params: runnerParams,
    handler: async ({ params, user }) => {
      const { runner } = await administrableRunner(user, params.id);
      const managers = Object.entries(runner.managers ?? {}).sort(([, a], [, b]) => a.id - b.id);
      return ok(managers.map(([systemId, manager]) => presentRunnerManager(systemId, manager)));
    },
  }),

  'POST /runners/:id/reset_authentication_token': route({
    params: runnerParams,
    handler: async ({ params, user }) => {
      const { runner } = await administrableRunner(user, params.id);
      return created(await tokenResetAnswer(runner));
    },
  }),

  'GET /runners/:id/jobs': route({
    params: runnerParams.extend({
      status: p.oneOf(BUILD_STATUSES),
      order_by: p.oneOf(['id']),
      sort: p.oneOf(['asc', 'desc']),
      system_id: p.string(),
      ...paginationParams,
    }),
    handler: async ({ params, user, link }) => {
      const { runner } = await administrableRunner(user, params.id);
      const statuses = params.status ? [params.status as JobStatus] : undefined;
      const page = await paginate(params, link, runnerJobList(user, runner, { statuses, ascending: params.sort === 'asc' }));
      return ok(await presentRunnerJobs(user, page.items), page.headers);
    },
  }),

  'GET /projects/:id/runners': route({
    params: z.object({ ...idParam, scope: p.oneOf(SCOPES), ...filterParams }),
    handler: async ({ params, user, link }) => {
      const subject = await runnersProject(params.id, user);
      const page = await paginate(params, link, projectRunnerList(subject, filtersOf(params)));
      return ok(page.items.map(presentRunner), page.headers);
    },
  }),

  'POST /projects/:id/runners': route({
    params: z.object({ ...idParam, runner_id: required(p.int()) }),
    handler: async ({ params, user }) => {
      const subject = await runnersProject(params.id, user);
      const runner = await findRunnerOrNotFound(params.runner_id);
      // GitLab's `authenticate_enable_runner!`: a group runner is refused to everyone; an instance runner is no project's to assign.
      if (runnerTypeOf(runner) === 'group_type') throw new ForbiddenError('Runner is a group runner');
      if (runnerTypeOf(runner) === 'instance_type') {
        if (!isAdmin(user)) throw new ForbiddenError('No access granted');
        throw new ApiError(400, { message: '400 Bad request - Transitioning an instance runner to a project runner is not supported' });
      }
      if (!isAdmin(user)) {
        // GitLab's `authenticate_enable_runner!`: a locked runner first, then whether the caller may assign it.
        if (runner.locked) throw new ForbiddenError('Runner is locked');
        if (!canAdminRunner(user, await runnerSubjects(user, runner))) throw new ForbiddenError('No access granted');
      }
      return created(presentRunner(await enableRunner(user, runner, subject.project.id)));
    },
  }),

  'DELETE /projects/:id/runners/:runner_id': route({
    params: projectRunnerParams,
    handler: async ({ params, user }) => {
      const subject = await runnersProject(params.id, user);
      const runner = await findRunnerOrNotFound(params.runner_id);
      await disableRunner(user, runner, subject.project.id);
      return noContent();
    },
  }),
} satisfies RoutesOf<typeof catalog.ci_runners>;
