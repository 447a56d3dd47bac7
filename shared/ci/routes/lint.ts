/**
 * The CI Lint API (GitLab's `lib/api/lint.rb`), what `glab ci lint` and python-gitlab's
 * `project.ci_lint.create(...)` / `.validate(...)` / `.get()` call: `POST /projects/:id/ci/lint`
 * checks the given `content` (developers: GitLab's `create_pipeline`), `GET /projects/:id/ci/lint`
 * the project's own configuration file at `content_ref` (`sha`) (whoever reads the code). Both may
 * simulate a push pipeline on a ref (`dry_run`, `ref` / `dry_run_ref`) and list its jobs
 * (`include_jobs`). Served by the `projects` group (`/projects/{id}/{proxy+}`: no resource of its
 * own); the checks (the pipeline creation's configuration code and its YAML parser) are loaded on
 * the first request, not at the projects function's cold start.
 */
import * as z from 'zod';
import { can } from '../../auth';
import { idParam, p, requiredKey } from '../../platform/http/params';
import { ok } from '../../platform/http/response';
import { route, type RoutesOf } from '../../platform/http/route';
import { findProjectOrNotFound } from '../../projects';
import type { catalog } from '../catalog';
import { ForbiddenError, UnauthorizedError } from '../../platform/http/errors';
import type { LintResult } from '../commands/lint';

/** GitLab's `Entities::Ci::Lint::Result`: `jobs` only with `include_jobs`. */
function presentLint(result: LintResult, includeJobs: boolean | undefined) {
  const { jobs, ...rest } = result;
  return includeJobs ? { ...rest, jobs } : rest;
}

/** GitLab's `authorize!` behind its `authenticate!`: 403, or 401 for an anonymous caller (the `policy.ts` rule, without its git reads at cold start). */
function authorizeLint(user: unknown, allowed: boolean): void {
  if (allowed) return;
  throw user === null ? new UnauthorizedError() : new ForbiddenError();
}

/** Grape's `mutually_exclusive`. */
const exclusive = (a: string, b: string) => (value: Record<string, unknown>, ctx: z.RefinementCtx) => {
  if (value[a] !== undefined && value[b] !== undefined) ctx.addIssue({ code: 'custom', message: `${a}, ${b} are mutually exclusive` });
};

/** The largest configuration text checked (GitLab's `max_yaml_size_bytes` default: 2 MB). */
const MAX_CONTENT = 2 * 1024 * 1024;

export const lintRoutes = {
  'GET /projects/:id/ci/lint': route({
    params: z
      .object({ ...idParam, sha: p.string(), content_ref: p.string(), dry_run: p.bool(), include_jobs: p.bool(), ref: p.string(), dry_run_ref: p.string() })
      .superRefine(exclusive('sha', 'content_ref'))
      .superRefine(exclusive('ref', 'dry_run_ref')),
    anonymous: true,
    handler: async ({ params, user }) => {
      const subject = await findProjectOrNotFound(params.id, user);
      // GitLab's `authorize_read_code!`: 403 (401 anonymous) to those who may not read the code.
      authorizeLint(user, can(user, 'download_code', subject));
      const { lintProjectConfig } = await import('../commands/lint');
      const result = await lintProjectConfig({
        subject,
        user,
        contentRef: params.content_ref ?? params.sha,
        dryRun: params.dry_run ?? false,
        ref: params.dry_run_ref ?? params.ref ?? subject.project.defaultBranch,
      });
      return ok(presentLint(result, params.include_jobs));
    },
  }),

  'POST /projects/:id/ci/lint': route({
    params: z.object({
      ...idParam,
      // Grape's `requires :content, type: String`: absent is `content is missing`, blank is linted (and invalid).
      content: requiredKey(z.preprocess((value) => (value === undefined || value === null ? undefined : typeof value === 'string' ? value : String(value)), z.string().max(MAX_CONTENT, { message: 'is too long' }).optional())),
      dry_run: p.bool(),
      include_jobs: p.bool(),
      ref: p.string({ max: 1024 }),
    }),
    handler: async ({ params, user }) => {
      const subject = await findProjectOrNotFound(params.id, user);
      // GitLab's `authorize! :create_pipeline`: developers.
      authorizeLint(user, can(user, 'update_build', subject));
      const { defaultBranchHead, lintConfig } = await import('../commands/lint');
      const result = await lintConfig({
        subject,
        user,
        content: params.content,
        sha: await defaultBranchHead(subject),
        dryRun: params.dry_run ?? false,
        ref: params.ref ?? subject.project.defaultBranch,
      });
      return ok(presentLint(result, params.include_jobs));
    },
  }),
} satisfies RoutesOf<typeof catalog.projects>;
