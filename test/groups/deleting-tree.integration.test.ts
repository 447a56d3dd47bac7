/**
 * A group being deleted takes its whole tree with it at once (GitLab hides a group pending
 * deletion with everything beneath it): `DELETE /groups/:id` answers 202 and a background job
 * walks the tree, but its subgroups and projects are gone from every read, list and clone, and
 * nothing new goes into them, before the job reaches them.
 *
 * On the local runtime the job is held while the tree is looked at: a job item already claimed
 * (phase `running`, a lease well ahead) makes the request's own enqueue a no-op and starts no
 * worker; the test then queues it again, as the sweep would, and the worker runs it. Against a
 * deployed stage the job may run at any moment, and every check holds before and after it.
 */
import { describe, expect, it } from 'vitest';
import { GROUP_DELETION } from '../../shared/groups';
import { namespaceKeys } from '../../shared/namespaces';
import { projectKeys } from '../../shared/projects';
import { getItem } from '../../shared/platform/dynamo/query';
import { jobKeys } from '../../shared/platform/jobs';
import { api, isLocalRuntime, rootToken, type ApiResponse } from '../support/api';
import { eventually } from '../support/eventually';
import { createGroup, createProject, createUser, openIssue, unique } from '../support/fixtures';
import { cloneUrl, git, pushNewRepository, scratch } from '../support/git';
import { TestRunner } from '../ci/runner';
import { holdJob, releaseJob } from '../support/held-jobs';

const root = () => ({ token: rootToken() });

/** Local runtime: the group's deletion job held (claimed), so the request queues none and no worker runs yet. */
const holdDeletion = (groupId: number) => holdJob(GROUP_DELETION, groupId);
/** Local runtime: the held deletion queued again, so a worker runs it. */
const releaseDeletion = (groupId: number) => releaseJob(GROUP_DELETION, groupId);

/**
 * Lists read from an index rather than from search entries: by id (streamed), by name (sorted in
 * memory), namespaces. Read whole, so checked on the local runtime only (a stage has many).
 */
const UNSEARCHED_LISTS: Array<[string, Record<string, string | boolean>]> = [
  ['/groups', { all_available: true, order_by: 'id', sort: 'desc' }],
  ['/groups', { all_available: true, order_by: 'name' }],
  ['/namespaces', {}],
];

/** Every id of a list, page after page (`X-Next-Page`). */
async function everyId(path: string, token: string, query: Record<string, string | boolean>): Promise<number[]> {
  const ids: number[] = [];
  for (let page: string | undefined = '1'; page; ) {
    const response: ApiResponse<Array<{ id: number }>> = await api(path, { token, query: { ...query, per_page: 100, page } });
    expect(response.status, JSON.stringify(response.body)).toBe(200);
    ids.push(...response.body.map((entry) => entry.id));
    page = response.headers.get('x-next-page') || undefined;
  }
  return ids;
}

/** The ids a list answers. */
async function listedIds(path: string, token: string, query: Record<string, string | number | boolean>): Promise<number[]> {
  const response = await api(path, { token, query: { per_page: 100, ...query } });
  expect(response.status, JSON.stringify(response.body)).toBe(200);
  return (response.body as Array<{ id: number }>).map((entry) => entry.id);
}

async function clones(fullPath: string, token?: string): Promise<{ code: number; stderr: string }> {
  return git(['clone', '-q', cloneUrl(fullPath, token), `${scratch('clone-')}/copy`]);
}

/** A top-level group with a public subgroup holding a public project with an issue, and a stranger. */
async function tree() {
  const owner = await createUser();
  const stranger = await createUser();
  const marker = unique('deltree');
  const group = await createGroup(owner.token, { path: marker, name: marker, visibility: 'public' });
  const sub = await createGroup(owner.token, { path: `${marker}-sub`, name: `${marker} sub`, parent_id: group.id, visibility: 'public' });
  const project = await createProject(owner.token, { namespace_id: sub.id, path: `${marker}-app`, name: `${marker} app`, visibility: 'public' });
  await openIssue(project.id, owner.token);
  return { owner, stranger, marker, group, sub, project };
}

describe('DELETE /groups/:id hides the whole tree at once', () => {
  it('answers 404 for the subgroups and projects beneath, leaves them out of lists, refuses clones and writes, and the job then removes them', async () => {
    // Arrange
    const { owner, stranger, marker, group, sub, project } = await tree();
    // Everything is reachable before the deletion (the search entries may lag a moment).
    expect((await api(`/groups/${sub.id}`, { token: stranger.token })).status).toBe(200);
    expect((await api(`/projects/${project.id}`, { token: stranger.token })).status).toBe(200);
    await eventually(async () => {
      expect(await listedIds('/projects', stranger.token, { search: marker })).toEqual([project.id]);
      expect(await listedIds('/groups', stranger.token, { search: marker, all_available: true })).toEqual(expect.arrayContaining([group.id, sub.id]));
    });
    if (isLocalRuntime()) for (const [path, query] of UNSEARCHED_LISTS) expect(await everyId(path, rootToken(), query)).toContain(sub.id);
    expect((await clones(project.fullPath)).code).toBe(0);
    if (isLocalRuntime()) await holdDeletion(group.id);

    // Act
    const deleted = await api(`/groups/${group.id}`, { method: 'DELETE', token: owner.token });

    // Assert: at once, for everyone (the owner and an admin too), by id and by path
    expect(deleted.status).toBe(202);
    for (const token of [owner.token, stranger.token, rootToken()]) {
      expect(await api(`/groups/${sub.id}`, { token })).toMatchObject({ status: 404, body: { message: '404 Group Not Found' } });
      expect((await api(`/groups/${encodeURIComponent(sub.fullPath)}`, { token })).status).toBe(404);
      expect(await api(`/projects/${project.id}`, { token })).toMatchObject({ status: 404, body: { message: '404 Project Not Found' } });
      expect((await api(`/projects/${encodeURIComponent(project.fullPath)}`, { token })).status).toBe(404);
      expect((await api(`/projects/${project.id}/issues`, { token })).status).toBe(404);
      expect((await api(`/groups/${sub.id}/projects`, { token })).status).toBe(404);
    }
    // ...anonymously as well
    expect((await api(`/projects/${project.id}`)).status).toBe(404);
    expect((await api(`/groups/${sub.id}`)).status).toBe(404);
    // Lists and search leave them out.
    expect(await listedIds('/projects', stranger.token, { search: marker })).toEqual([]);
    expect(await listedIds('/projects', rootToken(), { search: marker })).toEqual([]);
    expect(await listedIds('/projects', owner.token, { membership: true })).toEqual([]);
    expect(await listedIds('/groups', stranger.token, { search: marker, all_available: true })).toEqual([]);
    expect(await listedIds('/groups', rootToken(), { search: marker })).toEqual([]);
    expect(await listedIds('/groups', owner.token, {})).toEqual([]);
    if (isLocalRuntime()) for (const [path, query] of UNSEARCHED_LISTS) expect(await everyId(path, rootToken(), query)).not.toContain(sub.id);
    // Git refuses the clone as for a project that does not exist.
    const clone = await clones(project.fullPath, owner.token);
    expect(clone.code).not.toBe(0);
    expect(clone.stderr).toMatch(/not found|could not be found|404/i);
    // Nothing new goes into the tree.
    const intoSub = await api('/projects', { token: owner.token, body: { name: 'late', path: unique('late'), namespace_id: sub.id } });
    expect(intoSub.status).toBe(404);
    const subgroup = await api('/groups', { token: owner.token, body: { name: 'late', path: unique('late'), parent_id: sub.id } });
    expect(subgroup.status).toBe(404);
    const member = await api(`/groups/${sub.id}/members`, { ...root(), body: { user_id: stranger.id, access_level: 30 } });
    expect(member.status).toBe(404);
    const fork = await api(`/projects/${(await createProject(owner.token)).id}/fork`, { token: owner.token, body: { namespace_id: sub.id } });
    expect(fork.status).toBe(404);
    // While the job runs the top-level path stays taken.
    expect((await api('/groups', { token: owner.token, body: { path: marker, name: marker } })).status).toBe(400);

    // (Locally: all of the above before the job touched the tree.)
    if (isLocalRuntime()) {
      expect(await getItem(projectKeys.project(project.id))).toMatchObject({ id: project.id });
      expect(await getItem(namespaceKeys.namespace(sub.id))).not.toHaveProperty('deleting');
    }

    // Act: the job runs
    if (isLocalRuntime()) await releaseDeletion(group.id);

    // Assert: all gone, and the paths free
    await eventually(async () => {
      if (isLocalRuntime()) {
        expect(await getItem(jobKeys.job(GROUP_DELETION, group.id))).toBeUndefined();
        expect(await getItem(projectKeys.project(project.id))).toBeUndefined();
      }
      expect((await api('/groups', { token: owner.token, body: { path: marker, name: marker } })).status).toBe(201);
    });
    expect((await api(`/groups/${sub.id}`, root())).status).toBe(404);
    expect((await api(`/projects/${project.id}`, root())).status).toBe(404);
    expect(await listedIds('/projects', rootToken(), { search: marker })).toEqual([]);
  }, 120_000);

  it('hides a project two levels down through an ancestor being deleted, also when it was read before (cached place)', async () => {
    // Arrange
    const { owner, group } = await tree();
    const deeper = await createGroup(owner.token, { parent_id: (await createGroup(owner.token, { parent_id: group.id })).id });
    const project = await createProject(owner.token, { namespace_id: deeper.id });
    // Read first: the service remembers where it lives.
    expect((await api(`/projects/${project.id}`, { token: owner.token })).status).toBe(200);
    if (isLocalRuntime()) await holdDeletion(group.id);

    // Act
    expect((await api(`/groups/${group.id}`, { method: 'DELETE', token: owner.token })).status).toBe(202);

    // Assert
    if (isLocalRuntime()) expect(await getItem(namespaceKeys.namespace(deeper.id))).not.toHaveProperty('deleting');
    expect((await api(`/projects/${project.id}`, { token: owner.token })).status).toBe(404);
    expect((await api(`/projects/${project.id}`, root())).status).toBe(404);
    expect((await api(`/groups/${deeper.id}`, root())).status).toBe(404);
    expect((await api(`/groups/${group.id}/subgroups`, root())).status).toBe(404);
    if (isLocalRuntime()) {
      await releaseDeletion(group.id);
      await eventually(async () => expect(await getItem(projectKeys.project(project.id))).toBeUndefined());
    }
  }, 120_000);

  it('hands out no CI job of a project beneath it and registers no runner for it (runner API)', async () => {
    // Arrange: a pending job in the subgroup's project, a runner of that project
    const { owner, group, project } = await tree();
    await pushNewRepository(project.fullPath, owner.token, { '.gitlab-ci.yml': 'build:\n  script: echo hi\n', 'README.md': '# ci\n' });
    const registration: string = (await api(`/projects/${project.id}`, { token: owner.token })).body.runners_token;
    const runner = await TestRunner.register(registration);
    await eventually(async () => {
      const pipelines = await api(`/projects/${project.id}/pipelines`, { token: owner.token });
      expect(pipelines.body).toHaveLength(1);
      const jobs = await api(`/projects/${project.id}/pipelines/${pipelines.body[0].id}/jobs`, { token: owner.token });
      expect(jobs.body).toMatchObject([{ name: 'build', status: 'pending' }]);
    });
    if (isLocalRuntime()) await holdDeletion(group.id);

    // Act
    expect((await api(`/groups/${group.id}`, { method: 'DELETE', token: owner.token })).status).toBe(202);

    // Assert
    const polled = await api('/jobs/request', { method: 'POST', body: { token: runner.token, info: { name: 'test-runner' } } });
    expect(polled.status).toBe(204);
    expect((await api('/runners', { method: 'POST', body: { token: registration, description: 'late' } })).status).toBe(403);
    if (isLocalRuntime()) {
      await releaseDeletion(group.id);
      await eventually(async () => expect(await getItem(projectKeys.project(project.id))).toBeUndefined());
    }
  }, 120_000);
});
