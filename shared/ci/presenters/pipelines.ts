/**
 * GitLab's pipeline entities: `PipelineBasic` (lists) and `Pipeline` (create, retry, cancel), and
 * their `…WithMetadata` forms adding the pipeline's `name` (the project's pipelines list; one
 * pipeline, the latest, the metadata update).
 */
import { presentUserPublic, type User } from '../../users';
import type { Pipeline } from '../store/pipelines';

const seconds = (from: string | null, to: string | null) => (from && to ? Math.round((Date.parse(to) - Date.parse(from)) / 1000) : null);

const LABELS: Record<string, string> = {
  created: 'created', pending: 'pending', running: 'running', success: 'passed', failed: 'failed', canceled: 'canceled', skipped: 'skipped', manual: 'manual action',
};

export function presentPipelineBasic(pipeline: Pipeline, projectWebUrl: string) {
  return {
    id: pipeline.id,
    iid: pipeline.iid,
    project_id: pipeline.projectId,
    sha: pipeline.sha,
    ref: pipeline.ref,
    status: pipeline.status,
    source: pipeline.source,
    created_at: pipeline.createdAt,
    updated_at: pipeline.updatedAt,
    web_url: `${projectWebUrl}/-/pipelines/${pipeline.id}`,
  };
}

/** `PipelineBasicWithMetadata`: the basic entity and the pipeline's name. */
export function presentPipelineBasicWithMetadata(pipeline: Pipeline, projectWebUrl: string) {
  return { ...presentPipelineBasic(pipeline, projectWebUrl), name: pipeline.name ?? null };
}

/** `PipelineWithMetadata`: the pipeline entity and the pipeline's name. */
export function presentPipelineWithMetadata(pipeline: Pipeline, projectWebUrl: string, user: User | undefined) {
  return { ...presentPipeline(pipeline, projectWebUrl, user), name: pipeline.name ?? null };
}

export function presentPipeline(pipeline: Pipeline, projectWebUrl: string, user: User | undefined) {
  const webUrl = `${projectWebUrl}/-/pipelines/${pipeline.id}`;
  return {
    ...presentPipelineBasic(pipeline, projectWebUrl),
    before_sha: pipeline.beforeSha,
    tag: pipeline.tag,
    yaml_errors: pipeline.yamlErrors,
    user: user ? presentUserPublic(user) : null,
    started_at: pipeline.startedAt,
    finished_at: pipeline.finishedAt,
    committed_at: pipeline.commit?.committedDate ?? null,
    duration: seconds(pipeline.startedAt, pipeline.finishedAt),
    queued_duration: seconds(pipeline.createdAt, pipeline.startedAt),
    coverage: null,
    detailed_status: {
      icon: `status_${pipeline.status}`,
      text: pipeline.status === 'success' ? 'Passed' : pipeline.status.charAt(0).toUpperCase() + pipeline.status.slice(1),
      label: LABELS[pipeline.status] ?? pipeline.status,
      group: pipeline.status === 'success' ? 'success' : pipeline.status,
      tooltip: LABELS[pipeline.status] ?? pipeline.status,
      has_details: true,
      details_path: new URL(webUrl).pathname,
      illustration: null,
      favicon: `/assets/ci_favicons/favicon_status_${pipeline.status}.png`,
    },
  };
}
