/**
 * A merge request's resource events over HTTP (GitLab's resource label, state and milestone
 * events of merge requests): recorded by its own writes (open, edit, close, reopen, merge) in
 * their transactions, as an issue's are, and served oldest first, paged and one by id.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { api } from '../support/api';
import { createUser, ownedProject, unique, type OwnedProject } from '../support/fixtures';
import { commit, mrs, openMergeRequest } from './helpers';

const events = (projectId: number, iid: number, kind: 'label' | 'state' | 'milestone', path = '') => mrs(projectId, `/${iid}/resource_${kind}_events${path}`);

describe('merge request resource events', () => {
  let project: OwnedProject;
  let token: string;

  beforeAll(async () => {
    project = await ownedProject('private');
    token = project.owner.token;
    await commit(project.id, token, 'main', { 'README.md': '# readme\n' });
  });

  it('records label and milestone events on open and edit, state events on close, reopen and merge (none on open)', async () => {
    // Arrange
    const milestone = (await api(`/projects/${project.id}/milestones`, { token, body: { title: unique('v') } })).body;
    await commit(project.id, token, 'topic', { 'topic.txt': 't\n' }, { start: 'main' });
    const mr = await openMergeRequest(project.id, token, { source_branch: 'topic', labels: 'bug,ui', milestone_id: milestone.id });
    const put = (body: Record<string, unknown>) => api(mrs(project.id, `/${mr.iid}`), { method: 'PUT', token, body });

    // Act
    expect((await put({ labels: 'ui,docs' })).status).toBe(200);
    expect((await put({ state_event: 'close' })).status).toBe(200);
    expect((await put({ state_event: 'reopen' })).status).toBe(200);
    expect((await put({ milestone_id: 0 })).status).toBe(200);
    expect((await api(mrs(project.id, `/${mr.iid}/merge`), { method: 'PUT', token })).status).toBe(200);

    // Assert
    const labels = await api(events(project.id, mr.iid, 'label'), { token });
    expect(labels.status).toBe(200);
    expect(labels.body.map((e: { action: string; label: { name: string } }) => `${e.action} ${e.label.name}`)).toEqual(['add bug', 'add ui', 'add docs', 'remove bug']);
    expect(labels.body[0]).toMatchObject({ resource_type: 'MergeRequest', resource_id: mr.id, user: { id: project.owner.id } });
    const states = await api(events(project.id, mr.iid, 'state'), { token });
    expect(states.body.map((e: { state: string }) => e.state)).toEqual(['closed', 'reopened', 'merged']);
    expect(states.body[2]).toMatchObject({ resource_type: 'MergeRequest', resource_id: mr.id, source_commit: null, source_merge_request_id: null });
    const milestones = await api(events(project.id, mr.iid, 'milestone'), { token });
    expect(milestones.body.map((e: { action: string; milestone: { id: number } }) => [e.action, e.milestone.id])).toEqual([
      ['add', milestone.id],
      ['remove', milestone.id],
    ]);
    expect(milestones.body[0]).toMatchObject({ state: 'opened', resource_type: 'MergeRequest' });

    // One by id, paged, and an issue's ids are not a merge request's.
    const merged = states.body[2];
    expect((await api(events(project.id, mr.iid, 'state', `/${merged.id}`), { token })).body).toEqual(merged);
    expect((await api(events(project.id, mr.iid, 'state', '/999999999'), { token })).status).toBe(404);
    const paged = await api(events(project.id, mr.iid, 'label'), { token, query: { per_page: 3, page: 2 } });
    expect(paged.body.map((e: { label: { name: string } }) => e.label.name)).toEqual(['bug']);
    expect(paged.headers.get('x-total')).toBe('4');
  });

  it('answers 401 without a token and 404 to a non-member of the private project', async () => {
    await commit(project.id, token, 'other', { 'other.txt': 'o\n' }, { start: 'main' });
    const mr = await openMergeRequest(project.id, token, { source_branch: 'other', labels: 'bug' });
    expect((await api(events(project.id, mr.iid, 'label'))).status).toBe(401);
    expect((await api(events(project.id, mr.iid, 'label'), { token: (await createUser()).token })).status).toBe(404);
  });
});
