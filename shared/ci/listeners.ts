/**
 * Who hears about finished pipelines: listeners registered by the composition roots (the
 * merge-requests feature's merge when the pipeline succeeds, which sits above CI and so cannot be
 * imported here). Called once a pipeline reaches a completed status; a listener's failure is
 * logged, never fails the change that finished the pipeline.
 */
import { logger } from '../platform/logger';
import type { Pipeline } from './store/pipelines';

export type PipelineFinishedListener = (pipeline: Pipeline) => unknown;

const listeners: PipelineFinishedListener[] = [];

/** Registers a listener (at module load, by a composition root); answers a function that removes it. */
export function onPipelineFinished(listener: PipelineFinishedListener): () => void {
  listeners.push(listener);
  return () => {
    const index = listeners.indexOf(listener);
    if (index >= 0) listeners.splice(index, 1);
  };
}

export async function notifyPipelineFinished(pipeline: Pipeline): Promise<void> {
  for (const listener of [...listeners]) {
    try {
      await listener(pipeline);
    } catch (error) {
      logger.error('pipeline finished: a listener failed', { pipelineId: pipeline.id, error });
    }
  }
}
