/**
 * Merge requests as todo targets (`GET /todos`, `POST /todos/:id/mark_as_done`, `POST …/todo`):
 * the resolver the composition root registers with the issues feature (`registerTodoTargets`),
 * which cannot import this feature.
 */
import { can } from '../auth';
import { getMany } from '../platform/dynamo/batch';
import { projectFullPath } from '../projects';
import type { TodoTargetResolver } from './issuables';

import { mergeRequestWebUrl, presentMergeRequests } from './presenters/merge-requests';
import { mergeRequestKeys } from './store/keys';
import { mergeRequestFromItem, type MergeRequest } from './store/merge-requests';

export const mergeRequestTodoTargets: TodoTargetResolver<MergeRequest> = {
  async load(user, todos, subjects) {
    const readable = todos.filter((todo) => {
      const subject = subjects.get(todo.projectId);
      return subject !== undefined && can(user, 'read_merge_request', subject);
    });
    const items = await getMany(readable.map((todo) => mergeRequestKeys.mergeRequest(todo.projectId, todo.targetIid)));
    const byKey = new Map(items.map((item) => [`${item.projectId}#${item.iid}`, mergeRequestFromItem(item)] as const));
    const targets = new Map<number, MergeRequest>();
    for (const todo of readable) {
      const mr = byKey.get(`${todo.projectId}#${todo.targetIid}`);
      if (mr && !mr.deletedAt) targets.set(todo.id, mr);
    }
    return targets;
  },
  async present(entries, viewer, options) {
    const paths = new Map(entries.map(({ subject }) => [subject.project.id, projectFullPath(subject.namespace, subject.project)] as const));
    const mrs = entries.map(({ target }) => target);
    const bodies = await presentMergeRequests(mrs, (projectId) => paths.get(projectId)!, { single: options.single, viewer });
    return mrs.map((mr, i) => ({ entity: bodies[i], url: mergeRequestWebUrl(mr, paths.get(mr.projectId)!), body: mr.title }));
  },
};
