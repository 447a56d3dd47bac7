/**
 * The variables a pipeline was created with (`POST /projects/:id/pipeline`, a trigger): secrets as
 * often as not, so the pipeline item keeps each value only sealed (`valueSealed`, as project
 * variables are: `platform/crypto/secret-box.ts`), one value at a time so the item grows by a
 * third of the values, not by their JSON. They are opened only where GitLab hands them out: the
 * job payload of a runner, the Pipeline Hook, `GET …/pipelines/:id/variables`. Pipelines written
 * before sealing hold `value` in clear; they are read as they are.
 */
import { openSecret, sealSecret } from '../platform/crypto/secret-box';
import type { Pipeline, StoredPipelineVariable } from './store/pipelines';

/** A pipeline variable, opened. */
export interface PipelineVariable {
  key: string;
  value: string;
  variableType: string;
}

/** The stored form of variables given to a new pipeline (their values sealed, all at once). */
export const sealPipelineVariables = (variables: readonly PipelineVariable[]): Promise<StoredPipelineVariable[]> =>
  Promise.all(variables.map(async ({ key, value, variableType }) => ({ key, variableType, valueSealed: await sealSecret(value) })));

/** A pipeline's variables, opened (none: no call). */
export const pipelineVariables = (pipeline: Pick<Pipeline, 'variables'>): Promise<PipelineVariable[]> =>
  Promise.all(pipeline.variables.map(async ({ key, variableType, valueSealed, value }) => ({ key, variableType, value: valueSealed === undefined ? (value ?? '') : await openSecret(valueSealed) })));
