/**
 * Who hears about finished pipelines and successful deployments: listeners registered by the
 * composition roots (the merge-requests feature's merge when the pipeline succeeds, and its links
 * of merge requests to the deployments that shipped them, which sit above CI and so cannot be
 * imported here). Called once a pipeline reaches a completed status; a listener's failure is
 * logged, never fails the change that finished the pipeline.
 */
import { listenersOf, type Listener } from '../platform/listeners';
import type { Deployment, Environment } from './store/environments';
import type { Pipeline } from './store/pipelines';

export type PipelineFinishedListener = Listener<Pipeline>;

const pipelineFinished = listenersOf<Pipeline>('pipeline finished', (pipeline) => ({ pipelineId: pipeline.id }));
export const onPipelineFinished = pipelineFinished.on;
export const notifyPipelineFinished = pipelineFinished.notify;

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

export type DeploymentSucceededListener = Listener<DeploymentSucceeded>;

const deploymentSucceeded = listenersOf<DeploymentSucceeded>('deployment succeeded', (event) => ({ deploymentId: event.deployment.id }));
export const onDeploymentSucceeded = deploymentSucceeded.on;
export const notifyDeploymentSucceeded = deploymentSucceeded.notify;
