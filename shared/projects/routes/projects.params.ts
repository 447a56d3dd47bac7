/** Parameters of the project routes (`projects.ts`). */
import { z } from 'zod';
import { VISIBILITIES } from '../../namespaces';
import { p } from '../../platform/http/params';

/** Settings accepted by create, create-for-user and edit (spec: "Project settings"). */
export const projectSettingsParams = {
  description: p.string(),
  default_branch: p.string(),
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
  import_url: p.string(),
  tag_list: p.array(z.string()),
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

