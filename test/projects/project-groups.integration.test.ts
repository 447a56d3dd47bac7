/**
 * `GET /projects/:id/groups` (GitLab's `Projects::GroupsFinder`): the project's group and its
 * ancestors, and with `with_shared` the groups it is shared with; filtered and paged.
 */
import { describe, expect, it } from 'vitest';
import { api } from '../support/api';
import { createGroup, createProject, createUser } from '../support/fixtures';

const REPORTER = 20;
const DEVELOPER = 30;
const ids = (body: Array<{ id: number }>) => body.map((g) => g.id);

describe('GET /projects/:id/groups', () => {
  it('lists the ancestors, newest first, and the shared groups with with_shared, filtered by level, search and skip_groups', async () => {
    // Arrange
    const owner = await createUser();
    const top = await createGroup(owner.token, { name: 'Top level' });
    const sub = await createGroup(owner.token, { parent_id: top.id, name: 'Sub level' });
    const project = await createProject(owner.token, { namespace_id: sub.id });
    const reporterShare = await createGroup(owner.token, { name: 'Readers' });
    const developerShare = await createGroup(owner.token, { name: 'Builders' });
    await api(`/projects/${project.id}/share`, { token: owner.token, body: { group_id: reporterShare.id, group_access: REPORTER } });
    await api(`/projects/${project.id}/share`, { token: owner.token, body: { group_id: developerShare.id, group_access: DEVELOPER } });
    const path = `/projects/${project.id}/groups`;
    // Act
    const plain = await api(path, { token: owner.token });
    const shared = await api(path, { token: owner.token, query: { with_shared: true } });
    const atLeastDeveloper = await api(path, { token: owner.token, query: { with_shared: true, shared_min_access_level: DEVELOPER } });
    const searched = await api(path, { token: owner.token, query: { with_shared: true, search: 'level' } });
    const skipped = await api(path, { token: owner.token, query: { skip_groups: top.id } });
    // Assert
    expect(plain.status).toBe(200);
    expect(plain.body).toEqual([
      { id: sub.id, web_url: expect.stringMatching(new RegExp(`/groups/${sub.fullPath}$`)), name: 'Sub level', avatar_url: null, full_name: 'Top level / Sub level', full_path: sub.fullPath },
      expect.objectContaining({ id: top.id, full_name: 'Top level' }),
    ]);
    expect(plain.headers.get('x-total')).toBe('2');
    expect(ids(shared.body)).toEqual([developerShare.id, reporterShare.id, sub.id, top.id]);
    expect(ids(atLeastDeveloper.body)).toEqual([developerShare.id, sub.id, top.id]);
    expect(ids(searched.body)).toEqual([sub.id, top.id]);
    expect(ids(skipped.body)).toEqual([sub.id]);
  });

  it('is empty for a personal project, 404 for a private project of someone else, 400 for a bad level', async () => {
    // Arrange
    const owner = await createUser();
    const project = await createProject(owner.token, { visibility: 'private' });
    const stranger = await createUser();
    // Act / Assert
    expect((await api(`/projects/${project.id}/groups`, { token: owner.token })).body).toEqual([]);
    expect((await api(`/projects/${project.id}/groups`, { token: stranger.token })).status).toBe(404);
    expect((await api(`/projects/${project.id}/groups`, { token: owner.token, query: { shared_min_access_level: 35 } })).status).toBe(400);
  });
});
