/**
 * GitLab's `ResourceLabelEvent`, `ResourceStateEvent` and `ResourceMilestoneEvent` entities. A page
 * of events is presented with one BatchGetItem of its users, labels and milestones (a label or
 * milestone deleted since is `null`, as GitLab's `LEFT JOIN`), so its cost is per page.
 */
import { byKey, getMany } from '../../platform/dynamo/batch';
import { entityFields } from '../../platform/dynamo/items';
import type { Key } from '../../platform/dynamo/keys';
import { presentUserPublic, userFromItem, userKeys } from '../../users';
import { textColorFor } from '../label-colors';
import { issueKeys } from '../store/keys';
import type { Label } from '../store/labels';
import type { Milestone } from '../store/milestones';
import type { ResourceEvent } from '../store/resource-events';
import { presentMilestone } from './milestones';

/**
 * @param pathWithNamespace the project's `path_with_namespace` (a milestone's `web_url`).
 * @example
 * const body = await presentResourceEvents(page.items, 'group/project');
 */
export async function presentResourceEvents(events: ResourceEvent[], pathWithNamespace: string) {
  const keyList: Key[] = [...new Set(events.map((event) => event.userId))].map((id) => userKeys.user(id));
  for (const event of events) {
    if (event.labelId !== undefined) keyList.push(issueKeys.label(event.labelProjectId ?? event.projectId, event.labelId));
    if (event.milestoneId !== undefined) keyList.push(issueKeys.milestone(event.projectId, event.milestoneId));
  }
  const unique = [...new Map(keyList.map((key) => [`${key.PK}\n${key.SK}`, key])).values()];
  const itemOf = byKey(await getMany(unique));
  return events.map((event) => {
    const userItem = itemOf(userKeys.user(event.userId));
    const common = {
      id: event.id,
      user: userItem ? presentUserPublic(userFromItem(userItem)) : null,
      created_at: event.createdAt,
      resource_type: event.resourceType,
      resource_id: event.issueId,
    };
    if (event.kind === 'label') {
      const item = itemOf(issueKeys.label(event.labelProjectId ?? event.projectId, event.labelId!));
      const label = item && (entityFields(item) as Label);
      return {
        ...common,
        label: label ? { id: label.id, name: label.name, color: label.color, description: label.description, text_color: textColorFor(label.color) } : null,
        action: event.action,
      };
    }
    if (event.kind === 'milestone') {
      // A moved issue's copied `remove` has no milestone (GitLab copies it with `milestone_id: nil`).
      const item = event.milestoneId === undefined ? undefined : itemOf(issueKeys.milestone(event.projectId, event.milestoneId));
      return {
        ...common,
        milestone: item ? presentMilestone(entityFields(item) as Milestone, pathWithNamespace) : null,
        action: event.action,
        state: event.issueState ?? 'opened',
      };
    }
    return { ...common, source_commit: event.sourceCommit, source_merge_request_id: event.sourceMergeRequestId, state: event.state };
  });
}
