/**
 * Who hears about finished pipelines and successful deployments: listeners registered by the
 * composition roots (the merge-requests feature's merge when the pipeline succeeds, and its links
 * of merge requests to the deployments that shipped them, which sit above CI and so cannot be
 * imported here). Called once a pipeline reaches a completed status; a listener's failure is
 * logged, never fails the change that finished the pipeline.
 */
import { logger } from '../platform/logger';
import type { Deployment, Environment } from './store/environments';
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

/**
 * A deployment that succeeded, with its environment as the success left it and the commit of the
 * environment's previous successful deployment (none for its first): what the merge-requests
 * feature links the merged merge requests it shipped from (GitLab's `LinkMergeRequestsService`).
 */
export interface DeploymentSucceeded {
  deployment: Deployment;
  environment: Environment;
  previousSha: string | null;
}

export type DeploymentSucceededListener = (event: DeploymentSucceeded) => unknown;

const deploymentListeners: DeploymentSucceededListener[] = [];

/** Registers a listener of successful deployments (at module load, by a composition root); answers a function that removes it. */
export function onDeploymentSucceeded(listener: DeploymentSucceededListener): () => void {
  deploymentListeners.push(listener);
  return () => {
    const index = deploymentListeners.indexOf(listener);
    if (index >= 0) deploymentListeners.splice(index, 1);
  };
}

/** Tells the listeners; a listener's failure is logged, never fails the move that made the deployment succeed. */
export async function notifyDeploymentSucceeded(event: DeploymentSucceeded): Promise<void> {
  for (const listener of [...deploymentListeners]) {
    try {
      await listener(event);
    } catch (error) {
      logger.error('deployment succeeded: a listener failed', { deploymentId: event.deployment.id, error });
    }
  }
}
