/**
 * The CI feature's public API: what the composition roots and the features above it (merge
 * requests) use. Nothing here imports a feature above CI.
 */
export { startPipelinesOnPush } from './commands/push';
export { onPipelineFinished, type PipelineFinishedListener } from './listeners';
export { latestPipelineFor } from './queries/jobs';
export { removeCiObjects } from './commands/removal';
export { jobTokenGitAccess } from './commands/job-tokens';
export type { Pipeline } from './store/pipelines';
export type { PipelineStatus } from './status';
