/**
 * Label writes: GitLab's model rules (title and colour validation, named colours) and the
 * race-safe writes built on the name claim of `store/labels.ts`.
 *
 * Names are unique per project case-insensitively (`Bug` and `bug` cannot both exist, and a
 * lookup by name ignores case). GitLab's database compares titles case-sensitively; we choose the
 * stricter rule because clients (and `ensureLabels`) treat names typed in another case as the
 * same label.
 */
import { ConflictError, NotFoundError, ValidationError } from '../../platform/http/errors';
import { getNamespace } from '../../namespaces';
import type { Project } from '../../projects';
import { findLabelOfGroups, groupChain } from '../queries/group-labels';
import { insertLabelAlias, type GroupLabel } from '../store/group-labels';
import { normalizeColor } from '../label-colors';
import { notifyLabelDeleted } from '../label-listeners';
import { deleteLabel, findLabelByName, findLabelsByNames, getLabel, insertLabel, updateLabel, type Label, type LabelFields } from '../store/labels';
import { assertValid, MAX_DESCRIPTION_LENGTH, MAX_TITLE_LENGTH } from './validation';

/** GitLab's `Label::DEFAULT_COLOR`, given to labels created implicitly (an issue naming a new label). */
export const DEFAULT_LABEL_COLOR = '#6699cc';

/** How often a write is retried after the label changed under it. */
const MAX_ATTEMPTS = 5;

/** What a client asks for; `undefined` leaves a field as it is (`null` priority removes it). */
export interface LabelInput {
  name?: string;
  color?: string;
  description?: string;
  priority?: number | null;
}

/**
 * `input` applied to `current` under GitLab's model validations (title present, no
 * comma, at most 255 characters; a valid colour; priority not negative). Throws GitLab's
 * `{"message":{"title":["is invalid"]}}`.
 */
export function labelFieldsFrom(input: LabelInput, current: LabelFields): LabelFields {
  const errors: Record<string, string[]> = {};
  const name = input.name === undefined ? current.name : input.name.trim();
  if (input.name !== undefined) {
    const titleErrors = titleErrorsOf(name);
    if (titleErrors.length > 0) errors.title = titleErrors;
  }
  let color = current.color;
  if (input.color !== undefined) {
    const normalized = normalizeColor(input.color);
    if (normalized === undefined) errors.color = ['must be a valid color code'];
    else color = normalized;
  }
  if (input.description !== undefined && input.description.length > MAX_DESCRIPTION_LENGTH) {
    errors.description = [`is too long (maximum is ${MAX_DESCRIPTION_LENGTH} characters)`];
  }
  if (typeof input.priority === 'number' && input.priority < 0) errors.priority = ['must be greater than or equal to 0'];
  assertValid(errors);
  return {
    name,
    color,
    description: input.description === undefined ? current.description : input.description,
    priority: input.priority === undefined ? current.priority : input.priority,
  };
}

/** Internal: GitLab's title validations, on a trimmed name. */
function titleErrorsOf(name: string): string[] {
  if (name === '') return ["can't be blank"];
  const errors: string[] = [];
  if (name.includes(',')) errors.push('is invalid');
  if ([...name].length > MAX_TITLE_LENGTH) errors.push(`is too long (maximum is ${MAX_TITLE_LENGTH} characters)`);
  return errors;
}

/**
 * Creates a label: 409 `Label already exists` when the project or one of its groups has one of
 * that name (in any case), including when a concurrent request created it first.
 *
 * @example
 * const label = await createLabel(project, { name: 'bug', color: 'red' }); // color '#FF0000'
 */
export async function createLabel(project: Project, input: LabelInput & { name: string; color: string }): Promise<Label> {
  const fields = labelFieldsFrom(input, { name: '', color: DEFAULT_LABEL_COLOR, description: null, priority: null });
  // GitLab looks the name up among the project's available labels, its groups' included.
  if (await findLabelOfGroups(await projectGroupChain(project), fields.name)) throw new ConflictError('Label already exists');
  const result = await insertLabel(project.id, fields);
  if (result === 'project_gone') throw new NotFoundError('Project');
  if (result === 'name_taken') throw new ConflictError('Label already exists');
  return result;
}

/**
 * Edits a label: renaming onto another label's name answers GitLab's model error
 * `{"message":{"title":["has already been taken"]}}` (400). A label changed concurrently is
 * read again and the edit re-applied (fields are set, not incremented, so that is safe); a label
 * deleted meanwhile is 404.
 */
export async function editLabel(label: Label, input: LabelInput): Promise<Label> {
  let current = label;
  for (let attempt = 1; ; attempt++) {
    const result = await updateLabel(current, labelFieldsFrom(input, current));
    if (typeof result === 'object') return result;
    if (result === 'project_gone') throw new NotFoundError('Project');
    if (result === 'name_taken') throw new ValidationError({ title: ['has already been taken'] });
    const fresh = await getLabel(label.projectId, label.id);
    if (!fresh) throw new NotFoundError('Label');
    if (attempt >= MAX_ATTEMPTS) throw new ConflictError('Label was changed concurrently, try again');
    current = fresh;
  }
}

/** Deletes a label and releases its name; 404 when it is gone already (a concurrent delete). */
export async function removeLabel(label: Label): Promise<void> {
  let current = label;
  for (let attempt = 1; ; attempt++) {
    if ((await deleteLabel(current)) === 'deleted') {
      // A project's alias of a group label is the group label's, not a label of its own.
      if (!current.aliasOf) await notifyLabelDeleted({ owner: { kind: 'project', id: current.projectId }, labelId: current.id });
      return;
    }
    const fresh = await getLabel(label.projectId, label.id);
    if (!fresh) throw new NotFoundError('Label');
    if (attempt >= MAX_ATTEMPTS) throw new ConflictError('Label was changed concurrently, try again');
    current = fresh;
  }
}

/**
 * The label names an issue write asks for, trimmed, once each (by lower-cased name, the first
 * spelling kept), in the order first named: {@link ensureLabels} checks them with this, and a
 * caller may first, before it writes anything else.
 *
 * @throws ValidationError `title` for an invalid name (blank, with a comma, too long).
 */
export function labelNamesWanted(names: string[]): Map<string, string> {
  const wanted = new Map<string, string>();
  for (const raw of names) {
    const name = raw.trim();
    const errors = titleErrorsOf(name);
    if (errors.length > 0) throw new ValidationError({ title: errors });
    if (!wanted.has(name.toLowerCase())) wanted.set(name.toLowerCase(), name);
  }
  return wanted;
}

/**
 * The project's labels of the given names — its own, or its aliases of its groups' labels (a name
 * the project lacks is looked up in its group and the group's ancestors, nearest first, as
 * GitLab's `available_labels`) — creating (with {@link DEFAULT_LABEL_COLOR}) those that exist
 * nowhere; for the issues code, when an issue names labels. Names are trimmed and
 * matched case-insensitively; duplicates are returned once, in the order first named. Race-safe:
 * when a concurrent caller claims a name first, its label is read and returned, so every caller
 * gets the one label of that name.
 *
 * Throws 400 `{"message":{"title":[...]}}` for an invalid name (blank, with a comma, too long),
 * 404 when the project is gone.
 *
 * @example
 * const labels = await ensureLabels(project, ['bug', 'Needs review']);
 * labels.map((l) => l.id); // existing ids, or those of the labels just created
 */
export async function ensureLabels(project: Project, names: string[]): Promise<Label[]> {
  const wanted = labelNamesWanted(names);
  if (wanted.size === 0) return [];
  const existing = await findLabelsByNames(project.id, [...wanted.values()]);
  const missing = [...wanted.values()].filter((name) => !existing.has(name.toLowerCase()));
  const groups = missing.length > 0 ? await projectGroupChain(project) : [];
  return Promise.all(
    [...wanted.values()].map(async (name) => {
      const found = existing.get(name.toLowerCase());
      if (found) return found;
      const groupLabel = groups.length > 0 ? await findLabelOfGroups(groups, name) : undefined;
      return groupLabel ? ensureAlias(project.id, groupLabel) : ensureLabel(project.id, name);
    }),
  );
}

/** Internal: the project's group and its ancestors, nearest first (none in a personal namespace). */
async function projectGroupChain(project: Project): Promise<number[]> {
  const namespace = await getNamespace(project.namespaceId);
  return namespace ? groupChain(namespace) : [];
}

/**
 * Internal: the project's alias of a group label, read or created (GitLab lets a project's issues
 * carry its groups' labels). A project label of that name created meanwhile wins; a group label
 * deleted meanwhile leaves a new project label of the name.
 */
async function ensureAlias(projectId: number, label: GroupLabel): Promise<Label> {
  for (let attempt = 1; ; attempt++) {
    const result = await insertLabelAlias(projectId, label);
    if (typeof result === 'object') return result;
    if (result === 'project_gone') throw new NotFoundError('Project');
    if (result === 'label_gone') return ensureLabel(projectId, label.name);
    const current = result === 'exists' ? await getLabel(projectId, label.id) : await findLabelByName(projectId, label.name);
    if (current) return current;
    if (attempt >= MAX_ATTEMPTS) throw new ConflictError('Label was changed concurrently, try again');
  }
}

/** Internal: the label named `name`, read or created; a lost race re-reads the winner's label. */
async function ensureLabel(projectId: number, name: string): Promise<Label> {
  for (let attempt = 1; ; attempt++) {
    const existing = await findLabelByName(projectId, name);
    if (existing) return existing;
    const result = await insertLabel(projectId, { name, color: DEFAULT_LABEL_COLOR, description: null, priority: null });
    if (result === 'project_gone') throw new NotFoundError('Project');
    if (result !== 'name_taken') return result;
    // Someone claimed the name between our read and our write (or deleted it right after):
    // read again, a bounded number of times.
    if (attempt >= MAX_ATTEMPTS) throw new ConflictError('Label was changed concurrently, try again');
  }
}
