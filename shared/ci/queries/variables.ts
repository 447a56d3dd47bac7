/**
 * Reads of the CI/CD variables of a project or a group: a page of them, one by key (and scope) as
 * the API names it, and those a job or a pipeline's rules see (its project's and those of the
 * project's groups, GitLab's `Ci::Variable` and `Ci::GroupVariable` scopes: protected ones on
 * protected refs only, environment scopes matching the job's environment). Values are opened
 * here, from their sealed form, for whoever needs them (a presenter hides those of hidden
 * variables; a runner gets them all).
 */
import { openSecret } from '../../platform/crypto/secret-box';
import { ConflictError, NotFoundError } from '../../platform/http/errors';
import type { CollectionSource } from '../../platform/http/pagination';
import { getNamespace, type Namespace } from '../../namespaces';
import type { Project } from '../../projects';
import { ciCollections } from '../store/keys';
import { getVariable, variableCount, variableFromItem, variablesOf, variablesOfKey, type CiVariable, type VariableOwner } from '../store/variables';

/** A variable (a project's or a group's) with its value opened. */
export type ProjectVariable = Omit<CiVariable, 'valueSealed'> & { value: string };

/** GitLab's key rule (`Ci::HasVariable`): letters, digits and `_`. */
export const VARIABLE_KEY = /^[a-zA-Z0-9_]+$/;

/** The longest key (GitLab's `length: { maximum: 255 }`). */
export const KEY_MAX = 255;

/** GitLab's environment scope rule (`Gitlab::Regex.environment_scope_regex`). */
export const ENVIRONMENT_SCOPE = /^[a-zA-Z0-9_/${}. *-]+$/;

/** A variable with its value opened. */
export async function openVariable({ valueSealed, ...variable }: CiVariable): Promise<ProjectVariable> {
  return { ...variable, value: await openSecret(valueSealed) };
}

/** An owner's variables as a paginated list (by key, then scope), its total read from the owner's count. */
export function variableList(owner: VariableOwner): CollectionSource<CiVariable> {
  return { collection: ciCollections.variables(owner), ascending: true, select: variableFromItem, total: () => variableCount(owner) };
}

/**
 * The variable a route names by key, in the scope of `filter[environment_scope]` when given
 * (GitLab's `find_variable`): 404 when there is none (`Variable Not Found` for a project,
 * `GroupVariable Not Found` for a group, as GitLab names them), 409 when the key has several
 * scopes and no filter picks one. With `several: 'first'` a key of several scopes names its
 * earliest created variable instead (GitLab's group `PUT` without `filter`, `find_by!(key:)`).
 */
export async function findVariableOrNotFound(owner: VariableOwner, key: string, environmentScope?: string, several: 'conflict' | 'first' = 'conflict'): Promise<CiVariable> {
  const notFound = new NotFoundError({ project: 'Variable', group: 'GroupVariable', instance: 'InstanceVariable' }[owner.kind]);
  // A key or scope no variable can have (a `#` would reach into other keys' items, a long one past a sort key's size) names none.
  if (!VARIABLE_KEY.test(key) || key.length > KEY_MAX || (environmentScope !== undefined && !ENVIRONMENT_SCOPE.test(environmentScope))) throw notFound;
  const found = environmentScope === undefined ? await variablesOfKey(owner, key) : [await getVariable(owner, key, environmentScope)].filter((v) => v !== undefined);
  if (found.length === 0) throw notFound;
  if (found.length > 1 && several === 'conflict') throw new ConflictError("There are multiple variables with provided parameters. Please use 'filter[environment_scope]'");
  return found.reduce((earliest, variable) => (variable.createdAt < earliest.createdAt ? variable : earliest));
}

/**
 * How a variable's scope applies to an environment (GitLab's `on_environment` order): `0` for `*`,
 * `1` for a pattern whose `*` matches any characters, `2` for the environment's own name;
 * `undefined` when it does not apply. Without an environment only `*` applies.
 */
export function scopeRank(scope: string, environment: string | undefined): 0 | 1 | 2 | undefined {
  if (scope === '*') return 0;
  if (environment === undefined) return undefined;
  if (scope === environment) return 2;
  return scope.includes('*') && globMatches(scope, environment) ? 1 : undefined;
}

/** Internal: whether `name` matches `pattern`, whose `*` match any characters (others only themselves). */
function globMatches(pattern: string, name: string): boolean {
  const [first, ...rest] = pattern.split('*');
  const last = rest.pop()!;
  if (!name.startsWith(first) || !name.endsWith(last) || name.length < first.length + last.length) return false;
  const end = name.length - last.length;
  let at = first.length;
  for (const part of rest) {
    const found = name.indexOf(part, at);
    if (found < 0 || found + part.length > end) return false;
    at = found + part.length;
  }
  return true;
}

/**
 * The groups whose variables a project's jobs get, farthest first: every ancestor of the project's
 * namespace, then the namespace itself; none for a personal namespace.
 */
function groupChain(namespace: Namespace | undefined): number[] {
  return namespace?.kind === 'group' ? [...namespace.ancestorIds].reverse().concat(namespace.id) : [];
}

/** What decides the variables a job or a pipeline's rules see. */
export interface VariableTarget {
  /** The job's environment; none for a pipeline's rules (then only scope `*` applies). */
  environment?: string;
  /** Whether the ref is protected (asked only if a protected variable applies). */
  protectedRef: () => Promise<boolean>;
  /** The project's namespace, when the caller reads it anyway (read here otherwise). */
  namespace?: Promise<Namespace | undefined>;
}

/**
 * The CI/CD variables a job of `project` sees, values opened, in GitLab's order of precedence
 * (`Gitlab::Ci::Variables::Builder`), the later winning: the instance's, then those of the project's groups, the
 * farthest ancestor first and the project's own namespace last, then the project's. One Query
 * per owner, all in parallel once the namespace is known (its `ancestorIds`: bounded by the
 * nesting depth). Within an owner, scope `*`, then patterns, then the environment's own name,
 * each by key, so the most specific comes last (`HasEnvironmentScope#for_environment`). Protected
 * ones only when `protectedRef` says the ref is protected. Without an environment (a pipeline's
 * rules), only scope `*`.
 *
 * @example
 * const variables = await variablesFor(project, { environment: 'production', protectedRef: () => refProtected(job) });
 */
export async function variablesFor(project: Pick<Project, 'id' | 'namespaceId'>, target: VariableTarget): Promise<ProjectVariable[]> {
  const groups = (target.namespace ?? getNamespace(project.namespaceId)).then((namespace) => Promise.all(groupChain(namespace).map((id) => variablesOf({ kind: 'group', id }))));
  const [instanceVariables, groupVariables, projectVariables] = await Promise.all([variablesOf({ kind: 'instance', id: 0 }), groups, variablesOf({ kind: 'project', id: project.id })]);
  const all = [instanceVariables, ...groupVariables, projectVariables].flatMap((variables) =>
    variables
      .map((variable) => ({ variable, rank: scopeRank(variable.environmentScope, target.environment) }))
      .filter((entry): entry is { variable: CiVariable; rank: 0 | 1 | 2 } => entry.rank !== undefined)
      // Stable: within a rank, the partition's order (by key).
      .sort((a, b) => a.rank - b.rank),
  );
  const applies = all.some((entry) => entry.variable.protected) && !(await target.protectedRef()) ? all.filter((entry) => !entry.variable.protected) : all;
  return Promise.all(applies.map((entry) => openVariable(entry.variable)));
}
