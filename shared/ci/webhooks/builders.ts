/**
 * How the CI feature's hook events are delivered: `pipeline` events to hooks with
 * `pipeline_events` (`Pipeline Hook`), `job` events to hooks with `job_events` (`Job Hook`),
 * `deployment` events to hooks with `deployment_events` (`Deployment Hook`). The
 * composition root (`functions/hook_delivery/handler.ts`) gives these to delivery.
 */
import type { HookDeliveryContext, HookEventOf, HookPayloadBuilder, HookTrigger } from '../../hooks';
import { pipelineVariables } from '../pipeline-variables';
import { runnersByIds } from '../store/runners';
// The kinds' declaration, and the registration of how they are stored, which reading them needs.
import { type HookJob } from './events';
import { deploymentHookPayload, jobHookPayload, pipelineHookPayload, type CiHookContext } from './payloads';

/** Internal: the delivery context with the runners that took the jobs (project, group or instance runners), read only when a job ran on one (two batch reads). */
async function ciContext(context: HookDeliveryContext, jobs: readonly HookJob[]): Promise<CiHookContext> {
  const ids = jobs.flatMap((job) => (job.runnerId === null ? [] : [job.runnerId]));
  return { ...context, runners: await runnersByIds(ids) };
}

const usersOf = (jobs: readonly HookJob[]) => jobs.flatMap((job) => (job.userId === null ? [] : [job.userId]));

export const ciHookPayloads = {
  pipeline: {
    trigger: (): HookTrigger => 'pipelineEvents',
    eventName: () => 'Pipeline Hook',
    userIds: (event) => usersOf(event.jobs),
    build: async (event, context) => {
      const [ctx, variables] = await Promise.all([ciContext(context, event.jobs), pipelineVariables(event.pipeline)]);
      return pipelineHookPayload({ ...ctx, pipelineVariables: variables }, event);
    },
  },
  job: {
    trigger: (): HookTrigger => 'jobEvents',
    eventName: () => 'Job Hook',
    build: async (event, context) => jobHookPayload(await ciContext(context, [event.job]), event),
  },
  deployment: {
    trigger: (): HookTrigger => 'deploymentEvents',
    eventName: () => 'Deployment Hook',
    build: (event, context) => deploymentHookPayload(context, event),
  },
} satisfies { pipeline: HookPayloadBuilder<HookEventOf<'pipeline'>>; job: HookPayloadBuilder<HookEventOf<'job'>>; deployment: HookPayloadBuilder<HookEventOf<'deployment'>> };
