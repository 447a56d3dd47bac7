/**
 * Group milestone writes, under the project milestones' model rules (`commands/milestones.ts`):
 * title present and unique in the group, start date not after the due date.
 */
import { nextId } from '../../platform/dynamo/counters';
import { BadRequestError, ConflictError, NotFoundError, ValidationError } from '../../platform/http/errors';
import type { ProjectSubject } from '../../auth';
import type { Namespace } from '../../namespaces';
import { config } from '../../platform/config';
import { getProjects, groupProjectIds } from '../../projects';
import {
  convertToMilestoneAlias,
  milestoneAliasKeys,
  getGroupMilestone,
  insertMilestoneAlias,
  removeMilestoneAlias,
  syncMilestoneAlias,
  groupMilestoneIidSequence,
  groupMilestoneTitleTaken,
  insertGroupMilestone,
  removeGroupMilestone,
  replaceGroupMilestone,
  type GroupMilestone,
} from '../store/group-milestones';
import { findMilestoneByTitle, getMilestone, type Milestone, type MilestoneFields } from '../store/milestones';
import { validate, withChanges, type MilestoneChanges, type MilestoneInput } from './milestones';
import { AGAIN, retried } from './retry';

const titleTaken = () => new ValidationError({ title: ['has already been taken'] });
const RETRIES = { attempts: 5, conflict: 'The milestone was modified by another request; try again' };

/** Internal: the milestone again, or 404 when it was deleted meanwhile. */
async function reread(milestone: GroupMilestone): Promise<GroupMilestone> {
  const fresh = await getGroupMilestone(milestone.groupId, milestone.id);
  if (!fresh) throw new NotFoundError('Milestone');
  return fresh;
}

/**
 * Creates an active group milestone (iid from the group's own sequence).
 *
 * @example
 * const milestone = await createGroupMilestone(group.id, { title: 'v1.0' });
 */
export async function createGroupMilestone(groupId: number, input: MilestoneInput): Promise<GroupMilestone> {
  const fields: MilestoneFields = {
    title: input.title.trim(),
    description: input.description ?? null,
    dueDate: input.dueDate ?? null,
    startDate: input.startDate ?? null,
    state: 'active',
  };
  validate(fields);
  if (await groupMilestoneTitleTaken(groupId, fields.title)) throw titleTaken();
  const [id, iid] = await Promise.all([nextId('milestones'), nextId(groupMilestoneIidSequence(groupId))]);
  const now = new Date().toISOString();
  const result = await insertGroupMilestone({ ...fields, id, iid, groupId, createdAt: now, updatedAt: now, version: 1 });
  if (result === 'title_taken') throw titleTaken();
  if (result === 'group_gone') throw new NotFoundError('Group');
  if (result === 'milestone_changed') throw new ConflictError('Milestone id already in use; try again');
  return result;
}

/** Edits a group milestone, re-reading and applying again after a lost race. */
export async function updateGroupMilestone(milestone: GroupMilestone, changes: MilestoneChanges): Promise<GroupMilestone> {
  return retried(milestone, () => reread(milestone), async (current) => {
    const next = withChanges(current, changes);
    validate(next);
    const result = await replaceGroupMilestone(current, next);
    if (result === 'title_taken') throw titleTaken();
    if (result === 'group_gone') throw new NotFoundError('Group');
    return result === 'milestone_changed' ? AGAIN : result;
  }, RETRIES).then(async (written) => {
    // The aliases carry the milestone's fields for the issues, filters and webhooks of their projects.
    await Promise.all(milestoneAliasKeys(written).map((alias) => syncMilestoneAlias(alias, written)));
    return written;
  });
}

/** Deletes a group milestone and frees its title; 404 when deleted meanwhile. */
export async function deleteGroupMilestone(milestone: GroupMilestone): Promise<void> {
  const deleted = await retried(milestone, () => reread(milestone), async (current) => ((await removeGroupMilestone(current)) === undefined ? current : AGAIN), RETRIES);
  // Its projects' aliases go too: their issues then show no milestone, as after deleting a project milestone.
  await Promise.all(milestoneAliasKeys(deleted).map((alias) => removeMilestoneAlias(alias, deleted)));
}

/**
 * The id of the milestone `milestoneId` names for an issue of the project: its own, or one of
 * its group's or an ancestor group's (GitLab's `milestone_id` on issues), which the project then
 * holds an alias of (added on first use); `undefined` when it names none of them. The project's
 * own milestone, read here, is added to `held` (for the response).
 */
export async function resolveProjectMilestoneId(subject: ProjectSubject, milestoneId: number, held?: Milestone[]): Promise<number | undefined> {
  const own = await getMilestone(subject.project.id, milestoneId);
  if (own) {
    held?.push(own);
    return own.id;
  }
  const namespace = subject.namespace;
  const groupIds = namespace.kind === 'group' ? [namespace.id, ...namespace.ancestorIds] : [];
  for (const groupId of groupIds) {
    const milestone = await getGroupMilestone(groupId, milestoneId);
    if (!milestone) continue;
    // A milestone promoted from this project is aliased under its own id.
    const held = milestoneAliasKeys(milestone).find((alias) => alias.projectId === subject.project.id);
    if (held && (await getMilestone(held.projectId, held.milestoneId))?.aliasOf?.milestoneId === milestone.id) return held.milestoneId;
    const result = await insertMilestoneAlias(subject.project.id, milestone);
    if (result === 'project_gone') throw new NotFoundError('Project');
    // 'exists': a racing request added it; 'milestone_gone': deleted meanwhile, as if never found.
    return result === 'milestone_gone' ? undefined : milestone.id;
  }
  return undefined;
}

/** GitLab's `PromoteMilestoneError` answer: 400 `{"message":"Promotion failed - <reason>"}`. */
const promotionFailed = (reason: string) => new BadRequestError(`Promotion failed - ${reason}`);

/**
 * Promotes a project milestone to its group (GitLab's `Milestones::PromoteService`): a new active
 * group milestone with its title, description and dates, into which the milestones of that title
 * (any state) of the group's own projects are merged: each becomes an alias of it (#M2), so their
 * issues, lists and counts stay and now show the group milestone, and each leaves its project's
 * list. 400 when the project is not in a group, when the group already has a milestone of the
 * title, or when the group has more than `GROUP_ISSUES_PROJECT_LIMIT` projects (nothing written).
 *
 * @example
 * const groupMilestone = await promoteMilestone(milestone, subject.namespace);
 */
export async function promoteMilestone(milestone: Milestone, group: Namespace): Promise<GroupMilestone> {
  if (group.kind !== 'group') throw promotionFailed('Project does not belong to a group.');
  const taken = () => promotionFailed('Title already being used for another group or project milestone.');
  if (await groupMilestoneTitleTaken(group.id, milestone.title)) throw taken();
  const treeIds = await groupProjectIds(group, config().groupIssuesProjectLimit);
  if (treeIds === 'too_many') throw promotionFailed(`the group has more than ${config().groupIssuesProjectLimit} projects`);
  // GitLab merges the milestones of the group's own projects (`group.projects`), not its subgroups'.
  const projectIds = (await getProjects(treeIds)).filter((project) => project.namespaceId === group.id).map((project) => project.id);
  const groupMilestone = await createGroupMilestone(group.id, {
    title: milestone.title,
    description: milestone.description,
    dueDate: milestone.dueDate,
    startDate: milestone.startDate,
  }).catch((error: unknown) => {
    throw error instanceof ValidationError ? taken() : error;
  });
  await Promise.all(projectIds.map((projectId) => mergeIntoGroupMilestone(projectId, groupMilestone)));
  return (await getGroupMilestone(group.id, groupMilestone.id)) ?? groupMilestone;
}

/** Internal: the project's own milestone of the group milestone's title (if any) becomes its alias. */
async function mergeIntoGroupMilestone(projectId: number, groupMilestone: GroupMilestone): Promise<void> {
  for (let attempt = 1; attempt <= RETRIES.attempts; attempt++) {
    const own = await findMilestoneByTitle(projectId, groupMilestone.title);
    if (!own || own.aliasOf) return;
    const result = await convertToMilestoneAlias(own, groupMilestone);
    if (result === 'converted') return;
    if (result === 'milestone_gone') throw new NotFoundError('Milestone');
  }
  throw new ConflictError(RETRIES.conflict);
}
