/**
 * GitLab's `ProjectLabel` entity (`Label` < `LabelBasic`). Not presented: `description_html`
 * (no Markdown rendering yet) and `archived`.
 *
 * Cost of the fields: all come from the label item itself. `subscribed` is always `false` (label
 * subscriptions are not implemented); the issue and merge request counts are attributes kept on
 * the label, presented only when the list asks `with_counts=true`, as GitLab does (there they
 * cost a count query per label).
 */
import { textColorFor } from '../label-colors';
import type { Label } from '../store/labels';

export function presentLabel(label: Label, options: { withCounts?: boolean } = {}) {
  return {
    id: label.id,
    name: label.name,
    color: label.color,
    description: label.description,
    text_color: textColorFor(label.color),
    ...(options.withCounts
      ? {
          open_issues_count: label.openIssuesCount ?? 0,
          closed_issues_count: label.closedIssuesCount ?? 0,
          open_merge_requests_count: label.openMergeRequestsCount ?? 0,
        }
      : {}),
    subscribed: false,
    priority: label.priority,
    is_project_label: true,
  };
}
