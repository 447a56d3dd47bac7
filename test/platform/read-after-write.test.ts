/**
 * Read-after-write on AWS, where secondary indexes lag behind the table: the flows clients rely
 * on (create, then list or get by path) must show the write at once. DynamoDB Local updates its
 * indexes in the same request, so the runtime here runs with a client whose index Queries leave
 * out everything written since the lag began (`test/support/lagging-index.ts`); each flow runs
 * the real routes, commands and stores in this process against DynamoDB Local with the lag on.
 * Lists served by the table (SSH keys, members, labels, hooks, notes, branches, tokens of a
 * user) are consistent by themselves; lists served by an index read the journal of recent writes
 * of their partition (`shared/platform/dynamo/recent.ts`).
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import { db, tableName } from '../../shared/platform/dynamo/client';
import { queryCollection } from '../../shared/platform/dynamo/query';
import { indexCollection } from '../../shared/platform/dynamo/keys';
import { api, rootToken } from '../support/api';
import { createGroup, createProject, createUser, openIssue, unique } from '../support/fixtures';
import { useLaggingRuntime } from '../support/lagging-index';
import { generateSshPublicKey } from '../support/ssh-keys';
import { commit, mrs, openMergeRequest } from '../merge-requests/helpers';

const lag = useLaggingRuntime();

beforeEach(() => lag.start());
afterEach(() => lag.stop());

/** The `field` of every item of a list response (200 asserted). */
async function listed<T = number>(path: string, token: string, query: Record<string, string | number | boolean> = {}, field = 'id'): Promise<T[]> {
  const response = await api(path, { token, query: { per_page: 100, ...query } });
  expect(response.status, JSON.stringify(response.body)).toBe(200);
  return (response.body as Array<Record<string, T>>).map((item) => item[field]);
}

describe('the lagging index (the harness itself)', () => {
  it('hides a fresh write from a plain index Query; the journal of the partition shows it', async () => {
    // Arrange: a project created while the index lags (GSI1 `PROJECTS`, a journaled partition).
    const owner = await createUser();
    const project = await createProject(owner.token);
    // Act: the index read as it is, then the same collection read with its journal.
    const { Items: plain = [] } = await db().send(
      new QueryCommand({ TableName: tableName(), IndexName: 'GSI1', KeyConditionExpression: 'GSI1PK = :pk', ExpressionAttributeValues: { ':pk': 'PROJECTS' } }),
    );
    const journaled: number[] = [];
    for await (const item of queryCollection(indexCollection('GSI1', 'PROJECTS'), { ascending: false })) journaled.push(item.id as number);
    // Assert
    expect(plain.map((item) => item.id)).not.toContain(project.id);
    expect(journaled).toContain(project.id);
  });
});

describe('users and their keys and tokens', () => {
  it('a created user is found at once by username (a claim) and by search (table entries), and listed (all, active)', async () => {
    // Arrange
    const user = await createUser();
    // Act
    const byName = await api('/users', { token: rootToken(), query: { username: user.username } });
    const bySearch = await api('/users', { token: rootToken(), query: { search: user.username } });
    const all = await listed('/users', rootToken(), { order_by: 'id', sort: 'desc' });
    const active = await listed('/users', rootToken(), { active: true, order_by: 'id', sort: 'desc' });
    // Assert
    expect(byName.body.map((u: { id: number }) => u.id)).toEqual([user.id]);
    expect(bySearch.body.map((u: { id: number }) => u.id)).toEqual([user.id]);
    expect(all).toContain(user.id);
    expect(active).toContain(user.id);
  });

  it('an added SSH key is listed and found by id at once (its own and the global one)', async () => {
    // Arrange
    const user = await createUser();
    const created = await api('/user/keys', { token: user.token, body: { title: 'laptop', key: generateSshPublicKey() } });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    // Act
    const mine = await listed('/user/keys', user.token);
    const one = await api(`/user/keys/${created.body.id}`, { token: user.token });
    const global = await api(`/keys/${created.body.id}`, { token: rootToken() });
    // Assert
    expect(mine).toEqual([created.body.id]);
    expect(one.status).toBe(200);
    expect(global).toMatchObject({ status: 200, body: { id: created.body.id, user: { id: user.id } } });
  });

  it('created tokens are listed at once: a user’s impersonation tokens, everyone’s personal tokens for admins', async () => {
    // Arrange
    const user = await createUser();
    const personal = await api(`/users/${user.id}/personal_access_tokens`, { token: rootToken(), body: { name: unique('pat'), scopes: ['api'] } });
    expect(personal.status, JSON.stringify(personal.body)).toBe(201);
    // Act
    const impersonation = await listed(`/users/${user.id}/impersonation_tokens`, rootToken());
    const everyone = await listed('/personal_access_tokens', rootToken(), { sort: 'desc' });
    const one = await api(`/personal_access_tokens/${personal.body.id}`, { token: rootToken() });
    // Assert
    expect(impersonation.length).toBe(1);
    expect(everyone).toContain(personal.body.id);
    expect(one).toMatchObject({ status: 200, body: { id: personal.body.id } });
  });
});

describe('projects and groups', () => {
  it('a created project is found by path and listed as owned, in the user’s projects and in GET /projects', async () => {
    // Arrange
    const owner = await createUser();
    const project = await createProject(owner.token);
    // Act
    const byPath = await api(`/projects/${encodeURIComponent(project.fullPath)}`, { token: owner.token });
    const owned = await listed('/projects', owner.token, { owned: true });
    const ofUser = await listed(`/users/${owner.id}/projects`, owner.token);
    const all = await listed('/projects', rootToken(), { order_by: 'id', sort: 'desc' });
    // Assert
    expect(byPath).toMatchObject({ status: 200, body: { id: project.id } });
    expect(owned).toEqual([project.id]);
    expect(ofUser).toEqual([project.id]);
    expect(all).toContain(project.id);
  });

  it('a created group is found by path and listed for its creator; a project created in it is listed in it', async () => {
    // Arrange
    const creator = await createUser();
    const group = await createGroup(creator.token);
    const project = await createProject(creator.token, { namespace_id: group.id });
    // Act
    const byPath = await api(`/groups/${encodeURIComponent(group.fullPath)}`, { token: creator.token });
    const groups = await listed('/groups', creator.token);
    const allGroups = await listed('/groups', rootToken(), { order_by: 'id', sort: 'desc' });
    const groupProjects = await listed(`/groups/${group.id}/projects`, creator.token);
    const membership = await listed('/projects', creator.token, { membership: true });
    // Assert
    expect(byPath).toMatchObject({ status: 200, body: { id: group.id } });
    expect(groups).toEqual([group.id]);
    expect(allGroups).toContain(group.id);
    expect(groupProjects).toEqual([project.id]);
    expect(membership).toEqual([project.id]);
  });

  it('an added member, label and hook are listed at once', async () => {
    // Arrange
    const owner = await createUser();
    const member = await createUser();
    const project = await createProject(owner.token);
    expect((await api(`/projects/${project.id}/members`, { token: owner.token, body: { user_id: member.id, access_level: 30 } })).status).toBe(201);
    expect((await api(`/projects/${project.id}/labels`, { token: owner.token, body: { name: 'bug', color: '#ff0000' } })).status).toBe(201);
    expect((await api(`/projects/${project.id}/hooks`, { token: owner.token, body: { url: 'https://example.com/hook' } })).status).toBe(201);
    // Act
    const members = await listed(`/projects/${project.id}/members`, owner.token);
    const labels = await listed<string>(`/projects/${project.id}/labels`, owner.token, {}, 'name');
    const hooks = await listed<string>(`/projects/${project.id}/hooks`, owner.token, {}, 'url');
    const memberProjects = await listed('/projects', member.token, { membership: true });
    // Assert
    expect(members).toContain(member.id);
    expect(labels).toEqual(['bug']);
    expect(hooks).toEqual(['https://example.com/hook']);
    expect(memberProjects).toEqual([project.id]);
  });
});

describe('issues, notes and merge requests', () => {
  it('an opened issue is listed (all, by state, filtered, the author’s) and its note is listed at once', async () => {
    // Arrange
    const owner = await createUser();
    const project = await createProject(owner.token);
    const issue = await openIssue(project.id, owner.token, { labels: 'bug' });
    const note = await api(`/projects/${project.id}/issues/${issue.iid}/notes`, { token: owner.token, body: { body: 'first!' } });
    expect(note.status, JSON.stringify(note.body)).toBe(201);
    // Act
    const one = await api(`/projects/${project.id}/issues/${issue.iid}`, { token: owner.token });
    const all = await listed('/projects/' + project.id + '/issues', owner.token);
    const opened = await listed(`/projects/${project.id}/issues`, owner.token, { state: 'opened', order_by: 'updated_at' });
    const labelled = await listed(`/projects/${project.id}/issues`, owner.token, { labels: 'bug' });
    const mine = await listed('/issues', owner.token);
    const notes = await listed(`/projects/${project.id}/issues/${issue.iid}/notes`, owner.token);
    const discussions = await api(`/projects/${project.id}/issues/${issue.iid}/discussions`, { token: owner.token });
    // Assert
    expect(one.status).toBe(200);
    expect(all).toEqual([issue.id]);
    expect(opened).toEqual([issue.id]);
    expect(labelled).toEqual([issue.id]);
    expect(mine).toEqual([issue.id]);
    expect(notes).toEqual([note.body.id]);
    expect(discussions.body.flatMap((d: { notes: Array<{ id: number }> }) => d.notes.map((n) => n.id))).toEqual([note.body.id]);
  });

  it('a created branch and merge request are listed at once', async () => {
    // Arrange
    const owner = await createUser();
    const project = await createProject(owner.token);
    await commit(project.id, owner.token, 'main', { 'README.md': 'hello\n' });
    await commit(project.id, owner.token, 'feature', { 'feature.txt': 'new\n' }, { start: 'main' });
    const mr = await openMergeRequest(project.id, owner.token, { source_branch: 'feature' });
    // Act
    const branches = await listed<string>(`/projects/${project.id}/repository/branches`, owner.token, {}, 'name');
    const list = await listed(mrs(project.id), owner.token);
    const mine = await listed('/merge_requests', owner.token);
    // Assert
    expect(branches).toEqual(['feature', 'main']);
    expect(list).toEqual([mr.id]);
    expect(mine).toEqual([mr.id]);
  });
});

/** Everything written so far is old (indexes caught up, journal past its window); what is written next lags again. */
const indexesCatchUp = () => lag.catchUp();

describe('deletions and moves: an item leaves its old lists at once', () => {
  it('a closed issue leaves the opened lists (project, filtered, the author’s) and shows in the closed one', async () => {
    // Arrange
    const owner = await createUser();
    const project = await createProject(owner.token);
    const issue = await openIssue(project.id, owner.token, { labels: 'bug' });
    await indexesCatchUp();
    // Act
    const closed = await api(`/projects/${project.id}/issues/${issue.iid}`, { token: owner.token, method: 'PUT', body: { state_event: 'close' } });
    expect(closed.status, JSON.stringify(closed.body)).toBe(200);
    const opened = await listed(`/projects/${project.id}/issues`, owner.token, { state: 'opened' });
    const openedByUpdate = await listed(`/projects/${project.id}/issues`, owner.token, { state: 'opened', order_by: 'updated_at' });
    const labelled = await listed(`/projects/${project.id}/issues`, owner.token, { state: 'opened', labels: 'bug' });
    const mine = await listed('/issues', owner.token, { state: 'opened', scope: 'created_by_me' });
    const closedList = await listed(`/projects/${project.id}/issues`, owner.token, { state: 'closed' });
    // Assert
    expect(lag.stale).toBeGreaterThan(0);
    expect(opened).toEqual([]);
    expect(openedByUpdate).toEqual([]);
    expect(labelled).toEqual([]);
    expect(mine).toEqual([]);
    expect(closedList).toEqual([issue.id]);
  });

  it('a deleted issue is no longer listed (its project’s issues, the author’s)', async () => {
    // Arrange
    const owner = await createUser();
    const project = await createProject(owner.token);
    const kept = await openIssue(project.id, owner.token);
    const issue = await openIssue(project.id, owner.token);
    await indexesCatchUp();
    // Act
    const deleted = await api(`/projects/${project.id}/issues/${issue.iid}`, { token: owner.token, method: 'DELETE' });
    expect(deleted.status, JSON.stringify(deleted.body)).toBe(204);
    const all = await listed(`/projects/${project.id}/issues`, owner.token);
    const mine = await listed('/issues', owner.token, { scope: 'created_by_me' });
    // Assert
    expect(all).toEqual([kept.id]);
    expect(mine).toEqual([kept.id]);
  });

  it('an issue moved to another project leaves the old project’s list and shows in the new one', async () => {
    // Arrange
    const owner = await createUser();
    const from = await createProject(owner.token);
    const to = await createProject(owner.token);
    const issue = await openIssue(from.id, owner.token);
    await indexesCatchUp();
    // Act
    const moved = await api(`/projects/${from.id}/issues/${issue.iid}/move`, { token: owner.token, body: { to_project_id: to.id } });
    expect(moved.status, JSON.stringify(moved.body)).toBe(201);
    const oldList = await listed(`/projects/${from.id}/issues`, owner.token, { state: 'opened' });
    const newList = await listed(`/projects/${to.id}/issues`, owner.token);
    // Assert
    expect(oldList).toEqual([]);
    expect(newList).toEqual([moved.body.id]);
  });

  it('a deleted note leaves its issue’s discussions', async () => {
    // Arrange
    const owner = await createUser();
    const project = await createProject(owner.token);
    const issue = await openIssue(project.id, owner.token);
    const note = await api(`/projects/${project.id}/issues/${issue.iid}/notes`, { token: owner.token, body: { body: 'oops' } });
    expect(note.status, JSON.stringify(note.body)).toBe(201);
    await indexesCatchUp();
    // Act
    const deleted = await api(`/projects/${project.id}/issues/${issue.iid}/notes/${note.body.id}`, { token: owner.token, method: 'DELETE' });
    expect(deleted.status, JSON.stringify(deleted.body)).toBe(204);
    const discussions = await api(`/projects/${project.id}/issues/${issue.iid}/discussions`, { token: owner.token });
    // Assert
    expect(discussions.status).toBe(200);
    expect(discussions.body.flatMap((d: { notes: Array<{ id: number; system: boolean }> }) => d.notes.filter((n) => !n.system).map((n) => n.id))).toEqual([]);
  });

  it('a todo marked done leaves the pending todos and shows in the done ones', async () => {
    // Arrange
    const owner = await createUser();
    const project = await createProject(owner.token);
    const issue = await openIssue(project.id, owner.token);
    const todo = await api(`/projects/${project.id}/issues/${issue.iid}/todo`, { token: owner.token, method: 'POST' });
    expect(todo.status, JSON.stringify(todo.body)).toBe(201);
    await indexesCatchUp();
    // Act
    const done = await api(`/todos/${todo.body.id}/mark_as_done`, { token: owner.token, method: 'POST' });
    expect(done.status, JSON.stringify(done.body)).toBe(201);
    const pending = await listed('/todos', owner.token);
    const doneList = await listed('/todos', owner.token, { state: 'done' });
    // Assert
    expect(pending).toEqual([]);
    expect(doneList).toEqual([todo.body.id]);
  });

  it('a removed member no longer lists the project among theirs', async () => {
    // Arrange
    const owner = await createUser();
    const member = await createUser();
    const project = await createProject(owner.token);
    expect((await api(`/projects/${project.id}/members`, { token: owner.token, body: { user_id: member.id, access_level: 30 } })).status).toBe(201);
    await indexesCatchUp();
    // Act
    const removed = await api(`/projects/${project.id}/members/${member.id}`, { token: owner.token, method: 'DELETE' });
    expect(removed.status, JSON.stringify(removed.body)).toBe(204);
    const memberProjects = await listed('/projects', member.token, { membership: true });
    // Assert
    expect(memberProjects).toEqual([]);
  });

  it('a project transferred to a group leaves its old namespace’s list and shows in the new one', async () => {
    // Arrange
    const owner = await createUser();
    const group = await createGroup(owner.token);
    const project = await createProject(owner.token);
    await indexesCatchUp();
    // Act
    const transferred = await api(`/projects/${project.id}/transfer`, { token: owner.token, method: 'PUT', body: { namespace: group.id } });
    expect(transferred.status, JSON.stringify(transferred.body)).toBe(200);
    const ofUser = await listed(`/users/${owner.id}/projects`, owner.token);
    const ofGroup = await listed(`/groups/${group.id}/projects`, owner.token);
    // Assert
    expect(ofUser).toEqual([]);
    expect(ofGroup).toEqual([project.id]);
  });

  it('a deleted SSH key and a revoked token leave the admin’s lists', async () => {
    // Arrange
    const user = await createUser();
    const key = await api('/user/keys', { token: user.token, body: { title: 'laptop', key: generateSshPublicKey() } });
    expect(key.status, JSON.stringify(key.body)).toBe(201);
    const token = await api(`/users/${user.id}/personal_access_tokens`, { token: rootToken(), body: { name: unique('pat'), scopes: ['api'] } });
    expect(token.status, JSON.stringify(token.body)).toBe(201);
    await indexesCatchUp();
    // Act
    expect([200, 204]).toContain((await api(`/user/keys/${key.body.id}`, { token: user.token, method: 'DELETE' })).status);
    expect((await api(`/personal_access_tokens/${token.body.id}`, { token: rootToken(), method: 'DELETE' })).status).toBe(204);
    const byId = await api(`/keys/${key.body.id}`, { token: rootToken() });
    const active = await listed('/personal_access_tokens', rootToken(), { user_id: user.id, state: 'active' });
    // Assert
    expect(byId.status).toBe(404);
    expect(active).toEqual([]);
  });
});

describe('searches, event feeds and CI lists', () => {
  it('an opened issue is found by search at once (its project’s and the author’s)', async () => {
    // Arrange
    const owner = await createUser();
    const project = await createProject(owner.token);
    const word = unique('zebra');
    const issue = await openIssue(project.id, owner.token, { title: `a ${word} escaped` });
    // Act
    const found = await listed(`/projects/${project.id}/issues`, owner.token, { search: word });
    const mine = await listed('/issues', owner.token, { search: word });
    // Assert
    expect(found).toEqual([issue.id]);
    expect(mine).toEqual([issue.id]);
  });

  it('opening an issue shows in the author’s feeds (own, by user, the project’s) at once', async () => {
    // Arrange
    const owner = await createUser();
    const project = await createProject(owner.token);
    await lag.catchUp();
    const issue = await openIssue(project.id, owner.token);
    // Act
    const own = await api('/events', { token: owner.token });
    const ofUser = await api(`/users/${owner.id}/events`, { token: owner.token });
    const ofProject = await api(`/projects/${project.id}/events`, { token: owner.token });
    // Assert
    for (const feed of [own, ofUser, ofProject]) {
      expect(feed.status, JSON.stringify(feed.body)).toBe(200);
      expect(feed.body.map((e: { action_name: string; target_id: number }) => [e.action_name, e.target_id])).toContainEqual(['opened', issue.id]);
    }
  });

  it('a created pipeline and its jobs are listed at once (all, by status, by ref, by scope), and a runner is handed its job', async () => {
    // Arrange: a project with a CI configuration, and a runner that already polled and found nothing.
    const owner = await createUser();
    const project = await createProject(owner.token);
    await commit(project.id, owner.token, 'main', { '.gitlab-ci.yml': 'build:\n  script: echo hi\n' });
    const registration = (await api(`/projects/${project.id}`, { token: owner.token })).body.runners_token as string;
    const runner = await api('/runners', { body: { token: registration, description: 'lagging', info: { name: 'test-runner' } } });
    expect(runner.status, JSON.stringify(runner.body)).toBe(201);
    const poll = (lastUpdate?: string | null) =>
      api('/jobs/request', { body: { token: runner.body.token, info: { name: 'test-runner' }, ...(lastUpdate ? { last_update: lastUpdate } : {}) } });
    // Jobs of a pipeline the commit may have started are handed out first (the index catching up after each).
    await lag.catchUp();
    let idle = await poll();
    for (let tries = 0; idle.status !== 204 && tries < 5; tries++) {
      await lag.catchUp();
      idle = await poll();
    }
    expect(idle.status).toBe(204);
    await lag.catchUp();
    // Act
    const created = await api(`/projects/${project.id}/pipeline`, { token: owner.token, body: { ref: 'main' } });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const all = await listed(`/projects/${project.id}/pipelines`, owner.token);
    const byStatus = await listed(`/projects/${project.id}/pipelines`, owner.token, { status: created.body.status });
    const byRef = await listed(`/projects/${project.id}/pipelines`, owner.token, { ref: 'main' });
    const pipelineJobs = await listed(`/projects/${project.id}/pipelines/${created.body.id}/jobs`, owner.token);
    const jobs = await listed(`/projects/${project.id}/jobs`, owner.token);
    const pending = await api(`/projects/${project.id}/jobs`, { token: owner.token, query: { scope: 'pending' } });
    const handed = await poll(idle.headers.get('x-gitlab-last-update'));
    // Assert
    expect(all).toContain(created.body.id);
    expect(byStatus).toContain(created.body.id);
    expect(byRef).toContain(created.body.id);
    expect(pending.status).toBe(200);
    expect(pending.body.map((job: { pipeline: { id: number } }) => job.pipeline.id)).toContain(created.body.id);
    expect(pipelineJobs.length).toBe(1);
    expect(jobs).toContain(pipelineJobs[0]);
    expect(handed.status, JSON.stringify(handed.body)).toBe(201);
    expect(handed.body.id).toBe(pipelineJobs[0]);
  });
});
