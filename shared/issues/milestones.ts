/**
 * Project milestones: GitLab's model rules (title present, at most 255 characters, unique in the
 * project; the start date not after the due date) and the list filters of `MilestonesFinder`.
 *
 * Also the lookups other features use: an issue's `milestone_id` ({@link findMilestoneInProject})
 * and, when an issue moves, "the milestone with the same title in the target"
 * ({@link findMilestoneByTitle}).
 */
import { nextId } from '../platform/dynamo/counters';
import { getMilestone, getMilestoneIdByTitle, insertMilestone, listMilestones, removeMilestone, replaceMilestone, type Milestone, type MilestoneFields, type MilestoneState } from './store/milestones';
import { ConflictError, NotFoundError, ValidationError } from '../platform/http/errors';

export const MAX_TITLE_LENGTH = 255;
/**
 * GitLab allows 1,000,000 characters; a DynamoDB item holds at most 400 KB, so descriptions are
 * capped lower (4 bytes per character at worst still fits).
 */
export const MAX_DESCRIPTION_LENGTH = 65_535;
const MAX_ATTEMPTS = 5;

/** A project's milestone by its global id; `undefined` when there is none in that project. */
export async function findMilestoneInProject(projectId: number, milestoneId: number): Promise<Milestone | undefined> {
  return getMilestone(projectId, milestoneId);
}

/** A project's milestone titled exactly `title` (case-sensitive, as in GitLab); two reads. */
export async function findMilestoneByTitle(projectId: number, title: string): Promise<Milestone | undefined> {
  const id = await getMilestoneIdByTitle(projectId, title);
  const milestone = id === undefined ? undefined : await getMilestone(projectId, id);
  return milestone?.title === title ? milestone : undefined;
}

/** The milestone, or 404 `{"message":"404 Milestone Not Found"}` (also for another project's id). */
export async function findMilestoneOrNotFound(projectId: number, milestoneId: number): Promise<Milestone> {
  const milestone = await getMilestone(projectId, milestoneId);
  if (!milestone) throw new NotFoundError('Milestone');
  return milestone;
}

/** Internal: GitLab's model validations, as `{"message":{"field":["error"]}}`. */
function validate(fields: MilestoneFields): void {
  const errors: Record<string, string[]> = {};
  if (fields.title === '') errors.title = ["can't be blank"];
  else if ([...fields.title].length > MAX_TITLE_LENGTH) errors.title = [`is too long (maximum is ${MAX_TITLE_LENGTH} characters)`];
  if (fields.description !== null && [...fields.description].length > MAX_DESCRIPTION_LENGTH) {
    errors.description = [`is too long (maximum is ${MAX_DESCRIPTION_LENGTH} characters)`];
  }
  if (fields.startDate && fields.dueDate && fields.startDate > fields.dueDate) {
    errors.due_date = ['must be greater than start date'];
  }
  if (Object.keys(errors).length > 0) throw new ValidationError(errors);
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

/**
 * Edits a milestone, re-reading and re-applying the changes when another edit wins the race
 * (version-conditioned writes), so no change is silently lost.
 *
 * @throws NotFoundError `Milestone` (gone, or never in this project), ValidationError as on create,
 *   ConflictError after repeated concurrent edits.
 */
export async function updateMilestone(projectId: number, milestoneId: number, changes: MilestoneChanges): Promise<Milestone> {
  for (let attempt = 1; ; attempt++) {
    const current = await findMilestoneOrNotFound(projectId, milestoneId);
    const next: Milestone = {
      ...current,
      title: changes.title === undefined ? current.title : changes.title.trim(),
      description: changes.description === undefined ? current.description : changes.description,
      dueDate: changes.dueDate === undefined ? current.dueDate : changes.dueDate,
      startDate: changes.startDate === undefined ? current.startDate : changes.startDate,
      state: changes.stateEvent ? STATE_AFTER[changes.stateEvent] : current.state,
      updatedAt: new Date().toISOString(),
    };
    validate(next);
    const result = await replaceMilestone(current, next);
    if (result === 'title_taken') throw titleTaken();
    if (result === 'project_gone') throw new NotFoundError('Project');
    if (result !== 'milestone_changed') return result;
    if (attempt >= MAX_ATTEMPTS) throw new ConflictError('The milestone was modified by another request; try again');
  }
}

/** Deletes a milestone and frees its title. @throws NotFoundError `Milestone`. */
export async function deleteMilestone(projectId: number, milestoneId: number): Promise<void> {
  for (let attempt = 1; ; attempt++) {
    const current = await findMilestoneOrNotFound(projectId, milestoneId);
    if ((await removeMilestone(current)) === undefined) return;
    if (attempt >= MAX_ATTEMPTS) throw new ConflictError('The milestone was modified by another request; try again');
  }
}

export interface MilestoneFilters {
  state?: MilestoneState | 'all';
  iids?: number[];
  /** Exact title. */
  title?: string;
  /** Case-insensitive substring of the title or the description. */
  search?: string;
}

/**
 * A project's milestones matching `filters`, by id ascending (GitLab 9's order: the database's,
 * with no explicit sort). Reads the project's milestone range once; filters apply in memory.
 */
export async function listProjectMilestones(projectId: number, filters: MilestoneFilters): Promise<Milestone[]> {
  const iids = filters.iids && filters.iids.length > 0 ? new Set(filters.iids) : undefined;
  const search = filters.search?.toLowerCase();
  return (await listMilestones(projectId)).filter(
    (m) =>
      (!filters.state || filters.state === 'all' || m.state === filters.state) &&
      (!iids || iids.has(m.iid)) &&
      (filters.title === undefined || m.title === filters.title) &&
      (!search || m.title.toLowerCase().includes(search) || (m.description ?? '').toLowerCase().includes(search)),
  );
}
