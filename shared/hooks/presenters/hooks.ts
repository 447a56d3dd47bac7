/**
 * GitLab's `ProjectHook` entity. The secret token is write-only: neither it, its sealed form nor
 * whether one is set is ever part of a response.
 */
import type { ProjectHook } from '../store/hooks';

export function presentHook(hook: ProjectHook) {
  return {
    id: hook.id,
    url: hook.url,
    project_id: hook.projectId,
    push_events: hook.pushEvents,
    issues_events: hook.issuesEvents,
    confidential_issues_events: hook.confidentialIssuesEvents ?? false,
    merge_requests_events: hook.mergeRequestsEvents,
    tag_push_events: hook.tagPushEvents,
    note_events: hook.noteEvents,
    confidential_note_events: hook.confidentialNoteEvents ?? false,
    job_events: hook.jobEvents,
    pipeline_events: hook.pipelineEvents,
    wiki_page_events: hook.wikiPageEvents,
    deployment_events: hook.deploymentEvents ?? false,
    enable_ssl_verification: hook.enableSslVerification,
    created_at: hook.createdAt,
  };
}
