/**
 * The race of a write under a group being deleted: the write read the tree as live, the deletion
 * job walked past (marked the group, marked each project as it reached it, swept it), and then
 * the write lands. Every write into a project or group is one transaction that checks its project
 * or group is live (exists, not `deleting`), so a late write is refused and nothing is orphaned
 * (an item nobody would ever delete, in a project's partition or a user's feed). The routes
 * refuse these writes already at their find (404, `deleting-tree.integration.test.ts`): the race
 * is past that, so these tests call the data layer, as a request that had read the tree before
 * the marks does. On the local runtime only (the job is held and released as in
 * `deleting-tree.integration.test.ts`).
 */
import { describe, expect, it } from 'vitest';
import { membershipKeys } from '../../shared/auth';
import { GROUP_DELETION } from '../../shared/groups';
import { insertGroupLabel } from '../../shared/issues/store/group-labels';
import { insertLabel } from '../../shared/issues/store/labels';
import { insertMembership } from '../../shared/members/store/members';
import { namespaceKeys } from '../../shared/namespaces';
import { getItem, queryAll } from '../../shared/platform/dynamo/query';
import { projectCollections, projectKeys, recordEvent } from '../../shared/projects';
import { markProjectDeleting } from '../../shared/projects/store/projects';
import { api, isLocalRuntime } from '../support/api';
import { eventually } from '../support/eventually';
import { createGroup, createProject, createUser, openIssue } from '../support/fixtures';
import { holdJob, releaseJob } from '../support/held-jobs';

/** Local runtime: the group's deletion job held (claimed), so the request queues none and no worker runs yet. */
const holdDeletion = (groupId: number) => holdJob(GROUP_DELETION, groupId);
/** Local runtime: the held deletion queued again, so a worker runs it. */
const releaseDeletion = (groupId: number) => releaseJob(GROUP_DELETION, groupId);

/** A group with a project holding an issue, its owner, and a user who is in neither. */
async function tree() {
  const owner = await createUser();
  const stranger = await createUser();
  const group = await createGroup(owner.token, { visibility: 'public' });
  const project = await createProject(owner.token, { namespace_id: group.id, visibility: 'public' });
  await openIssue(project.id, owner.token);
  return { owner, stranger, group, project };
}

const LABEL = { color: '#ff0000', description: null, priority: null };

/** A new membership of `userId` in a group or project (as the members command builds it). */
const membership = (sourceKind: 'group' | 'project', sourceId: number, userId: number) => ({
  sourceKind,
  sourceId,
  userId,
  accessLevel: 30,
  expiresAt: null,
  createdAt: new Date().toISOString(),
  createdById: null,
});

describe.runIf(isLocalRuntime())('a write that lands under a group being deleted', () => {
  it('is refused once the job marked the group and the project, whatever it read before', async () => {
    // Arrange: the group deleted (marked, its job held), then the job's first step on the project: its mark.
    const { owner, stranger, group, project } = await tree();
    await holdDeletion(group.id);
    expect((await api(`/groups/${group.id}`, { method: 'DELETE', token: owner.token })).status).toBe(202);
    expect(await markProjectDeleting(project.id)).toBe(true);
    const partitionBefore = await queryAll(projectCollections.projectPartition(project.id));

    // Act: writes of requests that read the tree as live before the marks.
    const event = await recordEvent({ projectId: project.id, authorId: owner.id, actionName: 'joined' });
    const label = await insertLabel(project.id, { name: 'late', ...LABEL });
    const projectMember = await insertMembership(membership('project', project.id, stranger.id), false);
    const groupMember = await insertMembership(membership('group', group.id, stranger.id), false);
    const groupLabel = await insertGroupLabel(group.id, { name: 'late', ...LABEL });

    // Assert: each refused, nothing written.
    expect(event).toBeUndefined();
    expect(label).toBe('project_gone');
    expect(projectMember).toBe('source_gone');
    expect(groupMember).toBe('source_gone');
    expect(groupLabel).toBe('group_gone');
    expect(await queryAll(projectCollections.projectPartition(project.id))).toEqual(partitionBefore);
    expect(await getItem(membershipKeys.member({ kind: 'group', id: group.id }, stranger.id))).toBeUndefined();
    await releaseDeletion(group.id);
    await eventually(async () => expect(await getItem(projectKeys.project(project.id))).toBeUndefined(), 120_000);
  }, 180_000);

  it('leaves nothing behind when it lands after the job swept the project', async () => {
    // Arrange: the tree deleted completely.
    const { owner, stranger, group, project } = await tree();
    expect((await api(`/groups/${group.id}`, { method: 'DELETE', token: owner.token })).status).toBe(202);
    await eventually(async () => {
      expect(await getItem(namespaceKeys.namespace(group.id))).toBeUndefined();
      expect(await queryAll(projectCollections.projectPartition(project.id))).toEqual([]);
    }, 120_000);

    // Act: the late writes.
    const event = await recordEvent({ projectId: project.id, authorId: owner.id, actionName: 'pushed to' });
    const label = await insertLabel(project.id, { name: 'late', ...LABEL });
    const member = await insertMembership(membership('project', project.id, stranger.id), false);

    // Assert: no item in the deleted project's partition, none in the owner's feed.
    expect(event).toBeUndefined();
    expect(label).toBe('project_gone');
    expect(member).toBe('source_gone');
    expect(await queryAll(projectCollections.projectPartition(project.id))).toEqual([]);
    const feed = await queryAll(projectCollections.userEvents(owner.id));
    expect(feed.filter((item) => item.projectId === project.id)).toEqual([]);
  }, 180_000);
});
