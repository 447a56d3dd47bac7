import { beforeAll, describe, expect, it } from 'vitest';
import { api } from '../support/api';
import { createUser, openIssue, ownedProject, type OwnedProject } from '../support/fixtures';
import { commit, openMergeRequest } from './helpers';

const related = (projectId: number, iid: number) => `/projects/${projectId}/issues/${iid}/related_merge_requests`;

describe('GET /projects/:id/issues/:issue_iid/related_merge_requests', () => {
  let project: OwnedProject;
  let token: string;

  beforeAll(async () => {
    project = await ownedProject('private');
    token = project.owner.token;
    await commit(project.id, token, 'main', { 'README.md': '# readme\n' });
  });

  it('lists the merge requests that close the issue, in this project or another, to those who can read them', async () => {
    // Arrange
    const issue = await openIssue(project.id, token);
    const unrelated = await openIssue(project.id, token);
    const publicProject = await ownedProject('public');
    const foreign = await openIssue(publicProject.id, publicProject.owner.token);
    await commit(project.id, token, 'fix-a', { 'a.txt': 'a\n' }, { start: 'main' });
    const mr = await openMergeRequest(project.id, token, {
      source_branch: 'fix-a',
      title: 'Fix it',
      description: `Closes #${issue.iid} and ${publicProject.fullPath}#${foreign.iid}`,
    });
    const reader = await createUser();

    // Act
    const own = await api(related(project.id, issue.iid), { token });
    const none = await api(related(project.id, unrelated.iid), { token });
    const fromForeignByOwner = await api(related(publicProject.id, foreign.iid), { token });
    const fromForeignByReader = await api(related(publicProject.id, foreign.iid), { token: reader.token });

    // Assert
    expect(own.status).toBe(200);
    expect(own.body).toEqual([expect.objectContaining({ id: mr.id, iid: mr.iid, project_id: project.id, title: 'Fix it', state: 'opened' })]);
    expect(own.headers.get('x-total')).toBe('1');
    expect(none.body).toEqual([]);
    expect(fromForeignByOwner.body.map((m: { id: number }) => m.id)).toEqual([mr.id]);
    // The reader sees the public issue, not the private project's merge request.
    expect(fromForeignByReader.status).toBe(200);
    expect(fromForeignByReader.body).toEqual([]);
  });

  it('records a closed state event on the issue a merged merge request closes', async () => {
    // Arrange
    const issue = await openIssue(project.id, token);
    await commit(project.id, token, 'fix-b', { 'b.txt': 'b\n' }, { start: 'main' });
    const mr = await openMergeRequest(project.id, token, { source_branch: 'fix-b', title: 'Fix b', description: `Fixes #${issue.iid}` });

    // Act
    const merged = await api(`/projects/${project.id}/merge_requests/${mr.iid}/merge`, { method: 'PUT', token });

    // Assert
    expect(merged.status, JSON.stringify(merged.body)).toBe(200);
    const states = await api(`/projects/${project.id}/issues/${issue.iid}/resource_state_events`, { token });
    expect(states.body).toEqual([expect.objectContaining({ state: 'closed', resource_type: 'Issue', resource_id: issue.id })]);
    const listed = await api(related(project.id, issue.iid), { token });
    expect(listed.body).toEqual([expect.objectContaining({ id: mr.id, state: 'merged' })]);
    expect(states.body[0].source_merge_request_id).toBe(mr.id);
  });

  it('lists a merge request that only mentions the issue, until its description stops mentioning it or it is deleted', async () => {
    // Arrange
    const issue = await openIssue(project.id, token);
    const other = await openIssue(project.id, token);
    await commit(project.id, token, 'mention', { 'm.txt': 'm\n' }, { start: 'main' });
    const mr = await openMergeRequest(project.id, token, { source_branch: 'mention', title: 'Touches the parser', description: `See #${issue.iid}` });

    // Act
    const mentioned = await api(related(project.id, issue.iid), { token });
    const edited = await api(`/projects/${project.id}/merge_requests/${mr.iid}`, { method: 'PUT', token, body: { description: `Now about #${other.iid}` } });
    const afterEdit = await api(related(project.id, issue.iid), { token });
    const otherAfterEdit = await api(related(project.id, other.iid), { token });
    const deleted = await api(`/projects/${project.id}/merge_requests/${mr.iid}`, { method: 'DELETE', token });
    const otherAfterDelete = await api(related(project.id, other.iid), { token });

    // Assert
    expect(mentioned.body.map((m: { id: number }) => m.id)).toEqual([mr.id]);
    expect(edited.status).toBe(200);
    expect(afterEdit.body).toEqual([]);
    expect(otherAfterEdit.body.map((m: { id: number }) => m.id)).toEqual([mr.id]);
    expect(deleted.status).toBe(204);
    expect(otherAfterDelete.body).toEqual([]);
  });

  it('answers 404 for an issue the caller cannot read, or that does not exist', async () => {
    // Arrange
    const issue = await openIssue(project.id, token);
    const stranger = await createUser();

    // Act
    const hidden = await api(related(project.id, issue.iid), { token: stranger.token });
    const missing = await api(related(project.id, 999999), { token });

    // Assert
    expect(hidden.status).toBe(404);
    expect(missing.status).toBe(404);
    expect(missing.body).toEqual({ message: '404 Issue Not Found' });
  });
});
