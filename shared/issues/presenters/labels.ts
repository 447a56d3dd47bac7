/**
 * GitLab's `ProjectLabel` and `GroupLabel` entities (`Label` < `LabelBasic`). Not presented:
 * `description_html` (no Markdown rendering yet) and `archived`.
 *
 * Cost of the fields: all come from the label item itself, except `subscribed`, which the caller
 * resolves (one GetItem for a single label, one BatchGetItem for a page: `store/labels-subscriptions.ts`)
 * and passes in. The issue and merge request counts are attributes kept on the label (a group
 * label's are the sums of its projects' aliases, which the caller reads for the page:
 * `queries/group-labels.ts` `countsOf`), presented only when the list asks `with_counts=true`, as
 * GitLab does (there they cost a count query per label).
 */
import { textColorFor } from '../label-colors';
import type { GroupLabel } from '../store/group-labels';
import type { Label } from '../store/labels';

export interface LabelPresentation {
  withCounts?: boolean;
  /** Whether the caller is subscribed to the label (default `false`). */
  subscribed?: boolean;
  /** The counts to present with `withCounts` (a group label's: summed over its projects); default: the label's own attributes. */
  counts?: { openIssuesCount: number; closedIssuesCount: number; openMergeRequestsCount: number };
}

/** Internal: `LabelBasic` and `Label`'s fields, shared by both entities. */
function labelFields(label: Label | GroupLabel, options: LabelPresentation) {
  return {
    id: label.id,
    name: label.name,
    color: label.color,
    description: label.description,
    text_color: textColorFor(label.color),
    ...(options.withCounts
      ? {
          open_issues_count: options.counts?.openIssuesCount ?? label.openIssuesCount ?? 0,
          closed_issues_count: options.counts?.closedIssuesCount ?? label.closedIssuesCount ?? 0,
          open_merge_requests_count: options.counts?.openMergeRequestsCount ?? label.openMergeRequestsCount ?? 0,
        }
      : {}),
    subscribed: options.subscribed ?? false,
  };
}

/**
 * A label as a project lists it (`ProjectLabel`): its own (`is_project_label: true`, its
 * priority) or one of its groups' (`is_project_label: false`; priorities of group labels per
 * project are not kept: `null`).
 */
export function presentLabel(label: Label | GroupLabel, options: LabelPresentation = {}) {
  const own = !('groupId' in label);
  return {
    ...labelFields(label, options),
    priority: own ? label.priority : null,
    is_project_label: own,
  };
}

/** A label as a group lists it (`GroupLabel`). */
export function presentGroupLabel(label: GroupLabel, options: LabelPresentation = {}) {
  return labelFields(label, options);
}

/** GitLab's `LabelBasic` (a board list's `label`): the label's own fields, nothing computed. */
export function presentLabelBasic(label: Label | GroupLabel) {
  return { id: label.id, name: label.name, color: label.color, description: label.description, text_color: textColorFor(label.color) };
}
