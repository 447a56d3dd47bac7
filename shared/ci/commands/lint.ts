/**
 * The CI Lint API's checks (GitLab's `Gitlab::Ci::Lint`): a configuration text read as pipeline
 * creation reads it ({@link evaluatePipelineConfig}: `spec:inputs`, `include:`, the configuration's
 * checks, `workflow: rules`, the jobs' `rules`/`only`/`except`), in the project's context, writing
 * nothing. A static check (GitLab's `legacy_static_validation`) validates the file and lists every
 * job it defines; a dry run (`simulate_pipeline_creation`) creates nothing but answers what a push
 * pipeline on the ref would be: its errors (the ref missing or protected from the user, the rules
 * leaving no job, a job needing one left out) and the jobs it would get. Loaded by the lint routes
 * on first use, never at the projects function's cold start.
 */
import { stringify } from 'yaml';
import { type ProjectSubject } from '../../auth';
import { projectFullPath, webUrlOf } from '../../projects';
import type { User } from '../../users';
import type { IncludedFileRecord } from '../config/includes';
import type { JobDefinition, RefFilter } from '../config/parse';
import { NotFoundError } from '../../platform/http/errors';
import { commitOf, configPathOf, readCommitAndConfig, refOpenTo, resolveRef, type RefProtections } from '../git';
import { canUpdateBuilds } from '../policy';
import { evaluatePipelineConfig, REFUSALS, type ConfigEvaluation, type PipelineRequest } from './pipelines';

/** GitLab's `Gitlab::Ci::Lint::Result`, as its `Entities::Ci::Lint::Result` presents it. */
export interface LintResult {
  valid: boolean;
  errors: string[];
  warnings: string[];
  merged_yaml: string | null;
  includes: LintInclude[] | null;
  jobs: Array<Record<string, unknown>>;
}

/** One included file (GitLab's `File::Base#metadata`). */
export interface LintInclude {
  type: IncludedFileRecord['type'];
  location: string;
  blob: string | null;
  raw: string | null;
  extra: Record<string, unknown>;
  context_project: string | null;
  context_sha: string;
}

export interface LintRequest {
  subject: ProjectSubject;
  user: User | null;
  /** The configuration's text (undefined: the project has no such file at that commit). */
  content: string | undefined;
  /** The commit the static check reads local includes at (GitLab's `sha`: the default branch's head, or `content_ref`). */
  sha: string | undefined;
  dryRun: boolean;
  /** The branch or tag a dry run simulates a push pipeline on. */
  ref: string;
}

/** GitLab's answer to a blank configuration (`YamlProcessor`). */
const BLANK = 'Please provide content of .gitlab-ci.yml';
/** GitLab's `Chain::EvaluateWorkflowRules` error. */
const FILTERED = 'Pipeline filtered out by workflow rules.';
const ZERO = '0000000000000000000000000000000000000000';

/** Lints a configuration in a project (the caller has authorized the request). */
export async function lintConfig(request: LintRequest): Promise<LintResult> {
  const { subject, user, content } = request;
  if (content === undefined || content.trim() === '') return invalid([BLANK]);
  const project = subject.project;
  const base: PipelineRequest = { project, ref: project.defaultBranch, tag: false, sha: request.sha ?? ZERO, beforeSha: '', source: 'push', user, projectPath: projectFullPath(subject.namespace, project) };
  if (!request.dryRun) {
    const included: IncludedFileRecord[] = [];
    const evaluation = await evaluatePipelineConfig(base, content, included);
    // A configuration that loads and validates is valid whatever jobs the default branch would select.
    const errors = evaluation.config ? [] : [errorOf(evaluation)];
    return result(errors, evaluation, included, evaluation.config ? staticJobs(evaluation.config.jobs, evaluation.config.workflowRules !== undefined) : []);
  }
  // A dry run: GitLab's `Ci::CreatePipelineService` with `dry_run: true` on the ref, as a push.
  if (!canUpdateBuilds(user, subject)) return invalid(['Insufficient permissions to create a new pipeline']);
  const target = await resolveRef(project, request.ref);
  if (!target) return invalid([REFUSALS.commit_not_found]);
  const protections: RefProtections = new Map();
  if (!(await refOpenTo(user, subject, { ref: request.ref, tag: target.tag }, protections))) {
    return invalid([`You do not have sufficient permission to run a pipeline on '${request.ref}'. Please select a different branch or contact your administrator for assistance.`]);
  }
  const included: IncludedFileRecord[] = [];
  const evaluation = await evaluatePipelineConfig({ ...base, ref: request.ref, tag: target.tag, sha: target.sha, protections }, content, included);
  if (evaluation.result !== 'jobs') return result([errorOf(evaluation)], evaluation, included, []);
  return result([], evaluation, included, simulatedJobs(evaluation.jobs));
}

/**
 * Lints the project's own configuration file (`GET /projects/:id/ci/lint`) at `contentRef` (a
 * commit, branch or tag; default: the default branch's head): 404 `Repository` when there is no
 * default branch (an empty repository), 404 `Commit` for a revision it does not have.
 */
export async function lintProjectConfig(request: Omit<LintRequest, 'content' | 'sha'> & { contentRef?: string }): Promise<LintResult> {
  const project = request.subject.project;
  const sha = await commitOf(project, request.contentRef ?? project.defaultBranch);
  if (!sha) throw new NotFoundError(request.contentRef === undefined ? 'Repository' : 'Commit');
  const read = await readCommitAndConfig(project, sha, configPathOf(project));
  return lintConfig({ ...request, sha, content: read?.config });
}

/** The default branch's head, the commit a static check of given content reads local includes at (none in an empty repository). */
export async function defaultBranchHead(subject: ProjectSubject): Promise<string | undefined> {
  return (await resolveRef(subject.project, subject.project.defaultBranch))?.sha;
}

function errorOf(evaluation: ConfigEvaluation): string {
  switch (evaluation.result) {
    case 'invalid':
      return evaluation.error;
    case 'workflow_refused':
      return FILTERED;
    default:
      return REFUSALS.no_jobs;
  }
}

function invalid(errors: string[]): LintResult {
  return { valid: false, errors, warnings: [], merged_yaml: null, includes: null, jobs: [] };
}

function result(errors: string[], evaluation: ConfigEvaluation, included: readonly IncludedFileRecord[], jobs: LintResult['jobs']): LintResult {
  return {
    valid: errors.length === 0,
    errors,
    warnings: [],
    // GitLab's `merged_yaml`: the configuration with its includes merged in, as YAML (string keys).
    merged_yaml: evaluation.merged ? stringify(evaluation.merged, { directives: true }) : null,
    includes: included.map(presentInclude),
    jobs,
  };
}

/** A file's web address at a commit (`/-/blob/` or `/-/raw/`), when its project's path is known. */
function fileUrl(kind: 'blob' | 'raw', record: IncludedFileRecord): string | null {
  return record.source.fullPath ? `${webUrlOf(record.source.fullPath)}/-/${kind}/${record.source.sha}/${record.location}` : null;
}

function presentInclude(record: IncludedFileRecord): LintInclude {
  const read = record.type === 'local' || record.type === 'file';
  return {
    type: record.type,
    location: record.location,
    blob: read ? fileUrl('blob', record) : null,
    raw: read ? fileUrl('raw', record) : null,
    extra: record.extra,
    context_project: record.context.fullPath ?? null,
    context_sha: record.context.sha,
  };
}

/** Jobs in stage order, file order within a stage. */
const byStage = <T extends Pick<JobDefinition, 'stageIdx'>>(jobs: readonly T[]): T[] => [...jobs].sort((a, b) => a.stageIdx - b.stageIdx);

const refFilter = (filter: RefFilter | undefined) => (filter ? { ...(filter.refs ? { refs: filter.refs } : {}), ...(filter.variables ? { variables: filter.variables } : {}) } : null);

/**
 * A job as both lists show it, in GitLab's order: its scripts and tags, `filters` (the static
 * check's `only`/`except`), then where and how it runs.
 */
const jobEntity = (job: JobDefinition, filters: Record<string, unknown> = {}) => ({
  name: job.name,
  stage: job.stage,
  before_script: job.beforeScript,
  script: job.script,
  after_script: job.afterScript,
  tag_list: job.tags,
  ...filters,
  environment: job.environment ?? null,
  when: job.when,
  allow_failure: job.allowFailure,
});

/**
 * Every job the file defines (GitLab's `yaml_processor_result_to_jobs`). `only` is GitLab's default
 * (branches and tags) unless the job has `rules` or the file `workflow: rules`, which drop it.
 */
function staticJobs(jobs: readonly JobDefinition[], workflowRules: boolean): LintResult['jobs'] {
  return byStage(jobs).map((job) => ({
    ...jobEntity(job, {
      only: job.only ? refFilter(job.only) : job.rules || workflowRules ? null : { refs: ['branches', 'tags'] },
      except: refFilter(job.except),
    }),
    needs: job.needs ? job.needs.map((need) => ({ name: need.name, artifacts: need.artifacts, optional: need.optional })) : null,
  }));
}

/** The jobs a simulated pipeline gets (GitLab's `dry_run_convert_to_jobs`), their rules applied. */
function simulatedJobs(jobs: readonly JobDefinition[]): LintResult['jobs'] {
  return byStage(jobs).map((job) => jobEntity(job));
}
