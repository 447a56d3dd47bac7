/**
 * The job as `POST /jobs/request` hands it to a runner (GitLab's `Entities::Ci::JobRequest::Response`,
 * what gitlab-runner's `common.JobResponse` reads): git access with the job token, the steps, the
 * image and services, variables (GitLab's predefined `CI_*` ones, then the file's, the groups',
 * the project's and the pipeline's, so that the later win), artifacts, cache and the
 * dependencies whose artifacts it downloads. The project's CI/CD settings shape it as GitLab's
 * `Ci::BuildRunnerPresenter` does: `allow_git_fetch` is its `build_git_strategy` (gitlab-runner
 * fetches or clones by it unless the job has a `GIT_STRATEGY` variable), `git_info.depth` the
 * job's `GIT_DEPTH` variable, else its `ci_default_git_depth` (0 or none: a full clone, with every
 * branch and tag in the refspecs), the timeout the one fixed when the job was taken. Like GitLab,
 * no `GIT_DEPTH` or `GIT_STRATEGY` variable is added: the runner reads these fields.
 */
import { config } from '../../platform/config';
import { environmentSlug, refSlug } from '../config/expand';
import type { PipelineVariable } from '../pipeline-variables';
import type { ProjectVariable } from '../queries/variables';
import type { Job, Pipeline } from '../store/pipelines';
import type { ReleaseDefinition } from '../config/parse';
import { isMergeRequestRef, mergeRequestVariables } from '../merge-request-variables';
import { serverVariables } from '../server-variables';

export interface RunnerJobContext {
  job: Job;
  token: string;
  pipeline: Pipeline;
  projectPath: string;
  projectName: string;
  namespacePath: string;
  defaultBranch: string;
  visibility: string;
  runner: { id: number; description: string; tags: string[] };
  /** Finished jobs of the pipeline whose artifacts this one gets. */
  dependencies: Job[];
  user: { id: number; username: string; name: string; email: string } | null;
  /** Whether the job's ref is protected (`CI_COMMIT_REF_PROTECTED`). */
  refProtected: boolean;
  /** The CI/CD variables of the project and its groups the job sees, in order of precedence (`queries/variables.ts` `variablesFor`). */
  projectVariables: ProjectVariable[];
  /** The variables the pipeline was created with, opened (`pipelineVariables`). */
  pipelineVariables: PipelineVariable[];
  /** The project's or its group's active deploy token named `gitlab-deploy-token`, if any (`CI_DEPLOY_USER`, `CI_DEPLOY_PASSWORD`). */
  deployToken?: { username: string; password: string };
  /** The project's CI/CD settings as the job is handed out: `CI_CONFIG_PATH`, `ci_default_git_depth`, `build_git_strategy`. */
  settings: { configPath: string; defaultGitDepth: number | null; gitStrategy: 'fetch' | 'clone' };
}

type Variable = { key: string; value: string; public: boolean; masked: boolean; file?: boolean; raw?: boolean };


export function predefinedVariables(ctx: RunnerJobContext): Variable[] {
  const { job, pipeline } = ctx;
  const mergeRequest = pipeline.mergeRequest;
  // A merge request pipeline's ref name is its source branch (GitLab's `source_ref`), with no `CI_COMMIT_BRANCH`.
  const refName = mergeRequest?.sourceBranch ?? job.ref;
  const base = config().externalUrl;
  const projectUrl = `${base}/${ctx.projectPath}`;
  const pairs: Array<[string, string, boolean?]> = [
    ['CI', 'true'],
    ['GITLAB_CI', 'true'],
    ...serverVariables(),
    ['CI_JOB_ID', String(job.id)],
    ['CI_JOB_NAME', job.name],
    ['CI_JOB_STAGE', job.stage],
    ['CI_JOB_URL', `${projectUrl}/-/jobs/${job.id}`],
    ['CI_JOB_STARTED_AT', job.startedAt ?? ''],
    ['CI_JOB_TOKEN', ctx.token, false],
    ['CI_BUILD_TOKEN', ctx.token, false],
    ['CI_JOB_MANUAL', job.when === 'manual' ? 'true' : ''],
    ...environmentVariables(job),
    // A `parallel:` job's place among its siblings (the parser puts them with its variables); 1 of 1 otherwise.
    ...(job.spec.variables?.CI_NODE_INDEX ? ([['CI_NODE_INDEX', job.spec.variables.CI_NODE_INDEX]] as Array<[string, string]>) : []),
    ['CI_NODE_TOTAL', job.spec.variables?.CI_NODE_TOTAL ?? '1'],
    ['CI_REGISTRY_USER', 'gitlab-ci-token'],
    ['CI_REGISTRY_PASSWORD', ctx.token, false],
    // GitLab's `deploy_token_variables`: only when the project or its group has a `gitlab-deploy-token`.
    ...(ctx.deployToken
      ? ([
          ['CI_DEPLOY_USER', ctx.deployToken.username],
          ['CI_DEPLOY_PASSWORD', ctx.deployToken.password, false],
        ] as Array<[string, string, boolean?]>)
      : []),
    ['CI_REPOSITORY_URL', repoUrl(ctx)],
    ['CI_PIPELINE_ID', String(pipeline.id)],
    ['CI_PIPELINE_IID', String(pipeline.iid)],
    ['CI_PIPELINE_SOURCE', pipeline.source],
    // Created with a trigger token (GitLab sets it for a pipeline's trigger request).
    ...(pipeline.source === 'trigger' ? ([['CI_PIPELINE_TRIGGERED', 'true']] as Array<[string, string]>) : []),
    ['CI_PIPELINE_URL', `${projectUrl}/-/pipelines/${pipeline.id}`],
    ['CI_PIPELINE_CREATED_AT', pipeline.createdAt],
    ['CI_COMMIT_SHA', job.sha],
    ['CI_COMMIT_SHORT_SHA', job.sha.slice(0, 8)],
    ['CI_COMMIT_BEFORE_SHA', job.beforeSha],
    ['CI_COMMIT_REF_NAME', refName],
    ['CI_COMMIT_REF_SLUG', refSlug(refName)],
    ['CI_COMMIT_REF_PROTECTED', String(ctx.refProtected)],
    ...(mergeRequest
      ? mergeRequestVariables(mergeRequest)
      : job.tag
        ? ([['CI_COMMIT_TAG', job.ref]] as Array<[string, string]>)
        : ([['CI_COMMIT_BRANCH', job.ref]] as Array<[string, string]>)),
    ['CI_COMMIT_MESSAGE', pipeline.commit?.message ?? ''],
    ['CI_COMMIT_TITLE', (pipeline.commit?.message ?? '').split('\n', 1)[0]],
    ['CI_COMMIT_AUTHOR', pipeline.commit ? `${pipeline.commit.authorName} <${pipeline.commit.authorEmail}>` : ''],
    ['CI_COMMIT_TIMESTAMP', pipeline.commit?.committedDate ?? ''],
    ['CI_DEFAULT_BRANCH', ctx.defaultBranch],
    ['CI_CONFIG_PATH', ctx.settings.configPath],
    ['CI_PROJECT_ID', String(job.projectId)],
    ['CI_PROJECT_NAME', ctx.projectName],
    ['CI_PROJECT_TITLE', ctx.projectName],
    ['CI_PROJECT_PATH', ctx.projectPath],
    ['CI_PROJECT_PATH_SLUG', refSlug(ctx.projectPath)],
    ['CI_PROJECT_NAMESPACE', ctx.namespacePath],
    ['CI_PROJECT_ROOT_NAMESPACE', ctx.namespacePath.split('/')[0]],
    ['CI_PROJECT_URL', projectUrl],
    ['CI_PROJECT_VISIBILITY', ctx.visibility],
    ['CI_PROJECT_DIR', `/builds/${ctx.projectPath}`],
    ['CI_RUNNER_ID', String(ctx.runner.id)],
    ['CI_RUNNER_DESCRIPTION', ctx.runner.description],
    ['CI_RUNNER_TAGS', JSON.stringify(ctx.runner.tags)],
    ...(ctx.user
      ? ([
          ['GITLAB_USER_ID', String(ctx.user.id)],
          ['GITLAB_USER_LOGIN', ctx.user.username],
          ['GITLAB_USER_NAME', ctx.user.name],
          ['GITLAB_USER_EMAIL', ctx.user.email],
        ] as Array<[string, string]>)
      : []),
  ];
  return pairs.map(([key, value, isPublic]) => ({ key, value, public: isPublic ?? true, masked: isPublic === false }));
}

/**
 * A job with an environment: its expanded name, slug, action (`start` unless `environment:action`
 * says), URL when the file gives it, and tier (GitLab's `CI_ENVIRONMENT_*`).
 */
function environmentVariables({ spec, environmentLink }: Pick<Job, 'spec' | 'environmentLink'>): Array<[string, string]> {
  if (!spec.environment) return [];
  const { url, action } = spec.environmentOptions ?? {};
  // The file's `deployment_tier`, else the environment's tier (given or guessed from its name).
  const tier = environmentLink?.tier ?? spec.environmentOptions?.deploymentTier;
  return [
    ['CI_ENVIRONMENT_NAME', spec.environment],
    ['CI_ENVIRONMENT_SLUG', environmentSlug(spec.environment)],
    ['CI_ENVIRONMENT_ACTION', action ?? 'start'],
    ...(url ? ([['CI_ENVIRONMENT_URL', url]] as Array<[string, string]>) : []),
    ...(tier ? ([['CI_ENVIRONMENT_TIER', tier]] as Array<[string, string]>) : []),
  ];
}

function repoUrl(ctx: RunnerJobContext): string {
  const url = new URL(`${config().externalUrl}/${ctx.projectPath}.git`);
  url.username = 'gitlab-ci-token';
  url.password = ctx.token;
  return url.toString();
}

/** Predefined, though `parallel:` jobs carry them with their variables. */
const NODE_VARIABLES = new Set(['CI_NODE_INDEX', 'CI_NODE_TOTAL']);

/**
 * The release step's command (GitLab's `Gitlab::Ci::Build::Releaser`, release-cli form): each
 * given field as a double-quoted flag (the runner's shell expands `$CI_COMMIT_TAG` and the like),
 * one `--milestone` each, one `--assets-link` each as a shell-quoted JSON string.
 */
export function releaseCommand(release: ReleaseDefinition): string {
  const flags: Array<[string, string | undefined]> = [
    ['name', release.name],
    ['description', release.description],
    ['tag-name', release.tagName],
    ['tag-message', release.tagMessage],
    ['ref', release.ref],
    ['released-at', release.releasedAt],
  ];
  return [
    'release-cli create',
    ...flags.filter(([, value]) => value !== undefined).map(([flag, value]) => `--${flag} "${value}"`),
    ...(release.milestones ?? []).map((milestone) => `--milestone "${milestone}"`),
    ...(release.links ?? []).map((link) => `--assets-link ${JSON.stringify(JSON.stringify(link))}`),
  ].join(' ');
}

/**
 * What the runner fetches: the branch or the tag; for a merge request pipeline its merge request's
 * head ref, kept as it is (one a fork runs is on its source branch: the branch) (GitLab fetches its pipeline's persistent ref the same way). A full
 * clone (depth 0) fetches every branch and tag besides (GitLab's `refspecs`).
 */
function refspecsOf({ job, pipeline }: RunnerJobContext, depth: number): string[] {
  const everything = ['+refs/heads/*:refs/remotes/origin/*', '+refs/tags/*:refs/tags/*'];
  if (pipeline.mergeRequest && isMergeRequestRef(job.ref)) return [`+${job.ref}:${job.ref}`, ...(depth > 0 ? [] : everything)];
  if (depth <= 0) return everything;
  return [job.tag ? `+refs/tags/${job.ref}:refs/tags/${job.ref}` : `+refs/heads/${job.ref}:refs/remotes/origin/${job.ref}`];
}

/**
 * The clone depth (GitLab's `BuildRunnerPresenter#git_depth`): the job's last `GIT_DEPTH`
 * variable, whatever its source, else the project's default; read as Ruby's `to_i` reads it
 * (leading digits, else 0; none is 0).
 */
function gitDepthOf(variables: readonly Variable[], defaultDepth: number | null): number {
  const given = variables.findLast((variable) => variable.key === 'GIT_DEPTH');
  if (!given) return defaultDepth ?? 0;
  const digits = /^\s*([+-]?\d+(?:_\d+)*)/.exec(given.value)?.[1];
  return digits ? Number(digits.replaceAll('_', '')) : 0;
}

export function presentRunnerJob(ctx: RunnerJobContext) {
  const { job } = ctx;
  const spec = job.spec;
  const variables: Variable[] = [
    ...predefinedVariables(ctx),
    ...Object.entries(spec.variables ?? {})
      .filter(([key]) => !NODE_VARIABLES.has(key))
      .map(([key, value]) => ({ key, value, public: true, masked: false })),
    ...ctx.projectVariables.map((v) => ({ key: v.key, value: v.value, public: false, masked: v.masked, ...(v.variableType === 'file' ? { file: true } : {}), ...(v.raw ? { raw: true } : {}) })),
    ...ctx.pipelineVariables.map((v) => ({ key: v.key, value: v.value, public: false, masked: false, ...(v.variableType === 'file' ? { file: true } : {}) })),
  ];
  // Fixed when the job was taken (`jobTimeout`); a job taken before it was kept: its `timeout:`, else GitLab's default.
  const timeout = job.timeout ?? spec.timeout ?? 3600;
  const depth = gitDepthOf(variables, ctx.settings.defaultGitDepth);
  // GitLab's `BuildRunnerPresenter#artifacts`: the archive (unless only reports are configured), then
  // each report, uploaded whatever the job's outcome, gzipped, as its type's default file name.
  const definition = spec.artifacts;
  const reportsOnly = Boolean(definition?.reports) && definition!.paths.length === 0 && !definition!.untracked;
  const artifacts = definition
    ? [
        ...(reportsOnly
          ? []
          : [
              {
                name: definition.name ?? 'artifacts',
                untracked: definition.untracked,
                paths: definition.paths,
                exclude: definition.exclude,
                when: definition.when,
                artifact_type: 'archive',
                artifact_format: 'zip',
                expire_in: definition.expireIn ?? null,
              },
            ]),
        ...(definition.reports?.junit
          ? [{ name: 'junit.xml', paths: definition.reports.junit, when: 'always', artifact_type: 'junit', artifact_format: 'gzip', expire_in: definition.expireIn ?? null }]
          : []),
      ]
    : null;
  return {
    id: job.id,
    token: ctx.token,
    allow_git_fetch: ctx.settings.gitStrategy === 'fetch',
    job_info: {
      id: job.id,
      name: job.name,
      stage: job.stage,
      project_id: job.projectId,
      project_name: ctx.projectName,
      project_jobs_running_on_instance_runners_count: '0',
      time_in_queue_seconds: job.queuedAt && job.startedAt ? Math.round((Date.parse(job.startedAt) - Date.parse(job.queuedAt)) / 1000) : 0,
    },
    git_info: {
      repo_url: repoUrl(ctx),
      ref: job.ref,
      sha: job.sha,
      before_sha: job.beforeSha,
      ref_type: job.tag ? 'tag' : 'branch',
      refspecs: refspecsOf(ctx, depth),
      depth,
      // The job's ref is protected (GitLab's `Ci::Build#protected`): gitlab-runner keeps its caches apart then.
      protected: ctx.refProtected,
    },
    runner_info: { timeout, runner_session_url: null },
    variables,
    steps: [
      { name: 'script', script: [...spec.beforeScript, ...spec.script], timeout, when: 'on_success', allow_failure: false },
      ...(spec.release ? [{ name: 'release', script: [releaseCommand(spec.release)], timeout, when: 'on_success', allow_failure: false }] : []),
      ...(spec.afterScript.length ? [{ name: 'after_script', script: spec.afterScript, timeout, when: 'always', allow_failure: true }] : []),
    ],
    image: spec.image ? { name: spec.image.name, entrypoint: spec.image.entrypoint ?? null, ports: [], pull_policy: null } : null,
    services: spec.services.map((service) => ({
      name: service.name,
      entrypoint: service.entrypoint ?? null,
      alias: service.alias ?? null,
      command: service.command ?? null,
      ports: [],
      variables: [],
      pull_policy: null,
    })),
    artifacts,
    cache: spec.cache.map((cache) => ({ key: cache.key, untracked: cache.untracked, policy: cache.policy, paths: cache.paths, when: cache.when, fallback_keys: [] })),
    credentials: [],
    dependencies: ctx.dependencies.map((dependency) => ({
      id: dependency.id,
      name: dependency.name,
      token: ctx.token,
      ...(dependency.artifacts ? { artifacts_file: { filename: dependency.artifacts.filename, size: dependency.artifacts.size } } : {}),
    })),
    features: { trace_sections: true, failure_reasons: ['unknown_failure', 'script_failure', 'api_failure', 'stuck_or_timeout_failure', 'runner_system_failure', 'missing_dependency_failure', 'runner_unsupported', 'job_execution_timeout'] },
  };
}
