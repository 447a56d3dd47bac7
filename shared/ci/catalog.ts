/** The CI feature's slice of the route catalog, by endpoint group (`shared/catalog.ts` assembles the whole). */
export const catalog = {
  /** Pipelines and jobs as users and clients read and act on them, and the CI/CD variables of projects and groups. */
  ci_jobs: [
    'GET /projects/:id/pipelines',
    'POST /projects/:id/pipeline',
    'GET /projects/:id/pipelines/latest',
    'GET /projects/:id/pipelines/:pipeline_id',
    'DELETE /projects/:id/pipelines/:pipeline_id',
    'PUT /projects/:id/pipelines/:pipeline_id/metadata',
    'POST /projects/:id/pipelines/:pipeline_id/retry',
    'POST /projects/:id/pipelines/:pipeline_id/cancel',
    'GET /projects/:id/pipelines/:pipeline_id/jobs',
    'GET /projects/:id/pipelines/:pipeline_id/bridges',
    'GET /projects/:id/pipelines/:pipeline_id/variables',
    // Its JUnit reports (`artifacts:reports:junit`): every case, and the counts only.
    'GET /projects/:id/pipelines/:pipeline_id/test_report',
    'GET /projects/:id/pipelines/:pipeline_id/test_report_summary',
    'GET /projects/:id/jobs',
    'GET /projects/:id/jobs/:job_id',
    'GET /projects/:id/jobs/:job_id/trace',
    'GET /projects/:id/jobs/:job_id/artifacts',
    'GET /projects/:id/jobs/artifacts/:ref_name/download',
    // One file of the archive (one subtree, `GATEWAY_SUBTREES`), and deleting artifacts before they expire.
    'GET /projects/:id/jobs/:job_id/artifacts/:artifact_path+',
    // A root file named `keep` (the resource of POST …/artifacts/keep is matched first).
    'GET /projects/:id/jobs/:job_id/artifacts/keep',
    'GET /projects/:id/jobs/artifacts/:ref_name/raw/:artifact_path+',
    'DELETE /projects/:id/jobs/:job_id/artifacts',
    'DELETE /projects/:id/artifacts',
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
    // The project's environments, which jobs with `environment:` deploy to, and their deployments.
    'GET /projects/:id/environments',
    'GET /projects/:id/environments/:environment_id',
    'POST /projects/:id/environments',
    'PUT /projects/:id/environments/:environment_id',
    'DELETE /projects/:id/environments/:environment_id',
    'POST /projects/:id/environments/:environment_id/stop',
    'DELETE /projects/:id/environments/review_apps',
    'POST /projects/:id/environments/stop_stale',
    'GET /projects/:id/deployments',
    'GET /projects/:id/deployments/:deployment_id',
    'POST /projects/:id/deployments',
    'PUT /projects/:id/deployments/:deployment_id',
    'DELETE /projects/:id/deployments/:deployment_id',
    // The project's pipeline schedules (one subtree, `GATEWAY_SUBTREES`), their variables and pipelines.
    'GET /projects/:id/pipeline_schedules',
    'POST /projects/:id/pipeline_schedules',
    'GET /projects/:id/pipeline_schedules/:pipeline_schedule_id',
    'PUT /projects/:id/pipeline_schedules/:pipeline_schedule_id',
    'DELETE /projects/:id/pipeline_schedules/:pipeline_schedule_id',
    'GET /projects/:id/pipeline_schedules/:pipeline_schedule_id/pipelines',
    'POST /projects/:id/pipeline_schedules/:pipeline_schedule_id/take_ownership',
    'POST /projects/:id/pipeline_schedules/:pipeline_schedule_id/play',
    'POST /projects/:id/pipeline_schedules/:pipeline_schedule_id/variables',
    'GET /projects/:id/pipeline_schedules/:pipeline_schedule_id/variables/:key',
    'PUT /projects/:id/pipeline_schedules/:pipeline_schedule_id/variables/:key',
    'DELETE /projects/:id/pipeline_schedules/:pipeline_schedule_id/variables/:key',
  ],
  /**
   * What runners call (gitlab-runner's network client), and the Runners API users call to manage
   * them (one function: API Gateway serves `/runners/*` and `/projects/{id}/runners/*` each from
   * one greedy resource, see `GATEWAY_SUBTREES`).
   */
  /** A commit's statuses, under the repository API's commits (served by the `repository` group, its subtree). */
  repository: ['GET /projects/:id/repository/commits/:sha/statuses'],
  /**
   * Reporting a commit's status, and the CI Lint API (no subtree of their own: served by the
   * `projects` group's `/projects/{id}/{proxy+}`; the lint's configuration code loaded on first use).
   */
  projects: ['POST /projects/:id/statuses/:sha', 'GET /projects/:id/ci/lint', 'POST /projects/:id/ci/lint'],
  /** Creating a runner as a user (served by the `users` group's `/user` subtree). */
  users: ['POST /user/runners'],
  /** A group's runners (served by the `groups` group's `/groups/{id}` subtree: no resource of its own). */
  groups: ['GET /groups/:id/runners'],
  ci_runners: [
    'POST /runners',
    'POST /runners/verify',
    'POST /runners/reset_authentication_token',
    'DELETE /runners',
    'DELETE /runners/managers',
    'GET /runners',
    'GET /runners/all',
    'GET /runners/:id',
    'PUT /runners/:id',
    'DELETE /runners/:id',
    'GET /runners/:id/managers',
    'POST /runners/:id/reset_authentication_token',
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
