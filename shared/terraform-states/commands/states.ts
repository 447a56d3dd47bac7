/**
 * What Terraform's `http` backend asks of a state (GitLab's `Terraform::RemoteStateHandler` and
 * `Terraform::States::TriggerDestroyService`): lock, unlock, store a version, delete the state or
 * one version. Store results become GitLab's errors here; the routes authorize first.
 */
import { ApiError, NotFoundError } from '../../platform/http/errors';
import type { Project } from '../../projects';
import {
  deleteContents,
  deleteProjectContents,
  deleteState,
  deleteVersion,
  ensureState,
  getState,
  insertVersion,
  lockState,
  putContent,
  unlockState,
  type TerraformState,
  type TerraformStateVersion,
} from '../store/states';

/** 409: the lock held is another's (Terraform shows the lock info of the body when there is one). */
export class StateLockedError extends ApiError {
  constructor(body: unknown = { message: '409 Conflict' }) {
    super(409, body);
  }
}

/** 422 with GitLab's `unprocessable_entity!(message)` body. */
export class UnprocessableError extends ApiError {
  constructor(message: string) {
    super(422, { message });
  }
}

/** What `POST …/lock` gives: Terraform's lock info (`statemgr.LockInfo`). */
export interface LockInfoInput {
  ID: string;
  Operation: string;
  Info: string;
  Who: string;
  Version: string;
  Created: string;
  Path: string;
}

/**
 * Takes the lock for `lockId` (GitLab's `lock!`), creating the state when there is none. Answers
 * whether it was taken and the state as it is now (its holder: the caller, or whoever held it).
 */
export async function lockTerraformState(projectId: number, name: string, lockId: string, userId: number, attempt = 1): Promise<{ taken: boolean; state: TerraformState }> {
  const failure = await lockState(projectId, name, { id: lockId, userId, at: new Date().toISOString() });
  if (failure === 'project_gone') throw new NotFoundError('Project');
  const state = await getState(projectId, name);
  // Unlocked (or deleted) between the refusal and the read: tried again, a few times.
  if (!state?.lockId) {
    if (attempt >= STORE_TRIES) throw new StateLockedError();
    return lockTerraformState(projectId, name, lockId, userId, attempt + 1);
  }
  return { taken: failure === undefined, state };
}

/** Releases the lock (GitLab's `unlock!`): only `lockId`'s, or with none whoever's (force-unlock); 409 otherwise. */
export async function unlockTerraformState(projectId: number, name: string, lockId: string | undefined): Promise<void> {
  const failure = await unlockState(projectId, name, lockId, new Date().toISOString());
  if (failure === 'project_gone') throw new NotFoundError('Project');
  if (failure === 'conflict') throw new StateLockedError();
}

/** The `serial` of a state document (GitLab's `StateParser.extract_serial`): 422 when it is not JSON or has none. */
export function stateSerial(content: Buffer): number {
  let document: unknown;
  try {
    document = JSON.parse(content.toString('utf8'));
  } catch {
    throw new UnprocessableError('invalid JSON');
  }
  const serial = document !== null && typeof document === 'object' && !Array.isArray(document) ? (document as Record<string, unknown>).serial : undefined;
  if (serial === undefined || serial === null || serial === '') throw new UnprocessableError('No serial in payload');
  // GitLab's `version` column is an integer (4 bytes): a serial it cannot hold is refused too.
  if (typeof serial !== 'number' || !Number.isInteger(serial) || serial < 0 || serial > 2_147_483_647) throw new UnprocessableError('Serial is invalid');
  return serial;
}

/** A few tries against states deleted and created again meanwhile: past them the writer is told to try again. */
const STORE_TRIES = 3;

/**
 * Stores `content` as the version of its serial (GitLab's `update_file!` under `handle_with_lock`),
 * creating the state when there is none: only while the lock held is `lockId`'s (or none is held,
 * for a writer naming none; 409 otherwise), and only for a serial not stored yet (422). Versions
 * written at once by the lock's holder are all kept, each its own item.
 */
export async function storeTerraformStateVersion(
  projectId: number,
  name: string,
  content: Buffer,
  writer: { lockId: string | undefined; userId: number; jobId: number | null },
): Promise<TerraformStateVersion> {
  const serial = stateSerial(content);
  for (let attempt = 1; ; attempt++) {
    const state = (await getState(projectId, name)) ?? (await ensureState(projectId, name, new Date().toISOString()));
    if (state === 'project_gone') throw new NotFoundError('Project');
    // Refused before anything is written when the lock read is not the writer's (checked again by the write).
    if ((state.lockId ?? undefined) !== writer.lockId) throw new StateLockedError();
    const object = await putContent(state, serial, content);
    const version: TerraformStateVersion = {
      projectId,
      uuid: state.uuid,
      serial,
      object,
      size: content.length,
      createdAt: new Date().toISOString(),
      createdByUserId: state.lockedByUserId ?? writer.userId,
      jobId: writer.jobId,
    };
    const failure = await insertVersion(state, version, writer.lockId);
    if (failure === undefined) return version;
    await deleteContents([object]);
    if (failure === 'project_gone') throw new NotFoundError('Project');
    if (failure === 'serial_taken') throw new UnprocessableError(`Version ${serial} of the state already exists`);
    if (failure === 'locked') {
      const now = await getState(projectId, name);
      // The state went or was created again under the writer: written to the new one.
      if (now && now.uuid === state.uuid) throw new StateLockedError();
    }
    if (attempt >= STORE_TRIES) throw new StateLockedError();
  }
}

/**
 * Deletes the state and its versions (GitLab's `TriggerDestroyService`, which leaves a locked state
 * as it is while the API answers 200 all the same); `false` when it was locked and is kept.
 */
export async function removeTerraformState(state: TerraformState): Promise<boolean> {
  return (await deleteState(state)) !== 'locked';
}

/** Deletes one version (GitLab deletes it whatever the lock). */
export async function removeTerraformStateVersion(version: TerraformStateVersion): Promise<void> {
  await deleteVersion(version);
}

/** A deleted project's states: their items go with its partition, their contents here (a removal step wired in `functions/api.ts`). */
export const removeProjectTerraformStates = (project: Pick<Project, 'id'>): Promise<void> => deleteProjectContents(project.id);
