/**
 * Parent-child pipelines (GitLab's `Ci::Bridge` and `Ci::CreateDownstreamPipelineService`): a job
 * with `trigger:include` is a trigger job, never handed to a runner. When processing makes it
 * pending, whoever wins its move to `running` (a write conditioned on `pending`: a trigger job
 * processed twice starts one child) creates the child pipeline through {@link createPipeline} in
 * the same project, on the same ref and commit, source `parent_pipeline`, its configuration the
 * trigger's `include` read at that commit. Then the trigger job succeeds, or with `strategy:
 * depend` stays running until the child finishes and takes its final status
 * ({@link bridgeFollowsChild}, GitLab's `inherit_status_from_downstream!`). A child that cannot be
 * created (no job, refused, or stored failed with its configuration's errors, which it then links)
 * fails the trigger job with `downstream_pipeline_creation_failed`.
 * `trigger:project` makes a multi-project pipeline instead ({@link triggerProject}), followed the same way.
 *
 * Loaded with the first trigger job a process meets (`import()` from `pipelines.ts`), not at cold start.
 */
import type { ProjectSubject } from '../../auth';
import { findProjectOrNotFound, getProject } from '../../projects';
import { getUser } from '../../users';
import { logger } from '../../platform/logger';
import { pipelineVariables } from '../pipeline-variables';
import { canUpdateBuilds } from '../policy';
import { readPipeline, updateJob, type Job, type Pipeline } from '../store/pipelines';
// Types only (erased at run time): `pipelines.ts` loads this module lazily and hands its operations over.
import type { PipelineOperations, PipelineRequest } from './pipelines';

/** How deep child pipelines nest (GitLab's `max_descendant_pipelines_depth`... a parent, a child, a grandchild). */
const MAX_DEPTH = 2;

/** How many pipelines a chain of multi-project triggers may hold (a bound on loops: a project triggering itself, or two each other). */
const MAX_HIERARCHY = 10;

/** Internal: how many pipelines are above it (child pipelines' parents; with `upstream`, multi-project upstreams too), counted up to `limit`. */
async function depthOf(pipeline: Pipeline, limit: number, upstream = false): Promise<number> {
  let depth = 0;
  let current: Pipeline | undefined = pipeline;
  const above = (p: Pipeline) => p.parent ?? (upstream ? p.upstream : undefined);
  while (current && above(current) && depth <= limit) {
    depth += 1;
    current = (await readPipeline(above(current)!.pipelineId))?.pipeline;
  }
  return depth;
}

/**
 * Starts a pending trigger job's downstream pipeline (once: see the file's header). The caller
 * processes the parent pipeline afterwards. Never throws for the child's refusal: the trigger job
 * fails instead.
 */
export async function triggerDownstream(bridge: Job, pipeline: Pipeline, ops: PipelineOperations): Promise<void> {
  const { changeJobStatus, createPipeline, endJob } = ops;
  const started = await changeJobStatus(bridge, { status: 'running', startedAt: new Date().toISOString() }, ['pending']);
  if (!started) return;
  const fail = (failureReason: string) => endJob(started, { status: 'failed', failureReason }, ['running'], { process: false });
  const trigger = bridge.spec.trigger;
  if (!trigger) return;
  if (!trigger.include) {
    await triggerProject(started, trigger, pipeline, ops, fail);
    return;
  }
  if ((await depthOf(pipeline, MAX_DEPTH)) >= MAX_DEPTH) {
    await fail('reached_max_descendant_pipelines_depth');
    return;
  }
  const [project, user] = await Promise.all([getProject(pipeline.projectId), bridge.userId === null ? undefined : getUser(bridge.userId)]);
  if (!project) {
    await fail('downstream_pipeline_creation_failed');
    return;
  }
  const forwarded = await forwardedVariables(bridge, pipeline);
  try {
    const result = await createPipeline({
      project,
      ref: pipeline.ref,
      tag: pipeline.tag,
      sha: pipeline.sha,
      beforeSha: pipeline.beforeSha,
      source: 'parent_pipeline',
      user: user ?? null,
      variables: forwarded,
      config: JSON.stringify({ include: trigger.include }),
      parent: { pipelineId: pipeline.id, jobId: bridge.id },
      ...(pipeline.mergeRequest ? { mergeRequest: pipeline.mergeRequest } : {}),
    });
    if (result.result !== 'created' || !result.pipeline) {
      await fail('downstream_pipeline_creation_failed');
      return;
    }
    const linked = (await updateJob(started, { downstreamPipelineId: result.pipeline.id })) ?? started;
    // A child stored failed with its configuration's errors was not created successfully (GitLab's
    // `created_successfully?`): the trigger job fails, the child kept for its `yaml_errors`.
    if (result.pipeline.yamlErrors) {
      await endJob(linked, { status: 'failed', failureReason: 'downstream_pipeline_creation_failed' }, ['running'], { process: false });
      return;
    }
    if (trigger.strategy === 'depend') await bridgeFollowsChild(result.pipeline, ops, linked);
    else await endJob(linked, { status: 'success' }, ['running'], { process: false });
  } catch (error) {
    logger.error('downstream pipeline not created', { pipelineId: pipeline.id, jobId: bridge.id, error });
    await fail('downstream_pipeline_creation_failed');
  }
}

/** `forward`: the trigger job's variables (the file's global ones and its own), and the upstream's pipeline variables. */
async function forwardedVariables(bridge: Job, pipeline: Pipeline): Promise<NonNullable<PipelineRequest['variables']>> {
  const forward = bridge.spec.trigger?.forward ?? { yamlVariables: true, pipelineVariables: false };
  return [
    ...(forward.yamlVariables ? Object.entries(bridge.spec.variables).map(([key, value]) => ({ key, value })) : []),
    ...(forward.pipelineVariables ? (await pipelineVariables(pipeline)).map(({ key, value, variableType }) => ({ key, value, variableType })) : []),
  ];
}

/**
 * A multi-project pipeline (`trigger:project`, GitLab's cross-project bridge): a pipeline of the
 * named project on `branch` (its default branch), source `pipeline`, as the trigger job's user;
 * `downstream_bridge_project_not_found` when that user cannot read the project,
 * `insufficient_bridge_permissions` when they may not run its pipelines,
 * `downstream_pipeline_creation_failed` when the pipeline is refused (no ref, protected, no job).
 */
async function triggerProject(bridge: Job, trigger: NonNullable<Job['spec']['trigger']>, pipeline: Pipeline, ops: PipelineOperations, fail: (reason: string) => Promise<unknown>): Promise<void> {
  const user = bridge.userId === null ? undefined : await getUser(bridge.userId);
  let subject: ProjectSubject;
  try {
    if (!user || !trigger.project) throw new Error('no user');
    subject = await findProjectOrNotFound(trigger.project, user);
  } catch {
    await fail('downstream_bridge_project_not_found');
    return;
  }
  if (!canUpdateBuilds(user, subject)) {
    await fail('insufficient_bridge_permissions');
    return;
  }
  const ref = trigger.branch ?? subject.project.defaultBranch;
  // GitLab's loop and hierarchy checks, simplified: not its own project's ref again, and a bounded chain.
  if (subject.project.id === pipeline.projectId && ref === pipeline.ref) {
    await fail('pipeline_loop_detected');
    return;
  }
  if ((await depthOf(pipeline, MAX_HIERARCHY, true)) >= MAX_HIERARCHY) {
    await fail('reached_max_pipeline_hierarchy_size');
    return;
  }
  let downstream: Pipeline;
  try {
    downstream = await ops.createPipelineOnRef({ subject, ref, source: 'pipeline', user, variables: await forwardedVariables(bridge, pipeline), upstream: { pipelineId: pipeline.id, jobId: bridge.id } });
  } catch (error) {
    logger.info('multi-project pipeline refused', { pipelineId: pipeline.id, jobId: bridge.id, error });
    await fail('downstream_pipeline_creation_failed');
    return;
  }
  const linked = (await updateJob(bridge, { downstreamPipelineId: downstream.id })) ?? bridge;
  if (trigger.strategy === 'depend') await bridgeFollowsChild(downstream, ops, linked);
  else await ops.endJob(linked, { status: 'success' }, ['running'], { process: false });
}

/**
 * A downstream pipeline's status changed (a child's, or a multi-project one's): its trigger job, when it has `strategy: depend` and is still
 * running, takes the child's final status (success; canceled; failed or skipped: failed). The
 * parent is processed.
 */
export async function bridgeFollowsChild(child: Pipeline, ops: PipelineOperations, known?: Job): Promise<void> {
  const { endJob } = ops;
  const link = child.parent ?? child.upstream;
  if (!link) return;
  const bridge = known ?? (await readPipeline(link.pipelineId))?.jobs.find((job) => job.id === link.jobId);
  if (!bridge || bridge.spec.trigger?.strategy !== 'depend' || bridge.status !== 'running') return;
  if (child.status === 'success') await endJob(bridge, { status: 'success' }, ['running']);
  else if (child.status === 'canceled') await endJob(bridge, { status: 'canceled' }, ['running']);
  else if (child.status === 'failed' || child.status === 'skipped') await endJob(bridge, { status: 'failed', failureReason: 'unknown_failure' }, ['running']);
}

/** Cancels the child pipelines of a parent's trigger jobs (GitLab cancels a pipeline's downstream pipelines with it). */
export async function cancelDownstream(bridges: readonly Job[], ops: PipelineOperations): Promise<void> {
  for (const bridge of bridges) {
    if (bridge.downstreamPipelineId === undefined) continue;
    await ops.cancelPipeline(bridge.downstreamPipelineId);
  }
}
