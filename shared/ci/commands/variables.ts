/**
 * Writes of the CI/CD variables of a project or a group: create, edit, delete, with GitLab's model
 * validations (`Ci::Variable`, `Ci::GroupVariable` and their concerns `HasVariable`, `Maskable`,
 * `HidableVariable`, `HasEnvironmentScope`, `Limitable`) answered as GitLab does: 400
 * `{"message":{"<field>":[…]}}`.
 * The caller is authorized by the route (`admin_cicd_variables`). The value is sealed here,
 * before it reaches the store: it never lies in the table in clear.
 */
import { openSecret, sealSecret } from '../../platform/crypto/secret-box';
import { NotFoundError, ValidationError } from '../../platform/http/errors';
import { ENVIRONMENT_SCOPE, VARIABLE_KEY, type ProjectVariable } from '../queries/variables';
import { deleteVariable, insertVariable, updateVariable, type CiVariable, type VariableOwner, type VariableWriteFailure } from '../store/variables';

/**
 * The most variables a project may have: GitLab's plan limit `project_ci_variables` (200 on
 * GitLab.com's Free tier). With values of at most 10,000 characters, what a job's payload carries
 * of them stays around 2 MB (12 MB at worst, every character one JSON escapes), within the 20 MB
 * the runners' function may stream.
 */
export const PROJECT_VARIABLES_LIMIT = 200;

/** The most variables a group may have: GitLab's plan limit `group_ci_variables` (200 on GitLab.com's Free tier too). */
export const GROUP_VARIABLES_LIMIT = 200;

/** The most variables the instance may have: GitLab's plan limit `ci_instance_level_variables` (25 by default). */
export const INSTANCE_VARIABLES_LIMIT = 25;

/** An owner's limit of variables. */
const limitOf = (owner: VariableOwner) => ({ project: PROJECT_VARIABLES_LIMIT, group: GROUP_VARIABLES_LIMIT, instance: INSTANCE_VARIABLES_LIMIT })[owner.kind];

/** How GitLab's `Limitable` names an owner's limit in its message. */
const LIMIT_NAMES = { project: 'project ci variables', group: 'group ci variables', instance: 'ci instance level variables' } as const;

/** How GitLab's `not_found!` names a missing variable of an owner. */
export const VARIABLE_MODEL = { project: 'Variable', group: 'GroupVariable', instance: 'InstanceVariable' } as const;

/** What a client sets on a variable (`PUT`: each one given replaces the variable's). */
export interface VariableChanges {
  value?: string;
  variableType?: CiVariable['variableType'];
  protected?: boolean;
  masked?: boolean;
  raw?: boolean;
  environmentScope?: string;
  description?: string;
}

/** A new variable: its key and value, and `masked_and_hidden`. */
export interface NewVariable extends VariableChanges {
  key: string;
  value: string;
  maskedAndHidden?: boolean;
}

/**
 * GitLab's `Ci::Maskable`: a masked value is one line of at least 8 characters, all of the Base64
 * alphabet with `@`, `:`, `.` and `~` (`REGEX`); a raw one (never expanded) may hold any
 * character but white space (`MASK_AND_RAW_REGEX`). Characters are counted as Ruby does (code points).
 */
const MASKABLE = /^[a-zA-Z0-9_+=/@:.~-]{8,}$/;
const MASKABLE_RAW = /^[^ \t\n\v\f\r]{8,}$/u;

/** Whether a value may be masked (raw or expanded, as the variable is). */
export const maskable = (value: string, raw: boolean): boolean => (raw ? MASKABLE_RAW : MASKABLE).test(value);

/**
 * GitLab's validation errors of a variable as it would be written (`previous`: as it is, on an
 * edit), by attribute; empty when it is valid. Lengths are checked with the parameters.
 */
export function variableErrors(variable: ProjectVariable, previous?: CiVariable): Record<string, string[]> {
  const errors: Record<string, string[]> = {};
  const add = (field: string, message: string) => (errors[field] ??= []).push(message);
  if (!VARIABLE_KEY.test(variable.key)) add('key', "can contain only letters, digits and '_'.");
  if (variable.masked && !maskable(variable.value, variable.raw)) add('value', 'is invalid');
  if (previous?.hidden && variable.masked !== previous.masked) add('base', 'The visibility setting cannot be changed for masked and hidden variables.');
  if (variable.environmentScope === '') add('environment_scope', "can't be blank");
  else if (!ENVIRONMENT_SCOPE.test(variable.environmentScope)) add('environment_scope', "can contain only letters, digits, '-', '_', '/', '$', '{', '}', '.', '*' and spaces");
  return errors;
}

/** Internal: 400 with the variable's validation errors, if it has any. */
function validate(variable: ProjectVariable, previous?: CiVariable): void {
  const errors = variableErrors(variable, previous);
  if (Object.keys(errors).length > 0) throw new ValidationError(errors);
}

/** Internal: a store's refusal as GitLab answers it. */
function refused(failure: VariableWriteFailure, { owner, key }: Pick<CiVariable, 'owner' | 'key'>): never {
  if (failure === 'taken') throw new ValidationError({ key: [`(${key}) has already been taken`] });
  if (failure === 'limit') throw new ValidationError({ base: [`Maximum number of ${LIMIT_NAMES[owner.kind]} (${limitOf(owner)}) exceeded`] });
  if (failure === 'owner_gone') throw new NotFoundError(owner.kind === 'project' ? 'Project' : 'Group');
  throw new NotFoundError(VARIABLE_MODEL[owner.kind]);
}

/** Internal: the variable as stored, its value sealed. */
async function sealed({ value, ...variable }: ProjectVariable, valueSealed?: string): Promise<CiVariable> {
  return { ...variable, valueSealed: valueSealed ?? (await sealSecret(value)) };
}

/**
 * Creates a variable of a project or group with GitLab's defaults (`env_var`, scope `*`, neither protected, masked nor
 * raw); `masked_and_hidden` makes it masked and hidden for good. Key and scope are stripped, as
 * GitLab does. Answers it with its value.
 *
 * @example
 * const variable = await createVariable({ kind: 'group', id: group.id }, { key: 'DEPLOY_TOKEN', value: 'glpat-0123456789', masked: true });
 */
export async function createVariable(owner: VariableOwner, input: NewVariable): Promise<ProjectVariable> {
  const now = new Date().toISOString();
  const hidden = input.maskedAndHidden === true;
  const variable: ProjectVariable = {
    owner,
    key: input.key.trim(),
    value: input.value,
    variableType: input.variableType ?? 'env_var',
    protected: input.protected ?? false,
    masked: hidden || (input.masked ?? false),
    hidden,
    raw: input.raw ?? false,
    environmentScope: (input.environmentScope ?? '*').trim(),
    description: input.description ?? null,
    createdAt: now,
    updatedAt: now,
  };
  validate(variable);
  const failure = await insertVariable(await sealed(variable), limitOf(owner));
  if (failure) refused(failure, variable);
  return variable;
}

/**
 * Changes what `changes` gives of a variable (a new scope moves it, refused when the key has a
 * variable there already). A hidden variable stays masked and hidden. Answers it with its value.
 */
export async function editVariable(variable: CiVariable, changes: VariableChanges): Promise<ProjectVariable> {
  const { valueSealed, ...kept } = variable;
  const next: ProjectVariable = {
    ...kept,
    value: changes.value ?? (await openSecret(valueSealed)),
    variableType: changes.variableType ?? variable.variableType,
    protected: changes.protected ?? variable.protected,
    masked: changes.masked ?? variable.masked,
    raw: changes.raw ?? variable.raw,
    environmentScope: changes.environmentScope?.trim() ?? variable.environmentScope,
    description: changes.description ?? variable.description,
    updatedAt: new Date().toISOString(),
  };
  validate(next, variable);
  const failure = await updateVariable(variable, await sealed(next, changes.value === undefined ? valueSealed : undefined));
  if (failure) refused(failure, next);
  return next;
}

/** Deletes a variable: 404 when it was deleted meanwhile. */
export async function removeVariable(variable: CiVariable): Promise<void> {
  const failure = await deleteVariable(variable);
  if (failure) refused(failure, variable);
}
