/**
 * Reads of Terraform states for the routes: a state by name (GitLab's `find_with_lock`: 404 when
 * there is none), its latest version's content and one version's.
 */
import { NotFoundError, RecordNotFoundError } from '../../platform/http/errors';
import { getState, getVersion, latestVersion, readContent, type TerraformState, type TerraformStateVersion } from '../store/states';

/** The project's state of that name; GitLab's `ActiveRecord::RecordNotFound` answer (`404 Not found`) when there is none. */
export async function findStateOrNotFound(projectId: number, name: string): Promise<TerraformState> {
  const state = await getState(projectId, name);
  if (!state) throw new RecordNotFoundError();
  return state;
}

/** The content of the state's latest version (the highest serial); undefined when it has none yet (a state only locked). */
export async function latestContent(state: TerraformState): Promise<Buffer | undefined> {
  const version = await latestVersion(state);
  return version && readContent(version);
}

/** One version of the state; GitLab's `not_found!` (`404 Not Found`) when it has none of that serial. */
export async function findVersionOrNotFound(state: TerraformState, serial: number): Promise<TerraformStateVersion> {
  const version = await getVersion(state, serial);
  if (!version) throw new NotFoundError();
  return version;
}

/** A version's content; 404 when it went meanwhile (deleted with its state). */
export async function versionContent(version: TerraformStateVersion): Promise<Buffer> {
  const content = await readContent(version);
  if (!content) throw new NotFoundError();
  return content;
}
