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

describe('GET /projects/:id/merge_requests/:merge_request_iid/related_issues', () => {
  it('lists the issues its title, description, commits and comments reference, closing or not, each once, that the caller can read', async () => {
    // Arrange: issues named in each kind of text, one twice, one in a private project of another owner.
    const project = await ownedProject('public');
    const token = project.owner.token;
    await commit(project.id, token, 'main', { 'README.md': '# readme\n' });
    const [inTitle, inDescription, inCommit, inComment, never] = await Promise.all([1, 2, 3, 4, 5].map(() => openIssue(project.id, token)));
    const secret = await ownedProject('private');
    const hidden = await openIssue(secret.id, secret.owner.token);
    await commit(project.id, token, 'topic', { 't.txt': 't\n' }, { start: 'main', message: `Touch it\n\nSee #${inCommit.iid}` });
    const mr = await openMergeRequest(project.id, token, { source_branch: 'topic', title: `Fix #${inTitle.iid}`, description: `Closes #${inDescription.iid}, relates to #${inTitle.iid} and ${secret.fullPath}#${hidden.iid}` });
    expect((await api(`/projects/${project.id}/merge_requests/${mr.iid}/notes`, { token, body: { body: `Also #${inComment.iid}` } })).status).toBe(201);
    const url = `/projects/${project.id}/merge_requests/${mr.iid}/related_issues`;

    // Act
    const listed = await api(url, { token });
    const paged = await api(url, { token, query: { per_page: 2, page: 2 } });
    const byOther = await api(url, { token: secret.owner.token });

    // Assert
    expect(listed.status).toBe(200);
    expect(listed.body.map((issue: { id: number }) => issue.id)).toEqual([inTitle.id, inDescription.id, inCommit.id, inComment.id]);
    expect(listed.body.map((issue: { id: number }) => issue.id)).not.toContain(never.id);
    expect(listed.body[0].references.relative).toBe(`#${inTitle.iid}`);
    expect(listed.headers.get('x-total')).toBe('4');
    expect(paged.body.map((issue: { id: number }) => issue.id)).toEqual([inCommit.id, inComment.id]);
    // The owner of the private project reads its issue too, referenced from the merge request's project by its full path.
    const hiddenEntry = byOther.body.find((issue: { id: number }) => issue.id === hidden.id);
    expect(hiddenEntry.references.relative).toBe(`${secret.fullPath}#${hidden.iid}`);
    // Without a token on the public project: the issues anyone may read, here and in closes_issues (GitLab serves both anonymously).
    const anonymous = await api(url);
    expect(anonymous.status).toBe(200);
    expect(anonymous.body.map((issue: { id: number }) => issue.id)).toEqual([inTitle.id, inDescription.id, inCommit.id, inComment.id]);
    const closes = await api(`/projects/${project.id}/merge_requests/${mr.iid}/closes_issues`);
    expect(closes.status).toBe(200);
    expect(closes.body.map((issue: { id: number }) => issue.id)).toEqual(expect.arrayContaining([inTitle.id, inDescription.id]));
    expect(closes.body.map((issue: { id: number }) => issue.id)).not.toContain(hidden.id);
  });
});
