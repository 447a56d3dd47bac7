/**
 * Writes of pipeline trigger tokens (GitLab's `Ci::PipelineTriggers::CreateService`,
 * `UpdateService`, `DestroyService`) and the pipelines a token creates
 * (`Ci::PipelineTriggerService`). The routes authorize (`manage_trigger`, `admin_trigger`); the
 * token is sealed here, before it reaches the store, and only its digest keys the lookup.
 */
import { randomBytes } from 'node:crypto';
import { sealSecret } from '../../platform/crypto/secret-box';
import { NotFoundError, RecordNotFoundError } from '../../platform/http/errors';
import type { Project } from '../../projects';
import type { ProjectSubject } from '../../auth';
import type { User } from '../../users';
import type { PipelineVariable } from '../pipeline-variables';
import type { Pipeline } from '../store/pipelines';
import { deleteTrigger, insertTrigger, newTriggerId, recordTriggerUse, TRIGGER_TOKEN_PREFIX, updateTrigger, type Trigger, type TriggerWriteFailure } from '../store/triggers';
import { createPipelineOnRef } from './pipelines';
import { digestOf } from './runners';

/** Internal: a store's refusal as GitLab answers it. */
function refused(failure: TriggerWriteFailure): never {
  if (failure === 'project_gone') throw new NotFoundError('Project');
  throw new RecordNotFoundError();
}

/**
 * Creates a trigger token owned by `owner` (GitLab's token: the prefix and 40 hex digits). Answers
 * the trigger and its token.
 *
 * @example
 * const { trigger, token } = await createTrigger(project, user, { description: 'deploy' });
 */
export async function createTrigger(project: Project, owner: User, input: { description: string; expiresAt?: string | null }): Promise<{ trigger: Trigger; token: string }> {
  const token = `${TRIGGER_TOKEN_PREFIX}${randomBytes(20).toString('hex')}`;
  const now = new Date().toISOString();
  const trigger: Trigger = {
    id: await newTriggerId(),
    projectId: project.id,
    ownerId: owner.id,
    description: input.description,
    tokenSealed: await sealSecret(token),
    tokenDigest: digestOf(token),
    createdAt: now,
    updatedAt: now,
    lastUsed: null,
    expiresAt: input.expiresAt ?? null,
  };
  const failure = await insertTrigger(trigger);
  if (failure) refused(failure);
  return { trigger, token };
}

/** Changes a trigger's description (kept when not given); 404 when it was deleted meanwhile. */
export async function editTrigger(trigger: Trigger, description: string | undefined): Promise<Trigger> {
  const updated = await updateTrigger(trigger, { description: description ?? trigger.description, updatedAt: new Date().toISOString() });
  if (!updated) refused('gone');
  return updated;
}

/** Deletes a trigger: its token stops working at once; 404 when it was deleted meanwhile. */
export async function removeTrigger(trigger: Trigger): Promise<void> {
  const failure = await deleteTrigger(trigger);
  if (failure) refused(failure);
}

/**
 * Creates the pipeline a trigger token or a running job's token asks for, as `user` (the trigger's
 * owner, the job's user) with `source` (`trigger`, or `pipeline` for a job token), on `ref`, with
 * the request's variables and GitLab's `TRIGGER_PAYLOAD` file variable (the request's parameters
 * but the token, as JSON). A trigger's `last_used` becomes the pipeline's creation.
 */
export async function runTriggeredPipeline(request: {
  subject: ProjectSubject;
  ref: string;
  user: User;
  source: 'trigger' | 'pipeline';
  trigger?: Trigger;
  variables: readonly PipelineVariable[];
  payload: Record<string, unknown>;
  /** Values for the configuration file's `spec:inputs`. */
  inputs?: Record<string, unknown>;
}): Promise<Pipeline> {
  const variables = [...request.variables, { key: 'TRIGGER_PAYLOAD', value: JSON.stringify(request.payload), variableType: 'file' }];
  const pipeline = await createPipelineOnRef({ subject: request.subject, ref: request.ref, source: request.source, user: request.user, variables, ...(request.inputs ? { inputs: request.inputs } : {}) });
  if (request.trigger) await recordTriggerUse(request.trigger, pipeline.createdAt);
  return pipeline;
}
