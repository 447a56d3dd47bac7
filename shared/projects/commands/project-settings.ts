/**
 * A project's name, path and settings as the API names them: GitLab's defaults, its validation
 * messages and the path derived from a name. Pure: the create and edit commands apply them.
 */
import { reservedPathMessage } from '../../namespaces';
import { ValidationError } from '../../platform/http/errors';
import { PROJECT_FEATURES, type FeatureAccessLevel, type ProjectFeature } from '../../auth';
import type { ProjectSettings } from '../store/projects';

/** Settings as the API names them (create, create-for-user, edit). */
export interface ProjectSettingsInput {
  description?: string;
  default_branch?: string;
  visibility?: 'private' | 'internal' | 'public';
  issues_enabled?: boolean;
  merge_requests_enabled?: boolean;
  jobs_enabled?: boolean;
  wiki_enabled?: boolean;
  snippets_enabled?: boolean;
  container_registry_enabled?: boolean;
  shared_runners_enabled?: boolean;
  public_jobs?: boolean;
  only_allow_merge_if_pipeline_succeeds?: boolean;
  only_allow_merge_if_all_discussions_are_resolved?: boolean;
  lfs_enabled?: boolean;
  request_access_enabled?: boolean;
  import_url?: string;
  tag_list?: string[];
  ci_config_path?: string;
  build_timeout?: number;
  ci_default_git_depth?: number;
  build_git_strategy?: 'fetch' | 'clone';
  auto_cancel_pending_pipelines?: 'enabled' | 'disabled';
  keep_latest_artifact?: boolean;
  ci_forward_deployment_enabled?: boolean;
  group_runners_enabled?: boolean;
  /** GitLab's current names of `tag_list` and of the features' flags (`issues_access_level`, …). */
  topics?: string[];
  issues_access_level?: FeatureAccessLevel;
  merge_requests_access_level?: FeatureAccessLevel;
  builds_access_level?: FeatureAccessLevel;
  wiki_access_level?: FeatureAccessLevel;
  snippets_access_level?: FeatureAccessLevel;
  container_registry_access_level?: FeatureAccessLevel;
}

/** The most topics a project has here (GitLab sets no limit). */
export const MAX_TOPICS = 40;

/** GitLab's settings of a new project. */
export const DEFAULT_SETTINGS: ProjectSettings = {
  description: null,
  defaultBranch: 'master',
  visibility: 'private',
  issuesEnabled: true,
  mergeRequestsEnabled: true,
  jobsEnabled: true,
  wikiEnabled: true,
  snippetsEnabled: true,
  containerRegistryEnabled: true,
  sharedRunnersEnabled: true,
  publicJobs: true,
  onlyAllowMergeIfPipelineSucceeds: false,
  onlyAllowMergeIfAllDiscussionsAreResolved: false,
  lfsEnabled: true,
  requestAccessEnabled: false,
  importUrl: null,
  tagList: [],
  ciConfigPath: null,
  buildTimeout: 3600,
  ciDefaultGitDepth: 20,
  buildGitStrategy: 'fetch',
  autoCancelPendingPipelines: 'enabled',
  keepLatestArtifact: true,
  ciForwardDeploymentEnabled: true,
  groupRunnersEnabled: true,
};

/** `base` with the given settings applied (those not given keep their value). */
export function applySettings<T extends ProjectSettings>(base: T, input: ProjectSettingsInput): T {
  const next = { ...base };
  if (input.description !== undefined) next.description = input.description;
  if (input.default_branch !== undefined) next.defaultBranch = input.default_branch;
  if (input.visibility !== undefined) next.visibility = input.visibility;
  if (input.shared_runners_enabled !== undefined) next.sharedRunnersEnabled = input.shared_runners_enabled;
  if (input.public_jobs !== undefined) next.publicJobs = input.public_jobs;
  if (input.only_allow_merge_if_pipeline_succeeds !== undefined) next.onlyAllowMergeIfPipelineSucceeds = input.only_allow_merge_if_pipeline_succeeds;
  if (input.only_allow_merge_if_all_discussions_are_resolved !== undefined)
    next.onlyAllowMergeIfAllDiscussionsAreResolved = input.only_allow_merge_if_all_discussions_are_resolved;
  if (input.lfs_enabled !== undefined) next.lfsEnabled = input.lfs_enabled;
  if (input.request_access_enabled !== undefined) next.requestAccessEnabled = input.request_access_enabled;
  if (input.import_url !== undefined) next.importUrl = input.import_url;
  if (input.tag_list !== undefined) next.tagList = input.tag_list;
  if (input.topics !== undefined) next.tagList = input.topics;
  // A feature's flag sets it enabled or disabled (GitLab's compatibility setters); its access level, given too, wins.
  const flags: Partial<Record<ProjectFeature, boolean | undefined>> = {
    issues: input.issues_enabled,
    merge_requests: input.merge_requests_enabled,
    builds: input.jobs_enabled,
    wiki: input.wiki_enabled,
    snippets: input.snippets_enabled,
    container_registry: input.container_registry_enabled,
  };
  for (const feature of Object.keys(PROJECT_FEATURES) as ProjectFeature[]) {
    const flag = flags[feature];
    const level = input[`${feature}_access_level`] ?? (flag === undefined ? undefined : flag ? 'enabled' : 'disabled');
    if (level === undefined) continue;
    next[PROJECT_FEATURES[feature]] = level !== 'disabled';
    const membersOnly = (next.membersOnlyFeatures ?? []).filter((other) => other !== feature);
    next.membersOnlyFeatures = level === 'private' ? [...membersOnly, feature] : membersOnly;
  }
  // GitLab stores a blank CI config path as none (the default `.gitlab-ci.yml`).
  if (input.ci_config_path !== undefined) next.ciConfigPath = input.ci_config_path.trim() === '' ? null : input.ci_config_path;
  if (input.build_timeout !== undefined) next.buildTimeout = input.build_timeout;
  if (input.ci_default_git_depth !== undefined) next.ciDefaultGitDepth = input.ci_default_git_depth;
  if (input.build_git_strategy !== undefined) next.buildGitStrategy = input.build_git_strategy;
  if (input.auto_cancel_pending_pipelines !== undefined) next.autoCancelPendingPipelines = input.auto_cancel_pending_pipelines;
  if (input.keep_latest_artifact !== undefined) next.keepLatestArtifact = input.keep_latest_artifact;
  if (input.ci_forward_deployment_enabled !== undefined) next.ciForwardDeploymentEnabled = input.ci_forward_deployment_enabled;
  if (input.group_runners_enabled !== undefined) next.groupRunnersEnabled = input.group_runners_enabled;
  return next;
}

/**
 * GitLab's `Gitlab::PathRegex.project_path_format_regex` (`PATH_REGEX_STR` not followed by the
 * suffix `.git` or `.atom`, a case-sensitive lookbehind) and `project_path_format_message`.
 */
const PATH = /^[a-zA-Z0-9_.][a-zA-Z0-9_.-]*$/;
const PATH_SUFFIX = /\.(git|atom)$/;
const PATH_MESSAGE = "can contain only letters, digits, '_', '-' and '.'. Cannot start with '-', end in '.git' or end in '.atom'";
/**
 * GitLab's `Gitlab::Regex.oci_repository_path_regex` and its message, which `Project` checks on a
 * new or changed path (gitlab-org/gitlab#27483): no special character first or last, none twice in
 * a row. It is what refuses `.`, `..` and paths ending in `.`, which the format above lets through.
 */
const SPECIAL_CHARACTERS = /^[a-zA-Z0-9]+([._-][a-zA-Z0-9]+)*$/;
const SPECIAL_CHARACTERS_MESSAGE =
  "can only include non-accented letters, digits, '_', '-' and '.'. It must not start with '-', '_', or '.', nor end with '-', '_', '.', '.git', or '.atom'.";
const NAME = /^[\p{L}\p{N}_][\p{L}\p{N}\p{Emoji_Presentation}_. +-]*$/u;
const NAME_MESSAGE =
  "can contain only letters, digits, emojis, '_', '.', dash, space. It must start with letter, digit, emoji or '_'.";

/** GitLab's path from a name: lower case, runs of other characters become one dash. */
export function pathFromName(name: string): string {
  return name
    .trim()
    .toLowerCase()
    .replace(/[^a-z0-9_.]+/g, '-')
    .replace(/^[-.]+|[-.]+$/g, '');
}

/**
 * GitLab's validation of a project's name, path and settings: 400 with every message at once.
 * The path: its format, then (only when the format holds, as GitLab's `ProjectPathValidator`) the
 * reserved words, its length, and the special-character rule when the path is new or changed
 * (`pathChanged`; an unchanged legacy path stays editable, as GitLab's `if: :path_changed?`).
 */
export function validateProject(name: string, path: string, input: ProjectSettingsInput, pathChanged = true): void {
  const errors: Record<string, string[]> = {};
  const add = (field: string, message: string) => (errors[field] ??= []).push(message);
  if (name.trim() === '') add('name', "can't be blank");
  else if (!NAME.test(name)) add('name', NAME_MESSAGE);
  if (name.length > 255) add('name', 'is too long (maximum is 255 characters)');
  const formatted = PATH.test(path) && !PATH_SUFFIX.test(path);
  if (path === '') add('path', "can't be blank");
  else if (!formatted) add('path', PATH_MESSAGE);
  const reserved = formatted ? reservedPathMessage(path, 'project') : undefined;
  if (reserved) add('path', reserved);
  if (path.length > 255) add('path', 'is too long (maximum is 255 characters)');
  if (path !== '' && pathChanged && !SPECIAL_CHARACTERS.test(path)) add('path', SPECIAL_CHARACTERS_MESSAGE);
  if (input.import_url !== undefined && !/^(https?|git):\/\//.test(input.import_url)) add('import_url', 'is blocked: Only allowed schemes are http, https, git');
  if (input.default_branch !== undefined && input.default_branch.trim() === '') add('default_branch', "can't be blank");
  // GitLab's lengths (Project: description 2,000; a branch name as a ref), before anything is written.
  if (input.description !== undefined && input.description !== null && input.description.length > 2000) {
    add('description', 'is too long (maximum is 2000 characters)');
  }
  if (input.default_branch !== undefined && input.default_branch.length > 255) add('default_branch', 'is too long (maximum is 255 characters)');
  // GitLab's topics (`tag_list`): each name at most 255 characters; at most 40 here, so a project
  // write counts the project in and out of every topic it changes in its one transaction (at most
  // 100 items: ten of the project's own, one per topic added or removed).
  for (const [field, topics] of [['tag_list', input.tag_list], ['topics', input.topics]] as const) {
    if (topics !== undefined && topics.some((tag) => tag.length > 255)) add(field, 'is too long (maximum is 255 characters)');
    if (topics !== undefined && topics.length > MAX_TOPICS) add(field, `is too long (maximum is ${MAX_TOPICS} topics)`);
  }
  // GitLab's `Project` and `ProjectCiCdSetting` validations of the CI/CD settings.
  if (input.ci_config_path !== undefined && /\.{2}|^\//.test(input.ci_config_path)) add('ci_config_path', 'cannot include leading slash or directory traversal.');
  if (input.build_timeout !== undefined && (input.build_timeout < 600 || input.build_timeout >= 30 * 86400)) {
    add('build_timeout', 'needs to be between 10 minutes and 1 month');
  }
  if (input.ci_default_git_depth !== undefined && input.ci_default_git_depth < 0) add('ci_cd_settings.default_git_depth', 'must be greater than or equal to 0');
  if (input.ci_default_git_depth !== undefined && input.ci_default_git_depth > 1000) add('ci_cd_settings.default_git_depth', 'must be less than or equal to 1000');
  if (Object.keys(errors).length > 0) throw new ValidationError(errors);
}

/** Create and edit: the settings, the name and the path. */
export interface CreateProjectInput extends ProjectSettingsInput {
  name?: string;
  path?: string;
}
