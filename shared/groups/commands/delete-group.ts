/**
 * Deleting a group with everything beneath it. It deletes and unshares projects (the projects
 * feature's commands), so it sits above the projects feature and is reached only from the groups
 * routes.
 */
import { deleteProject, readProjectRecord, unshareProject } from '../../projects';
import { deleteGroupAvatarObject, deleteGroupPartition, INDEX_ATTEMPTS, indexBackoff, markGroupDeleting, readNamespaceRecord, removeGroupRecord, subgroupsOf, type Namespace } from '../../namespaces';
import { indexedProjectsOf, projectIdsSharedWith } from '../store/projects';
import { unshareGroupsWith } from './group-links';
import { notifyGroupDestroyed, runGroupRemovalSteps } from './lifecycle';
import { enqueueJob } from '../../platform/jobs';

/** How many items of one kind a deletion removes concurrently. */
const DELETE_CONCURRENCY = 8;

/** Runs `action` on every value of `source`, {@link DELETE_CONCURRENCY} at a time. Internal. */
async function inBatches<T>(source: AsyncIterable<T>, action: (value: T) => Promise<unknown>): Promise<void> {
  let batch: Promise<unknown>[] = [];
  for await (const value of source) {
    batch.push(action(value));
    if (batch.length >= DELETE_CONCURRENCY) {
      await Promise.all(batch);
      batch = [];
    }
  }
  await Promise.all(batch);
}

/**
 * Deletes a group with everything beneath it: subgroups (depth first), their projects (through
 * `deleteProject`), the shares of other projects and groups with them, their memberships (with the
 * memberships' user index entries), path claims and avatars, and what other features declared
 * they remove with a group (`removeWithGroup`: CI's group variables, deploy tokens, access tokens' bots). Each group is marked `deleting` before its
 * contents are swept: it disappears from reads, and nothing new attaches to it (subgroup creation
 * checks every ancestor; projects, members and shares check the group itself). A group item is
 * only removed once its maintained subgroup and project counts are zero, so no subgroup or
 * project is ever orphaned, even if an index lags. Shares and memberships are swept by
 * (eventually consistent) queries without such a count: one written in the instant before the
 * mark can be missed (a dangling share grants nothing, its group being gone).
 *
 * Runs in a background job ({@link scheduleGroupDeletion}); a walk interrupted midway (timeout,
 * crash) leaves the remaining groups marked `deleting`, and the job's next round finishes them.
 */
export async function deleteGroup(group: Namespace): Promise<void> {
  if (!(await markGroupDeleting(group.id))) return;
  await deleteGroupTree(group.id);
}

/** The kind of background job that deletes a group tree (`shared/platform/jobs.ts`). */
export const GROUP_DELETION = 'group_deletion';

/**
 * Deletes a group tree in the background, as GitLab does (`DELETE /groups/:id` answers 202): the
 * job is queued, then the group is marked, so it is gone from reads at once and never left marked
 * with no job to finish it. The job runs {@link runGroupDeletion}.
 */
export async function scheduleGroupDeletion(group: Namespace): Promise<void> {
  await enqueueJob(GROUP_DELETION, group.id);
  await markGroupDeleting(group.id);
}

/**
 * The work of a group deletion job: the whole tree, finishing what a previous run began (every
 * step removes what is still there). One job walks the tree, however large: a run cut short by
 * the worker's time limit is taken up again by the next round.
 */
export async function runGroupDeletion(id: number): Promise<void> {
  const group = await readNamespaceRecord(id);
  if (group?.kind === 'group') await deleteGroup(group);
}

async function deleteGroupTree(groupId: number): Promise<void> {
  await deleteSubgroupsAndProjects(groupId);
  await inBatches(projectIdsSharedWith(groupId), (projectId) => unshareProject(projectId, groupId));
  // Groups shared with it (its own links to others are in its partition, swept below).
  await unshareGroupsWith(groupId);
  await runGroupRemovalSteps(groupId);
  await deleteGroupPartition(groupId);
  for (let attempt = 1; ; attempt++) {
    const record = await readNamespaceRecord(groupId);
    if (!record) return;
    const result = await removeGroupRecord(record);
    // Its avatar's bytes, once no item names them (best effort: nothing serves an unnamed object).
    if (result === 'done') {
      await deleteGroupAvatarObject(record);
      await notifyGroupDestroyed(record);
    }
    if (result !== 'not_empty') return;
    // A subgroup or project appeared in the indexes late: take it too.
    if (attempt >= INDEX_ATTEMPTS) throw new Error(`group ${groupId} still has subgroups or projects after deletion`);
    await indexBackoff(attempt);
    await deleteSubgroupsAndProjects(groupId);
  }
}

/** Deletes the subgroups of a group (each marked first, depth first), then its projects. Internal. */
async function deleteSubgroupsAndProjects(groupId: number): Promise<void> {
  for (const child of await subgroupsOf(groupId)) {
    await markGroupDeleting(child.id);
    await deleteGroupTree(child.id);
  }
  // Each project is re-read consistently first: the index may still list a moved or deleted one.
  await inBatches(indexedProjectsOf(groupId), async (indexed) => {
    const project = await readProjectRecord(indexed.id);
    if (project?.namespaceId === groupId) await deleteProject(project);
  });
}
