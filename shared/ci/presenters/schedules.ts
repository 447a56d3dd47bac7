/**
 * GitLab's `PipelineSchedule` (lists) and `PipelineScheduleDetails` (one schedule: its last
 * pipeline as `PipelineBasic`, and its variables only for whom may read them,
 * `read_pipeline_schedule_variables`; GitLab presents the writes' answers without a user, so they
 * carry no variables). `inputs` are not supported: always empty.
 */
import { presentUserPublic, type User } from '../../users';
import type { PipelineVariable } from '../pipeline-variables';
import type { Pipeline } from '../store/pipelines';
import type { Schedule } from '../store/schedules';
import { presentPipelineBasic } from './pipelines';

export function presentSchedule(schedule: Schedule, owner: User | undefined) {
  return {
    id: schedule.id,
    description: schedule.description,
    ref: schedule.ref,
    cron: schedule.cron,
    cron_timezone: schedule.cronTimezone,
    next_run_at: schedule.nextRunAt,
    active: schedule.active,
    created_at: schedule.createdAt,
    updated_at: schedule.updatedAt,
    owner: owner ? presentUserPublic(owner) : null,
    inputs: [],
  };
}

export function presentScheduleDetails(
  schedule: Schedule,
  owner: User | undefined,
  details: { lastPipeline: Pipeline | null; projectWebUrl: string; variables?: readonly PipelineVariable[] },
) {
  return {
    ...presentSchedule(schedule, owner),
    last_pipeline: details.lastPipeline ? presentPipelineBasic(details.lastPipeline, details.projectWebUrl) : null,
    ...(details.variables ? { variables: details.variables.map(presentScheduleVariable), inputs: (schedule.inputs ?? []).map(({ name, value }) => ({ name, value })) } : {}),
  };
}

/** A schedule variable (GitLab's `Ci::Variable` entity for `Ci::PipelineScheduleVariable`: no hidden, protected, masked nor scope). */
export function presentScheduleVariable(variable: PipelineVariable) {
  return { variable_type: variable.variableType, key: variable.key, value: variable.value, raw: false };
}
