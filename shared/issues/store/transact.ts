/** Internal to the store: a named transaction whose failed condition becomes a result. */
import { ConditionFailed, transact, type NamedTransactItems } from '../../platform/dynamo/transactions';

/**
 * Writes the named entries atomically; when a condition fails, answers the failure of the first
 * entry of `failures` (in that order) whose condition failed, else `otherwise`. `undefined` when
 * everything was written. Other errors are thrown.
 *
 * @example
 * const failure = await transactOr({ project: projectIsLive(id), label: put }, [['project', 'project_gone']], 'name_taken');
 */
export async function transactOr<F>(entries: NamedTransactItems, failures: ReadonlyArray<readonly [entry: string, failure: F]>, otherwise: F): Promise<F | undefined> {
  try {
    await transact(entries);
    return undefined;
  } catch (error) {
    if (!(error instanceof ConditionFailed)) throw error;
    return failures.find(([entry]) => error.failedOn(entry))?.[1] ?? otherwise;
  }
}
