/** The CI feature's slice of the route catalog, by endpoint group (`shared/catalog.ts` assembles the whole). */
export const catalog = {
  /** Pipelines and jobs as users and clients read and act on them, and the CI/CD variables of projects and groups. */
  ci_jobs: [
    'GET /projects/:id/pipelines',
    'POST /projects/:id/pipeline',
    'GET /projects/:id/pipelines/latest',
    'GET /projects/:id/pipelines/:pipeline_id',
    'DELETE /projects/:id/pipelines/:pipeline_id',
    'POST /projects/:id/pipelines/:pipeline_id/retry',
    'POST /projects/:id/pipelines/:pipeline_id/cancel',
    'GET /projects/:id/pipelines/:pipeline_id/jobs',
    'GET /projects/:id/pipelines/:pipeline_id/variables',
    'GET /projects/:id/jobs',
    'GET /projects/:id/jobs/:job_id',
    'GET /projects/:id/jobs/:job_id/trace',
    'GET /projects/:id/jobs/:job_id/artifacts',
    'GET /projects/:id/jobs/artifacts/:ref_name/download',
    'POST /projects/:id/jobs/:job_id/cancel',
    'POST /projects/:id/jobs/:job_id/retry',
    'POST /projects/:id/jobs/:job_id/play',
    'POST /projects/:id/jobs/:job_id/erase',
    'POST /projects/:id/jobs/:job_id/artifacts/keep',
    // The project's CI/CD variables, which jobs get.
    'GET /projects/:id/variables',
    'GET /projects/:id/variables/:key',
    'POST /projects/:id/variables',
    'PUT /projects/:id/variables/:key',
    'DELETE /projects/:id/variables/:key',
    // A group's CI/CD variables, which the jobs of its projects and of its subgroups' projects get.
    'GET /groups/:id/variables',
    'GET /groups/:id/variables/:key',
    'POST /groups/:id/variables',
    'PUT /groups/:id/variables/:key',
    'DELETE /groups/:id/variables/:key',
    // The instance's CI/CD variables (admins), which every job gets first.
    'GET /admin/ci/variables',
    'GET /admin/ci/variables/:key',
    'POST /admin/ci/variables',
    'PUT /admin/ci/variables/:key',
    'DELETE /admin/ci/variables/:key',
    // The project's pipeline trigger tokens, and the pipelines they (or a running job's token) create.
    'GET /projects/:id/triggers',
    'GET /projects/:id/triggers/:trigger_id',
    'POST /projects/:id/triggers',
    'PUT /projects/:id/triggers/:trigger_id',
    'DELETE /projects/:id/triggers/:trigger_id',
    'POST /projects/:id/trigger/pipeline',
    // GitLab's form for webhooks (the ref in the path, URL-encoded when it holds a slash).
    'POST /projects/:id/ref/:ref/trigger/pipeline',
    // The job of the presented job token, and who may use job tokens on the project (job token scope).
    'GET /job',
    'GET /projects/:id/job_token_scope',
    'PATCH /projects/:id/job_token_scope',
    'GET /projects/:id/job_token_scope/allowlist',
    'POST /projects/:id/job_token_scope/allowlist',
    'DELETE /projects/:id/job_token_scope/allowlist/:target_project_id',
    'GET /projects/:id/job_token_scope/groups_allowlist',
    'POST /projects/:id/job_token_scope/groups_allowlist',
    'DELETE /projects/:id/job_token_scope/groups_allowlist/:target_group_id',
  ],
  /**
   * What runners call (gitlab-runner's network client), and the Runners API users call to manage
   * them (one function: API Gateway serves `/runners/*` and `/projects/{id}/runners/*` each from
   * one greedy resource, see `GATEWAY_SUBTREES`).
   */
  ci_runners: [
    'POST /runners',
    'POST /runners/verify',
    'DELETE /runners',
    'GET /runners',
    'GET /runners/all',
    'GET /runners/:id',
    'PUT /runners/:id',
    'DELETE /runners/:id',
    'GET /runners/:id/jobs',
    'GET /projects/:id/runners',
    'POST /projects/:id/runners',
    'DELETE /projects/:id/runners/:runner_id',
    'POST /jobs/request',
    'PUT /jobs/:id',
    'PATCH /jobs/:id/trace',
    'POST /jobs/:id/artifacts',
    'GET /jobs/:id/artifacts',
  ],
} as const;
