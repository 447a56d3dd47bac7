/**
 * GitLab's `not_allowed!` on the merge endpoints: every 405 answers exactly
 * `{"message":"405 Method Not Allowed"}` — a merge refused by a project's required checks
 * (unresolved discussions), cancelling the automatic merge of a merged merge request — and
 * changes nothing.
 */
import { describe, expect, it } from 'vitest';
import { api } from '../support/api';
import { ownedProject } from '../support/fixtures';
import { commit, mrs, openMergeRequest } from './helpers';

const NOT_ALLOWED = { message: '405 Method Not Allowed' };

async function mergeRequestIn(settings: Record<string, boolean>) {
  const project = await ownedProject('private');
  if (Object.keys(settings).length > 0) expect((await api(`/projects/${project.id}`, { method: 'PUT', token: project.owner.token, body: settings })).status).toBe(200);
  await commit(project.id, project.owner.token, 'main', { 'README.md': '# base\n' });
  await commit(project.id, project.owner.token, 'topic', { 'topic.txt': 'topic\n' }, { start: 'main' });
  const mr = await openMergeRequest(project.id, project.owner.token, { source_branch: 'topic' });
  return { project, mr };
}

describe('405 Method Not Allowed bodies', () => {
  it('PUT …/merge refused by an unresolved discussion: GitLab’s body, the merge request unchanged', async () => {
    // Arrange
    const { project, mr } = await mergeRequestIn({ only_allow_merge_if_all_discussions_are_resolved: true });
    const discussion = await api(mrs(project.id, `/${mr.iid}/discussions`), { token: project.owner.token, body: { body: 'Wait' } });
    expect(discussion.status).toBe(201);

    // Act
    const refused = await api(mrs(project.id, `/${mr.iid}/merge`), { method: 'PUT', token: project.owner.token });
    const after = await api(mrs(project.id, `/${mr.iid}`), { token: project.owner.token });

    // Assert
    expect(refused.status).toBe(405);
    expect(refused.body).toEqual(NOT_ALLOWED);
    expect(after.body).toMatchObject({ state: 'opened', merge_commit_sha: null, merged_by: null });
  });

  it('cancelling the automatic merge of a merged merge request: GitLab’s body, still merged', async () => {
    // Arrange
    const { project, mr } = await mergeRequestIn({});
    const merged = await api(mrs(project.id, `/${mr.iid}/merge`), { method: 'PUT', token: project.owner.token });
    expect(merged.status, JSON.stringify(merged.body)).toBe(200);

    // Act
    const refused = await api(mrs(project.id, `/${mr.iid}/cancel_merge_when_pipeline_succeeds`), { method: 'POST', token: project.owner.token });
    const after = await api(mrs(project.id, `/${mr.iid}`), { token: project.owner.token });

    // Assert
    expect(refused.status).toBe(405);
    expect(refused.body).toEqual(NOT_ALLOWED);
    expect(after.body).toMatchObject({ state: 'merged', merge_commit_sha: merged.body.merge_commit_sha });
  });
});
