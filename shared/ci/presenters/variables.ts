/**
 * GitLab's `API::Entities::Ci::Variable`: a project's variable (the value of a hidden one is never
 * presented: `null`), and a pipeline's variable (only what `Ci::PipelineVariable` has).
 */
import type { ProjectVariable } from '../queries/variables';
import type { PipelineVariable } from '../pipeline-variables';

export function presentVariable(variable: ProjectVariable) {
  return {
    variable_type: variable.variableType,
    key: variable.key,
    value: variable.hidden ? null : variable.value,
    hidden: variable.hidden,
    protected: variable.protected,
    masked: variable.masked,
    raw: variable.raw,
    // An instance variable has no environment scope (GitLab's entity shows it only where the model has one).
    ...(variable.owner.kind === 'instance' ? {} : { environment_scope: variable.environmentScope }),
    description: variable.description,
  };
}

/** A variable a pipeline was created with (`GET /projects/:id/pipelines/:pipeline_id/variables`). */
export function presentPipelineVariable(variable: PipelineVariable) {
  return { variable_type: variable.variableType, key: variable.key, value: variable.value, raw: false };
}
