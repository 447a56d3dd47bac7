/**
 * The CI feature's public API: what the composition roots and the features above it (merge
 * requests) use. Nothing here imports a feature above CI. The hooks the API's composition root
 * wires lazily (`startPipelinesOnPush`, `removeCiObjects`, `jobTokenGitAccess`) are imported from
 * their own modules there, not exported here: a module this index re-exports is loaded at cold
 * start by every function that loads the index, however it is imported elsewhere.
 */
// Registers how the feature's hook events are stored, in every process that loads the feature.
import './webhooks/events';

export { onDeploymentSucceeded, onPipelineFinished, type DeploymentSucceeded, type DeploymentSucceededListener, type PipelineFinishedListener } from './listeners';
export { latestPipelineFor, pipelineActive, pipelinesForCommits } from './queries/jobs';
export { presentPipeline, presentPipelineBasic } from './presenters/pipelines';
export { ciHookPayloads } from './webhooks/builders';
export { sweepCi, type SweepOptions, type SweepReport } from './commands/sweep';
export { CI_ARTIFACTS_DELETION, runProjectArtifactsDeletion } from './commands/artifacts';
export type { MergeRequestSnapshot, Pipeline } from './store/pipelines';
import type { MergeRequestPipelineRequest, MergeRequestPipelineResult } from './commands/merge-request-pipelines';
export type { MergeRequestPipelineRequest, MergeRequestPipelineResult };

/**
 * Creates a merge request pipeline (`commands/merge-request-pipelines.ts`), the pipeline code (and
 * its YAML parser) loaded on the first call, not at the cold start of the functions that load this
 * index.
 */
export async function createMergeRequestPipeline(request: MergeRequestPipelineRequest, options: { refuse?: boolean } = {}): Promise<MergeRequestPipelineResult> {
  const { createMergeRequestPipeline: create } = await import('./commands/merge-request-pipelines');
  return create(request, options);
}
export type { PipelineStatus } from './status';
