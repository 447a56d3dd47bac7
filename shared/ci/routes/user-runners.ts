/**
 * `POST /user/runners` (GitLab's `API::UserRunners`): a user creates a runner and gets its token
 * once, then `gitlab-runner register --token <token>` attaches a machine to it
 * (`POST /runners/verify`). This is how current GitLab makes runners (registration tokens are
 * deprecated); python-gitlab's `gl.user.runners.create`, gitbeaker's `UserRunners`, Terraform's
 * `gitlab_user_runner` call it. Served by the users function (the `/user` subtree), so the
 * runner's creation is loaded on first use.
 *
 * `project_type` is created for a maintainer of the project, `group_type` for an owner of the
 * group (GitLab's `create_runners`), `instance_type` for an administrator
 * (`create_instance_runner`); as GitLab's `CreateRunnerService`, an unknown project or group is a
 * 400 first, a caller who may not a 403 `Insufficient permissions`.
 */
import * as z from 'zod';
import { ApiError, ForbiddenError } from '../../platform/http/errors';
import { p, required } from '../../platform/http/params';
import { created } from '../../platform/http/response';
import { route, type RoutesOf } from '../../platform/http/route';
import { groupAccessFor } from '../../auth';
import { getNamespace } from '../../namespaces';
import { getProject, projectSubject } from '../../projects';
import type { catalog } from '../catalog';
import type { RunnerOwner } from '../commands/runners';
import { canAdminGroupRunners, canAdminInstanceRunners, canAdminRunners } from '../runner-policy';
import { newRunnerSettings, runnerSettingParams } from './runners.params';

/** GitLab's `Ci::Runner.runner_types`. */
const RUNNER_TYPES = ['instance_type', 'group_type', 'project_type'] as const;

/** GitLab's `bad_request!(message)`. */
const badRequest = (message: string) => new ApiError(400, { message: `400 Bad request - ${message}` });

export const userRunnerRoutes = {
  'POST /user/runners': route({
    params: z
      .object({ runner_type: required(p.oneOf(RUNNER_TYPES)), group_id: p.int(), project_id: p.int(), ...runnerSettingParams })
      .superRefine((params, ctx) => {
        // Grape's `given runner_type:` requirements, then `mutually_exclusive`, in its words.
        if (params.runner_type === 'project_type' && params.project_id === undefined) ctx.addIssue({ code: 'custom', message: 'project_id is missing' });
        if (params.runner_type === 'group_type' && params.group_id === undefined) ctx.addIssue({ code: 'custom', message: 'group_id is missing' });
        if (params.active !== undefined && params.paused !== undefined) ctx.addIssue({ code: 'custom', message: 'active, paused are mutually exclusive' });
      }),
    authentication: { scopes: ['api', 'create_runner'] },
    handler: async ({ params, user }) => {
      let owner: RunnerOwner;
      if (params.runner_type === 'instance_type') {
        if (!canAdminInstanceRunners(user)) throw new ForbiddenError('Insufficient permissions');
        owner = {};
      } else if (params.runner_type === 'group_type') {
        // GitLab's `GroupRunnerStrategy`: an unknown group is a bad request, one the user does not own a 403.
        const group = await getNamespace(params.group_id!);
        if (group?.kind !== 'group' || group.deleting) throw badRequest('Missing/invalid group');
        if (!canAdminGroupRunners(user, { kind: 'group', group, level: await groupAccessFor(user, group) })) throw new ForbiddenError('Insufficient permissions');
        owner = { groupId: group.id };
      } else {
        // GitLab's `ProjectRunnerStrategy`: an unknown project is a bad request, one the user may not administer a 403.
        const project = await getProject(params.project_id!);
        const namespace = project && !project.deleting ? await getNamespace(project.namespaceId) : undefined;
        if (!project || !namespace) throw badRequest('Missing/invalid project');
        if (!canAdminRunners(user, await projectSubject(project, namespace, user))) throw new ForbiddenError('Insufficient permissions');
        owner = { projectId: project.id };
      }
      const { createRunner } = await import('../commands/runners');
      const { runner, token } = await createRunner(owner, newRunnerSettings(params));
      return created({ id: runner.id, token, token_expires_at: null });
    },
  }),
} satisfies RoutesOf<typeof catalog.users>;
