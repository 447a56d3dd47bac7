/**
 * The CI feature's public API: what the composition roots and the features above it (merge
 * requests) use. Nothing here imports a feature above CI.
 */
// Registers how the feature's hook events are stored, in every process that loads the feature.
import './webhooks/events';

export { startPipelinesOnPush } from './commands/push';
export { onPipelineFinished, type PipelineFinishedListener } from './listeners';
export { latestPipelineFor, pipelineActive, pipelinesForCommits } from './queries/jobs';
export { presentPipeline, presentPipelineBasic } from './presenters/pipelines';
export { ciHookPayloads } from './webhooks/builders';
export { removeCiObjects } from './commands/removal';
export { jobTokenGitAccess } from './commands/job-tokens';
export { sweepCi, type SweepOptions, type SweepReport } from './commands/sweep';
export type { Pipeline } from './store/pipelines';
export type { PipelineStatus } from './status';
