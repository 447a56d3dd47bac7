/**
 * The sample of a project hook's `merge_requests_events` test (GitLab's
 * `TestHooks::ProjectService#merge_requests_events_data`): the project's first merge request
 * (lowest iid, not deleted), as opened, without its `last_commit` (its diff is not read for a test). One Query of
 * the project's partition. Loaded on first use by the hooks function's composition root.
 */
import type { HookEvent, HookTestSample } from '../../hooks';
import { queryCollection } from '../../platform/dynamo/query';
import type { Project } from '../../projects';
import type { User } from '../../users';
import { mergeRequestCollections } from '../store/keys';
import { mergeRequestFromItem } from '../store/merge-requests';
import './events';

export async function mergeRequestTestSample(project: Project, user: User): Promise<HookTestSample> {
  for await (const item of queryCollection(mergeRequestCollections.projectMergeRequestItems(project.id), { pageSize: 10 })) {
    const mergeRequest = mergeRequestFromItem(item);
    if (mergeRequest.deletedAt) continue;
    return {
      event: { id: 0, projectId: project.id, actorId: user.id, kind: 'merge_request', action: 'open', createdAt: new Date().toISOString(), mergeRequest, previous: null, lastCommit: null } as unknown as HookEvent,
    };
  }
  return { error: 'Ensure the project has merge requests.' };
}
