/**
 * What a finished pipeline does to merge requests (GitLab's `AutoMergeProcessWorker` with
 * `MergeWhenPipelineSucceedsService#process`), registered with CI's `onPipelineFinished` by the
 * composition root: the open merge requests whose source is the pipeline's branch (in the
 * pipeline's project: forks included; a merge request pipeline's own merge request, wherever it ran), whose head is the pipeline's commit and that wait for it
 * (`merge_when_pipeline_succeeds`), are merged when it succeeded, as the user who asked. A failed
 * or canceled pipeline leaves them waiting, as GitLab does: a retried job that then succeeds, or a
 * new push whose pipeline succeeds, merges them.
 */
import type { Pipeline } from '../../ci';
import { logger } from '../../platform/logger';
import { getUser } from '../../users';
import { projectSubjects } from '../queries/merge-requests';
import { getMergeRequest, openFromBranch } from '../store/merge-requests';
import { onPipelineSucceeded } from './merge';

/** The listener: one finished pipeline. Never throws (a merge that fails is logged). */
export async function mergeWhenPipelineSucceeded(pipeline: Pipeline): Promise<void> {
  if (pipeline.status !== 'success' || pipeline.tag) return;
  // Access pattern 5: the open merge requests of a branch, one Query of the source project. A
  // merge request pipeline is its merge request's only (its branch is the source's, in the source
  // project: a fork's merge request pipeline may have run in the target project).
  const ofPipeline = pipeline.mergeRequest;
  for (const ref of await openFromBranch(ofPipeline?.sourceProjectId ?? pipeline.projectId, ofPipeline?.sourceBranch ?? pipeline.ref)) {
    if (ofPipeline && (ref.projectId !== ofPipeline.projectId || ref.iid !== ofPipeline.iid)) continue;
    const fields = { pipelineId: pipeline.id, projectId: ref.projectId, iid: ref.iid };
    try {
      const mr = await getMergeRequest(ref.projectId, ref.iid);
      if (!mr || mr.state !== 'opened' || !mr.mergeWhenPipelineSucceeds || mr.sha !== pipeline.sha || mr.mergeUserId === null) continue;
      const user = await getUser(mr.mergeUserId);
      const target = user && (await projectSubjects(user, [mr.projectId])).get(mr.projectId);
      if (!user || !target) {
        logger.warn('merge when pipeline succeeds: the user who asked or the project is gone; not merged', fields);
        continue;
      }
      const merged = await onPipelineSucceeded(target, mr, user);
      logger.info('merge when pipeline succeeds: merged', { ...fields, state: merged?.state });
    } catch (error) {
      logger.warn('merge when pipeline succeeds: the merge failed', { ...fields, error: String(error) });
    }
  }
}
