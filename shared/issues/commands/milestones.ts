/**
 * Milestone writes: GitLab's model rules (title present, at most 255 characters, unique in the
 * project; the start date not after the due date), on version-conditioned writes.
 */
import { nextId } from '../../platform/dynamo/counters';
import { ConflictError, NotFoundError, ValidationError } from '../../platform/http/errors';
import { getMilestoneIdByTitle, insertMilestone, removeMilestone, replaceMilestone, type Milestone, type MilestoneFields, type MilestoneState } from '../store/milestones';
import { findMilestoneOrNotFound } from '../queries/milestones';
import { AGAIN, retried } from './retry';
import { assertValid, titleAndDescriptionErrors } from './validation';

const MAX_ATTEMPTS = 5;

/** GitLab's model validations, as `{"message":{"field":["error"]}}`. */
export function validate(fields: MilestoneFields): void {
  const errors = titleAndDescriptionErrors(fields);
  if (fields.startDate && fields.dueDate && fields.startDate > fields.dueDate) {
    errors.due_date = ['must be greater than start date'];
  }
  assertValid(errors);
}

const titleTaken = () => new ValidationError({ title: ['has already been taken'] });

export interface MilestoneInput {
  title: string;
  description?: string | null;
  dueDate?: string | null;
  startDate?: string | null;
}

/**
 * Creates an active milestone. Its iid comes from the project's own sequence (unique under
 * concurrency; a failed create leaves a gap, as in GitLab).
 *
 * @throws ValidationError `title` `has already been taken`, or a model error; NotFoundError `Project`
 *   when the project is deleted meanwhile.
 * @example
 * const milestone = await createMilestone(project.id, { title: 'v1.0', dueDate: '2030-01-31' });
 */
export async function createMilestone(projectId: number, input: MilestoneInput): Promise<Milestone> {
  const fields: MilestoneFields = {
    title: input.title.trim(),
    description: input.description ?? null,
    dueDate: input.dueDate ?? null,
    startDate: input.startDate ?? null,
    state: 'active',
  };
  validate(fields);
  // The claim is checked in the create transaction; reading it first only spares the sequences a
  // number in the common case of a taken title.
  if ((await getMilestoneIdByTitle(projectId, fields.title)) !== undefined) throw titleTaken();
  const [id, iid] = await Promise.all([nextId('milestones'), nextId(`milestones#${projectId}`)]);
  const now = new Date().toISOString();
  const result = await insertMilestone({ ...fields, id, iid, projectId, createdAt: now, updatedAt: now, version: 1 });
  if (result === 'title_taken') throw titleTaken();
  if (result === 'project_gone') throw new NotFoundError('Project');
  if (result === 'milestone_changed') throw new ConflictError('Milestone id already in use; try again');
  return result;
}

/** What an edit changes; `undefined` keeps a field, `null` clears a date or the description. */
export interface MilestoneChanges {
  title?: string;
  description?: string | null;
  dueDate?: string | null;
  startDate?: string | null;
  stateEvent?: 'close' | 'activate';
}

const STATE_AFTER: Record<NonNullable<MilestoneChanges['stateEvent']>, MilestoneState> = { close: 'closed', activate: 'active' };

/** A project's or a group's milestone with `changes` applied (not yet validated), updated now. */
export function withChanges<T extends MilestoneFields & { updatedAt: string }>(current: T, changes: MilestoneChanges): T {
  return {
    ...current,
    title: changes.title === undefined ? current.title : changes.title.trim(),
    description: changes.description === undefined ? current.description : changes.description,
    dueDate: changes.dueDate === undefined ? current.dueDate : changes.dueDate,
    startDate: changes.startDate === undefined ? current.startDate : changes.startDate,
    state: changes.stateEvent ? STATE_AFTER[changes.stateEvent] : current.state,
    updatedAt: new Date().toISOString(),
  };
}

/** Internal: how a lost race ends once {@link MAX_ATTEMPTS} edits in a row lost it. */
const RETRIES = { attempts: MAX_ATTEMPTS, conflict: 'The milestone was modified by another request; try again' };

/**
 * Edits a milestone (as found by the caller), re-reading and re-applying the changes when another
 * edit wins the race (version-conditioned writes), so no change is silently lost.
 *
 * @throws NotFoundError `Milestone` (deleted meanwhile), ValidationError as on create,
 *   ConflictError after repeated concurrent edits.
 */
export async function updateMilestone(milestone: Milestone, changes: MilestoneChanges): Promise<Milestone> {
  const reread = () => findMilestoneOrNotFound(milestone.projectId, milestone.id);
  return retried(milestone, reread, async (current) => {
    const next = withChanges(current, changes);
    validate(next);
    const result = await replaceMilestone(current, next);
    if (result === 'title_taken') throw titleTaken();
    if (result === 'project_gone') throw new NotFoundError('Project');
    return result === 'milestone_changed' ? AGAIN : result;
  }, RETRIES);
}

/** Deletes a milestone (as found by the caller) and frees its title. @throws NotFoundError `Milestone` (deleted meanwhile). */
export async function deleteMilestone(milestone: Milestone): Promise<void> {
  const reread = () => findMilestoneOrNotFound(milestone.projectId, milestone.id);
  await retried(milestone, reread, async (current) => ((await removeMilestone(current)) === undefined ? undefined : AGAIN), RETRIES);
}
