/**
 * How the merge-requests feature's hook events are delivered: `merge_request` events to hooks with
 * `merge_requests_events` (`Merge Request Hook`), comments to hooks with `note_events` (`Note Hook`).
 * The composition root (`functions/hook_delivery/handler.ts`) gives these to delivery.
 */
import { latestPipelineFor } from '../../ci';
import type { HookDeliveryContext, HookEventOf, HookPayloadBuilder, HookTrigger } from '../../hooks';
import { listLabels, listMilestones } from '../../issues';
import { getNamespace } from '../../namespaces';
import { getProject } from '../../projects';
import type { MergeRequest } from '../store/merge-requests';
// The kinds' declaration, and the registration of how they are stored.
import './events';
import { mergeRequestHookPayload, mergeRequestNoteHookPayload, type MergeRequestHookContext } from './payloads';

async function contextOf(context: HookDeliveryContext, mr: MergeRequest): Promise<MergeRequestHookContext> {
  const [labels, milestones, sourceProject, headPipeline] = await Promise.all([
    listLabels(context.project.id),
    listMilestones(context.project.id),
    mr.sourceProjectId === context.project.id ? context.project : getProject(mr.sourceProjectId),
    latestPipelineFor(mr.sourceProjectId, mr.sourceBranch, mr.sha, false, mr),
  ]);
  const sourceNamespace = sourceProject ? (sourceProject.id === context.project.id ? context.namespace : await getNamespace(sourceProject.namespaceId)) : undefined;
  return {
    ...context,
    labels: new Map(labels.map((label) => [label.id, label])),
    milestones: new Map(milestones.map((milestone) => [milestone.id, milestone])),
    source: sourceProject && sourceNamespace ? { project: sourceProject, namespace: sourceNamespace } : undefined,
    headPipelineId: headPipeline?.id ?? null,
  };
}

const partiesOf = (mr: MergeRequest) => [mr.authorId, ...(mr.assigneeId ? [mr.assigneeId] : []), ...(mr.reviewer ? [mr.reviewer.userId] : [])];

export const mergeRequestHookPayloads = {
  merge_request: {
    trigger: (): HookTrigger => 'mergeRequestsEvents',
    eventName: () => 'Merge Request Hook',
    userIds: ({ mergeRequest, previous }) => [...partiesOf(mergeRequest), ...(previous ? partiesOf(previous) : [])],
    build: async (event, context) =>
      mergeRequestHookPayload(await contextOf(context, event.mergeRequest), event.mergeRequest, event.previous, event.action, event.lastCommit),
  },
  merge_request_note: {
    trigger: (): HookTrigger => 'noteEvents',
    eventName: () => 'Note Hook',
    userIds: ({ mergeRequest, note }) => [...partiesOf(mergeRequest), note.authorId],
    build: async (event, context) => mergeRequestNoteHookPayload(await contextOf(context, event.mergeRequest), event.note, event.mergeRequest, event.lastCommit),
  },
} satisfies { merge_request: HookPayloadBuilder<HookEventOf<'merge_request'>>; merge_request_note: HookPayloadBuilder<HookEventOf<'merge_request_note'>> };
