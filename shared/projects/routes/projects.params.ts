/** Parameters of the project routes (`projects.ts`). */
import { VISIBILITIES } from '../../namespaces';
import { limitedString, p } from '../../platform/http/params';

/**
 * GitLab's lengths of a project's texts, checked before anything is read: name, path and
 * default branch 255 characters, description 2,000 (`Project`), an import URL 2,048.
 */
export const PROJECT_NAME_LIMIT = { max: 255 } as const;
export const PROJECT_DESCRIPTION_LIMIT = { max: 2000 } as const;
const FEATURE_ACCESS_LEVELS = ['disabled', 'private', 'enabled'] as const;

/** Settings accepted by create, create-for-user and edit (spec: "Project settings"). */
export const projectSettingsParams = {
  description: p.string(PROJECT_DESCRIPTION_LIMIT),
  default_branch: p.string(PROJECT_NAME_LIMIT),
  visibility: p.oneOf(VISIBILITIES),
  issues_enabled: p.bool(),
  merge_requests_enabled: p.bool(),
  jobs_enabled: p.bool(),
  wiki_enabled: p.bool(),
  snippets_enabled: p.bool(),
  container_registry_enabled: p.bool(),
  shared_runners_enabled: p.bool(),
  public_jobs: p.bool(),
  only_allow_merge_if_pipeline_succeeds: p.bool(),
  only_allow_merge_if_all_discussions_are_resolved: p.bool(),
  lfs_enabled: p.bool(),
  request_access_enabled: p.bool(),
  import_url: p.string({ max: 2048 }),
  // GitLab's topics: each name at most 255 characters (how many, the command checks).
  tag_list: p.array(limitedString(PROJECT_NAME_LIMIT)),
  topics: p.array(limitedString(PROJECT_NAME_LIMIT)),
  // The features' access levels (GitLab's current names of the `…_enabled` flags, with `private`: members only).
  issues_access_level: p.oneOf(FEATURE_ACCESS_LEVELS),
  merge_requests_access_level: p.oneOf(FEATURE_ACCESS_LEVELS),
  builds_access_level: p.oneOf(FEATURE_ACCESS_LEVELS),
  wiki_access_level: p.oneOf(FEATURE_ACCESS_LEVELS),
  snippets_access_level: p.oneOf(FEATURE_ACCESS_LEVELS),
  container_registry_access_level: p.oneOf(FEATURE_ACCESS_LEVELS),
  // CI/CD settings (lengths and ranges checked with GitLab's messages by the command).
  ci_config_path: p.string({ max: 255 }),
  build_timeout: p.int(),
  ci_default_git_depth: p.int(),
  build_git_strategy: p.oneOf(['fetch', 'clone']),
  auto_cancel_pending_pipelines: p.oneOf(['enabled', 'disabled']),
  keep_latest_artifact: p.bool(),
  ci_forward_deployment_enabled: p.bool(),
  group_runners_enabled: p.bool(),
};

/** Filters of project lists (`GET /projects`, `/groups/:id/projects`). */
export const projectListParams = {
  archived: p.bool(),
  visibility: p.oneOf(VISIBILITIES),
  order_by: p.oneOf(['id', 'name', 'path', 'created_at', 'updated_at', 'last_activity_at']),
  sort: p.oneOf(['asc', 'desc']),
  search: p.string(),
  simple: p.bool(),
  owned: p.bool(),
  membership: p.bool(),
  starred: p.bool(),
  statistics: p.bool(),
};

