/**
 * The commit status API's report (GitLab's `lib/api/commit_statuses.rb`), what external CI systems
 * report builds with (Jenkins' GitLab plugin, python-gitlab's `commit.statuses.create(...)`):
 * `POST /projects/:id/statuses/:sha`, developers (`create_commit_status`), served by the `projects`
 * group, which owns `/projects/{id}/{proxy+}` (the list is `commit-status-list.ts`, served by the
 * `repository` group). 401 anonymous, 403 below the ability, 404 a project the caller may not see
 * or an unknown commit. The command (pipelines, the repository) is loaded on the first report, not
 * at the projects function's cold start.
 */
import * as z from 'zod';
import { authorize } from '../../auth';
import { idParam, limitedString, p, required } from '../../platform/http/params';
import { created } from '../../platform/http/response';
import { route, type RoutesOf } from '../../platform/http/route';
import { findProjectOrNotFound } from '../../projects';
import type { catalog } from '../catalog';
import { presentCommitStatus } from '../presenters/commit-statuses';

/** Grape's `Float`: a number, given as text or JSON; anything else `coverage is invalid`. */
const floatParam = () => z.preprocess((value) => (value === undefined || value === null || value === '' ? undefined : typeof value === 'number' ? value : Number(String(value))), z.number().finite().optional());

/** GitLab's model limits (255 characters) on a status's ref, target URL and description. */
const text255 = () => z.preprocess((value) => (value === undefined || value === null ? undefined : String(value)), limitedString({ max: 255 }).optional());

export const commitStatusRoutes = {
  'POST /projects/:id/statuses/:sha': route({
    params: z.object({
      ...idParam,
      sha: required(p.string()),
      state: required(p.oneOf(['pending', 'running', 'success', 'failed', 'canceled', 'skipped'])),
      ref: text255(),
      name: p.string({ max: 255 }),
      context: p.string({ max: 255 }),
      target_url: text255(),
      description: text255(),
      coverage: floatParam(),
      pipeline_id: p.int(),
    }),
    handler: async ({ params, user }) => {
      const subject = await findProjectOrNotFound(params.id, user);
      authorize(user, 'create_commit_status', subject);
      const { setCommitStatus } = await import('../commands/commit-statuses');
      const status = await setCommitStatus({
        subject,
        user,
        sha: params.sha,
        state: params.state,
        ref: params.ref || undefined,
        name: params.name || params.context || 'default',
        targetUrl: params.target_url,
        description: params.description,
        coverage: params.coverage,
        pipelineId: params.pipeline_id,
      });
      return created(presentCommitStatus(status, user));
    },
  }),
} satisfies RoutesOf<typeof catalog.projects>;
