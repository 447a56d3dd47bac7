/**
 * GitLab's `Issue` entity. A page of issues is presented together: its authors, assignees,
 * milestones and labels are one BatchGetItem (by key: a deleted label is simply not shown), so
 * the cost is per page, not per issue or per project.
 *
 * `subscribed` is only on single-issue, create and edit responses: one GetItem per issue (the
 * viewer's subscription record, else author or assignee), as GitLab computes it per issue. `user_notes_count` is the issue item's
 * `userNotesCount` (kept exact by the note writes); `upvotes` and `downvotes` are the item's
 * counters of its `thumbsup`/`thumbsdown` awards (kept exact by the award writes; absent: 0).
 * Current GitLab's fields are there too: `references` (`issuables.ts`), `task_completion_status`,
 * `type`/`issue_type` (always an issue), `_links`, and those of features this service does not
 * have (`severity` `UNKNOWN`, `imported` false, `service_desk_reply_to` null).
 */
import type { ProjectSubject } from '../../auth';
import { config } from '../../platform/config';
import { byKey, getMany } from '../../platform/dynamo/batch';
import { entityFields } from '../../platform/dynamo/items';
import { getNamespaces } from '../../namespaces';
import { projectFullPath } from '../../projects';
import { presentUserPublic, userFromItem, userKeys, withGhost, type User } from '../../users';
import type { TimeTracked } from '../store/issue-time';
import { issueNoteable, type Issue } from '../store/issues';
import { issueKeys } from '../store/keys';
import type { Label } from '../store/labels';
import type { Milestone } from '../store/milestones';
import type { WithUserNotesCount } from '../store/notes';
import { isSubscribedTo } from '../subscriptions';
import { issuableReferences, taskCompletionStatus, type ReferenceFrom } from './issuables';
import { presentMilestone, presentMilestoneAlias } from './milestones';
import { presentTimeStats } from './time-stats';

/** GitLab's `_links` of an issue: its API resources (`closed_as_duplicate_of`: duplicates are not recorded). */
function issueLinks(issue: Issue) {
  const project = `${config().externalUrl}/api/v4/projects/${issue.projectId}`;
  const self = `${project}/issues/${issue.iid}`;
  return { self, notes: `${self}/notes`, award_emoji: `${self}/award_emoji`, project, closed_as_duplicate_of: null };
}

/** Internal: who closed a closed issue, when that was recorded (`closed_by`). */
const closerOf = (issue: Issue): number[] => (issue.state === 'closed' && issue.closedById ? [issue.closedById] : []);

/** `${externalUrl}/<path_with_namespace>/issues/<iid>`. */
export const issueWebUrl = (issue: Issue, pathWithNamespace: string): string =>
  `${config().externalUrl}/${pathWithNamespace}/issues/${issue.iid}`;

/**
 * Records the caller already read in this request (a write's author, labels, milestone and
 * assignees): shown as held instead of read again.
 */
export interface HeldRecords {
  users?: User[];
  labels?: Label[];
  milestones?: Milestone[];
}

/**
 * @param pathOf the `path_with_namespace` of each issue's project (the caller holds the projects).
 * @param options.single adds `subscribed` (single, create and edit responses) for `options.viewer`.
 * @param options.held records the caller holds, not read again.
 * @param options.from where `references.relative` is written from (a group's lists: the group; a
 *   project's, or none: the short form).
 * @example
 * const [body] = await presentIssues([issue], () => 'group/project', { single: true, viewer: user });
 */
export async function presentIssues(
  issues: Issue[],
  pathOf: (projectId: number) => string,
  options: { single?: boolean; viewer?: User; held?: HeldRecords; from?: ReferenceFrom } = {},
) {
  const held = options.held ?? {};
  const heldUsers = new Map((held.users ?? []).map((user) => [user.id, user]));
  const heldLabels = new Map((held.labels ?? []).map((label) => [`${label.projectId} ${label.id}`, label]));
  const heldMilestones = new Map((held.milestones ?? []).map((milestone) => [`${milestone.projectId} ${milestone.id}`, milestone]));
  const userIds = new Set(issues.flatMap((issue) => [issue.authorId, ...issue.assigneeIds, ...closerOf(issue)]));
  const userKeyList = [...userIds].filter((id) => !heldUsers.has(id)).map((id) => userKeys.user(id));
  const milestoneKeys = issues.flatMap((issue) =>
    issue.milestoneId === null || heldMilestones.has(`${issue.projectId} ${issue.milestoneId}`) ? [] : [issueKeys.milestone(issue.projectId, issue.milestoneId)],
  );
  const labelKeys = issues.flatMap((issue) => issue.labelIds.filter((id) => !heldLabels.has(`${issue.projectId} ${id}`)).map((id) => issueKeys.label(issue.projectId, id)));
  // One consistent BatchGetItem for the page: a label made by this very request is shown.
  const [fetched, subscribed] = await Promise.all([
    getMany([...userKeyList, ...milestoneKeys, ...labelKeys]),
    options.single && options.viewer ? Promise.all(issues.map((issue) => isSubscribedTo(issueNoteable(issue), options.viewer!.id))) : [],
  ]);
  const fetchedMilestones = fetched.flatMap((item) => (item.type === 'Milestone' ? [entityFields(item) as Milestone] : []));
  // Group milestones (aliases) are shown with their group's path: one more BatchGetItem, only when the page has some.
  const aliasGroupIds = [...new Set([...fetchedMilestones, ...heldMilestones.values()].flatMap((milestone) => (milestone.aliasOf ? [Number(milestone.aliasOf.groupId)] : [])))];
  const groups = aliasGroupIds.length === 0 ? [] : await getNamespaces(aliasGroupIds);
  const groupPath = new Map(groups.map((group) => [group.id, group.fullPath]));
  const presentIssueMilestone = (milestone: Milestone, path: string) =>
    milestone.aliasOf ? presentMilestoneAlias(milestone, groupPath.get(milestone.aliasOf.groupId) ?? '') : presentMilestone(milestone, path);
  const itemOf = byKey(fetched);
  const userOf = (id: number) => {
    const item = itemOf(userKeys.user(id));
    return heldUsers.get(id) ?? (item && userFromItem(item));
  };
  const labelName = (projectId: number, id: number): string | undefined =>
    heldLabels.get(`${projectId} ${id}`)?.name ?? itemOf(issueKeys.label(projectId, id))?.name;
  const milestoneOf = (projectId: number, id: number): Milestone | undefined => {
    const item = itemOf(issueKeys.milestone(projectId, id));
    return heldMilestones.get(`${projectId} ${id}`) ?? (item && (entityFields(item) as Milestone));
  };
  // A deleted author shows as the ghost user (GitLab moves their issues to it); assignees are not.
  const authorOf = await withGhost(userOf, issues.map((issue) => issue.authorId));

  return issues.map((issue, index) => {
    const path = pathOf(issue.projectId);
    const milestone = issue.milestoneId === null ? undefined : milestoneOf(issue.projectId, issue.milestoneId);
    const assignees = issue.assigneeIds.flatMap((id) => {
      const user = userOf(id);
      return user ? [presentUserPublic(user)] : [];
    });
    const author = authorOf(issue.authorId);
    const [closerId] = closerOf(issue);
    const closer = closerId === undefined ? undefined : userOf(closerId);
    return {
      id: issue.id,
      iid: issue.iid,
      project_id: issue.projectId,
      title: issue.title,
      description: issue.description,
      state: issue.state,
      created_at: issue.createdAt,
      updated_at: issue.updatedAt,
      closed_at: issue.closedAt,
      closed_by: closer ? presentUserPublic(closer) : null,
      moved_to_id: issue.movedToId ?? null,
      labels: issue.labelIds.flatMap((id) => {
        const name = labelName(issue.projectId, id);
        return name === undefined ? [] : [name];
      }).sort(),
      milestone: milestone ? presentIssueMilestone(milestone, path) : null,
      assignees,
      author: author ? presentUserPublic(author) : null,
      assignee: assignees[0] ?? null,
      user_notes_count: (issue as Issue & WithUserNotesCount).userNotesCount ?? 0,
      upvotes: (issue as Issue & { upvotes?: number }).upvotes ?? 0,
      downvotes: (issue as Issue & { downvotes?: number }).downvotes ?? 0,
      due_date: issue.dueDate,
      confidential: issue.confidential,
      discussion_locked: null,
      web_url: issueWebUrl(issue, path),
      time_stats: presentTimeStats(issue as Issue & TimeTracked),
      task_completion_status: taskCompletionStatus(issue.description),
      type: 'ISSUE',
      issue_type: 'issue',
      severity: 'UNKNOWN',
      imported: false,
      imported_from: 'none',
      references: issuableReferences('#', issue.iid, path, options.from),
      _links: issueLinks(issue),
      service_desk_reply_to: null,
      ...(options.single ? { subscribed: subscribed[index] ?? false } : {}),
    };
  });
}

/**
 * One issue as a single-issue response (show, create, edit, move, subscription actions), with
 * `subscribed` for `viewer` (read, unless `known`: e.g. the author of an issue just opened is),
 * and `known.held`: records the request already read (a create's author, labels, milestone).
 * @example
 * return ok(await presentIssue(issue, subject, user));
 */
export async function presentIssue(issue: Issue, subject: ProjectSubject, viewer: User, known: { subscribed?: boolean; held?: HeldRecords } = {}) {
  const [body] = await presentIssues([issue], () => projectFullPath(subject.namespace, subject.project), {
    single: known.subscribed === undefined,
    viewer,
    held: known.held,
  });
  return known.subscribed === undefined ? body : { ...body, subscribed: known.subscribed };
}
