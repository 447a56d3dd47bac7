/**
 * GitLab's `Milestone` entity, as listed and as embedded in issues. Cheap: everything comes from
 * the milestone item and the project's path, which the caller already holds.
 */
import { config } from '../../platform/config';
import type { GroupMilestone } from '../store/group-milestones';
import type { Milestone } from '../store/milestones';

/** `YYYY-MM-DD` of today in UTC (GitLab's `Date.today` on a UTC server). */
const todayUtc = () => new Date().toISOString().slice(0, 10);

/** `${externalUrl}/<path_with_namespace>/-/milestones/<iid>`. */
export const milestoneWebUrl = (milestone: Milestone, pathWithNamespace: string): string =>
  `${config().externalUrl}/${pathWithNamespace}/-/milestones/${milestone.iid}`;

/**
 * @param pathWithNamespace the project's `path_with_namespace` (`group/project`), for `web_url`.
 * @param today `YYYY-MM-DD` that `expired` compares the due date with (tests); default: today, UTC.
 * @example
 * presentMilestone(milestone, projectFullPath(namespace, project))
 */
export function presentMilestone(milestone: Milestone, pathWithNamespace: string, today: string = todayUtc()) {
  const { id, iid, ...fields } = milestoneFields(milestone, today);
  return { id, iid, project_id: milestone.projectId, ...fields, web_url: milestoneWebUrl(milestone, pathWithNamespace) };
}

/**
 * A group milestone (GitLab's `Milestone` entity with `group_id` instead of `project_id`);
 * `web_url` is `${externalUrl}/groups/<full_path>/-/milestones/<iid>`.
 *
 * @param groupFullPath the group's full path, for `web_url`.
 */
export function presentGroupMilestone(milestone: GroupMilestone, groupFullPath: string, today: string = todayUtc()) {
  const { id, iid, ...fields } = milestoneFields(milestone, today);
  return { id, iid, group_id: milestone.groupId, ...fields, web_url: `${config().externalUrl}/groups/${groupFullPath}/-/milestones/${milestone.iid}` };
}

/** Internal: the fields of GitLab's `Milestone` entity that project and group milestones share. */
function milestoneFields(milestone: Milestone | GroupMilestone, today: string) {
  return {
    id: milestone.id,
    iid: milestone.iid,
    title: milestone.title,
    description: milestone.description,
    state: milestone.state,
    created_at: milestone.createdAt,
    updated_at: milestone.updatedAt,
    due_date: milestone.dueDate,
    start_date: milestone.startDate,
    expired: milestone.dueDate !== null && milestone.dueDate < today,
  };
}

/**
 * A project's alias of a group milestone, as the group milestone (how an issue shows a group
 * milestone: `group_id`, the group's `web_url`).
 */
export function presentMilestoneAlias(alias: Milestone, groupFullPath: string, today: string = todayUtc()) {
  const { projectId: _projectId, aliasOf, ...fields } = alias;
  return presentGroupMilestone({ ...fields, id: aliasOf!.milestoneId, groupId: aliasOf!.groupId }, groupFullPath, today);
}
