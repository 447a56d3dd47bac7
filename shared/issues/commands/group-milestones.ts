/**
 * Group milestone writes, under the project milestones' model rules (`commands/milestones.ts`):
 * title present and unique in the group, start date not after the due date.
 */
import { nextId } from '../../platform/dynamo/counters';
import { ConflictError, NotFoundError, ValidationError } from '../../platform/http/errors';
import {
  getGroupMilestone,
  groupMilestoneIidSequence,
  groupMilestoneTitleTaken,
  insertGroupMilestone,
  removeGroupMilestone,
  replaceGroupMilestone,
  type GroupMilestone,
} from '../store/group-milestones';
import type { MilestoneFields } from '../store/milestones';
import { STATE_AFTER, validate, type MilestoneChanges, type MilestoneInput } from './milestones';
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
    const next: GroupMilestone = {
      ...current,
      title: changes.title === undefined ? current.title : changes.title.trim(),
      description: changes.description === undefined ? current.description : changes.description,
      dueDate: changes.dueDate === undefined ? current.dueDate : changes.dueDate,
      startDate: changes.startDate === undefined ? current.startDate : changes.startDate,
      state: changes.stateEvent ? STATE_AFTER[changes.stateEvent] : current.state,
      updatedAt: new Date().toISOString(),
    };
    validate(next);
    const result = await replaceGroupMilestone(current, next);
    if (result === 'title_taken') throw titleTaken();
    if (result === 'group_gone') throw new NotFoundError('Group');
    return result === 'milestone_changed' ? AGAIN : result;
  }, RETRIES);
}

/** Deletes a group milestone and frees its title; 404 when deleted meanwhile. */
export async function deleteGroupMilestone(milestone: GroupMilestone): Promise<void> {
  await retried(milestone, () => reread(milestone), async (current) => ((await removeGroupMilestone(current)) === undefined ? undefined : AGAIN), RETRIES);
}
