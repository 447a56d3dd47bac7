/**
 * Reads of a project's CI/CD variables: a page of them, one by key (and scope) as the API names
 * it, and those a job or a pipeline's rules see (GitLab's `Ci::Variable` scopes: protected ones on
 * protected refs only, environment scopes matching the job's environment). Values are opened
 * here, from their sealed form, for whoever needs them (a presenter hides those of hidden
 * variables; a runner gets them all).
 */
import { openSecret } from '../../platform/crypto/secret-box';
import { ConflictError, NotFoundError } from '../../platform/http/errors';
import type { CollectionSource } from '../../platform/http/pagination';
import { ciCollections } from '../store/keys';
import { getVariable, projectVariables, variableCount, variableFromItem, variablesOfKey, type CiVariable } from '../store/variables';

/** A variable with its value opened. */
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

/** A project's variables as a paginated list (by key, then scope), its total read from the project's count. */
export function variableList(projectId: number): CollectionSource<CiVariable> {
  return { collection: ciCollections.projectVariables(projectId), ascending: true, select: variableFromItem, total: () => variableCount(projectId) };
}

/**
 * The variable a route names by key, in the scope of `filter[environment_scope]` when given
 * (GitLab's `find_variable`): 404 `Variable Not Found` when there is none, 409 when the key has
 * several scopes and no filter picks one.
 */
export async function findVariableOrNotFound(projectId: number, key: string, environmentScope?: string): Promise<CiVariable> {
  // A key or scope no variable can have (a `#` would reach into other keys' items, a long one past a sort key's size) names none.
  if (!VARIABLE_KEY.test(key) || key.length > KEY_MAX || (environmentScope !== undefined && !ENVIRONMENT_SCOPE.test(environmentScope))) throw new NotFoundError('Variable');
  const found = environmentScope === undefined ? await variablesOfKey(projectId, key) : [await getVariable(projectId, key, environmentScope)].filter((v) => v !== undefined);
  if (found.length === 0) throw new NotFoundError('Variable');
  if (found.length > 1) throw new ConflictError("There are multiple variables with provided parameters. Please use 'filter[environment_scope]'");
  return found[0];
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
 * The project variables a job of `target` sees (one Query of the project's variables), values
 * opened, in GitLab's order: scope `*`, then patterns, then the environment's own name, each by
 * key, so the most specific comes last and wins. Protected ones only when `protectedRef` says the
 * ref is protected (asked only if one applies). Without an environment (a pipeline's rules), only
 * scope `*`.
 */
export async function variablesFor(projectId: number, target: { environment?: string; protectedRef: () => Promise<boolean> }): Promise<ProjectVariable[]> {
  const ranked = (await projectVariables(projectId))
    .map((variable) => ({ variable, rank: scopeRank(variable.environmentScope, target.environment) }))
    .filter((entry) => entry.rank !== undefined);
  const applies = ranked.some((entry) => entry.variable.protected) && !(await target.protectedRef()) ? ranked.filter((entry) => !entry.variable.protected) : ranked;
  // Stable: within a rank, the partition's order (by key).
  applies.sort((a, b) => a.rank! - b.rank!);
  return Promise.all(applies.map((entry) => openVariable(entry.variable)));
}
