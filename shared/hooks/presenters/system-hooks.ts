/**
 * GitLab's `Hook` entity, as the system hooks API presents a system hook. The secret token is
 * write-only, as a project hook's. The fields of what is not built here (URL variables, custom
 * headers and templates, branch filters, auto-disabling) have their values for a hook without them.
 */
import type { SystemHook } from '../store/system-hooks';

export function presentSystemHook(hook: SystemHook) {
  return {
    id: hook.id,
    url: hook.url,
    name: hook.name ?? null,
    description: hook.description ?? null,
    created_at: hook.createdAt,
    push_events: hook.pushEvents,
    tag_push_events: hook.tagPushEvents,
    merge_requests_events: hook.mergeRequestsEvents,
    repository_update_events: hook.repositoryUpdateEvents,
    enable_ssl_verification: hook.enableSslVerification,
    alert_status: 'executable',
    disabled_until: null,
    url_variables: [],
    push_events_branch_filter: null,
    branch_filter_strategy: 'wildcard',
    custom_webhook_template: null,
    custom_headers: [],
  };
}
