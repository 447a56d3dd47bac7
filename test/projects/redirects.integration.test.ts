/**
 * Former paths (GitLab's redirect routes, `find_project` with `follow_redirects: true`): after a
 * project rename or transfer, a group rename or transfer, the API and git over HTTP still find a
 * project by the path it had, until a new project takes that path; a private project stays 404
 * to those who cannot read it, by its old path too.
 */
import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import { db, tableName } from '../../shared/platform/dynamo/client';
import { getItem } from '../../shared/platform/dynamo/query';
import { redirectRouteKeys } from '../../shared/namespaces/store/keys';
import { api, isLocalRuntime } from '../support/api';
import { createGroup, createProject, createUser, unique } from '../support/fixtures';
import { cloneUrl, gitOk, pushNewRepository, scratch } from '../support/git';

const byPath = (fullPath: string, token: string) => api(`/projects/${encodeURIComponent(fullPath)}`, { token });

describe('a project found by a former path', () => {
  it('after a rename: the old path answers the project at its new path, 404 to a stranger', async () => {
    // Arrange
    const [owner, stranger] = await Promise.all([createUser(), createUser()]);
    const project = await createProject(owner.token, { visibility: 'private' });
    const newPath = unique('renamed');

    // Act
    const renamed = await api(`/projects/${project.id}`, { method: 'PUT', token: owner.token, body: { path: newPath } });
    const byOldPath = await byPath(project.fullPath, owner.token);
    const byOldPathUpperCase = await byPath(project.fullPath.toUpperCase(), owner.token);
    const hidden = await byPath(project.fullPath, stranger.token);
    const issues = await api(`/projects/${encodeURIComponent(project.fullPath)}/issues`, { token: owner.token });

    // Assert
    expect(renamed.status, JSON.stringify(renamed.body)).toBe(200);
    expect(byOldPath.status).toBe(200);
    expect(byOldPath.body).toMatchObject({ id: project.id, path: newPath, path_with_namespace: `${owner.username}/${newPath}` });
    expect(byOldPathUpperCase.body).toMatchObject({ id: project.id });
    expect(hidden.status).toBe(404);
    expect(hidden.body).toEqual({ message: '404 Project Not Found' });
    expect(issues.status).toBe(200);
  });

  it('after a transfer of the project to a group', async () => {
    // Arrange
    const owner = await createUser();
    const [project, group] = await Promise.all([createProject(owner.token), createGroup(owner.token)]);

    // Act
    const transferred = await api(`/projects/${project.id}/transfer`, { method: 'PUT', token: owner.token, body: { namespace: group.id } });
    const byOldPath = await byPath(project.fullPath, owner.token);

    // Assert
    expect(transferred.status, JSON.stringify(transferred.body)).toBe(200);
    expect(byOldPath.status).toBe(200);
    expect(byOldPath.body).toMatchObject({ id: project.id, path_with_namespace: `${group.fullPath}/${project.path}` });
  });

  it('after its group is renamed, or transferred, with a subgroup between: old-group/sub/project', async () => {
    // Arrange
    const owner = await createUser();
    const [group, target] = await Promise.all([createGroup(owner.token), createGroup(owner.token)]);
    const sub = await createGroup(owner.token, { parent_id: group.id });
    const project = await createProject(owner.token, { namespace_id: sub.id });
    const renamedPath = unique('moved');

    // Act: rename the top group
    const renamed = await api(`/groups/${group.id}`, { method: 'PUT', token: owner.token, body: { path: renamedPath } });
    const afterRename = await byPath(project.fullPath, owner.token);

    // Assert
    expect(renamed.status, JSON.stringify(renamed.body)).toBe(200);
    expect(afterRename.status).toBe(200);
    expect(afterRename.body).toMatchObject({ id: project.id, path_with_namespace: `${renamedPath}/${sub.fullPath.split('/')[1]}/${project.path}` });

    // Act: transfer the renamed group under another; both former paths lead to the project
    const transferred = await api(`/groups/${group.id}/transfer`, { token: owner.token, body: { group_id: target.id } });
    const firstPath = await byPath(project.fullPath, owner.token);
    const secondPath = await byPath(afterRename.body.path_with_namespace, owner.token);

    // Assert
    expect(transferred.status, JSON.stringify(transferred.body)).toBe(201);
    const now = `${target.fullPath}/${renamedPath}/${sub.fullPath.split('/')[1]}/${project.path}`;
    expect(secondPath.status).toBe(200);
    expect(secondPath.body).toMatchObject({ id: project.id, path_with_namespace: now });
    expect(firstPath.status).toBe(200);
    expect(firstPath.body).toMatchObject({ id: project.id, path_with_namespace: now });
  });

  it('until a new project takes the old path: it then answers the new project', async () => {
    // Arrange
    const owner = await createUser();
    const project = await createProject(owner.token);
    const renamed = await api(`/projects/${project.id}`, { method: 'PUT', token: owner.token, body: { path: unique('away') } });
    expect(renamed.status).toBe(200);

    // Act
    const taking = await createProject(owner.token, { name: project.path, path: project.path });
    const byOldPath = await byPath(project.fullPath, owner.token);

    // Assert
    expect(taking.fullPath).toBe(project.fullPath);
    expect(byOldPath.status).toBe(200);
    expect(byOldPath.body).toMatchObject({ id: taking.id, path_with_namespace: project.fullPath });
  });

  it('answers 404 for a former path whose project was deleted', async () => {
    // Arrange
    const owner = await createUser();
    const project = await createProject(owner.token);
    await api(`/projects/${project.id}`, { method: 'PUT', token: owner.token, body: { path: unique('gone') } });

    // Act
    const deleted = await api(`/projects/${project.id}`, { method: 'DELETE', token: owner.token });
    const byOldPath = await byPath(project.fullPath, owner.token);

    // Assert
    expect(deleted.status).toBe(202);
    expect(byOldPath.status).toBe(404);
  });

  it('git clones and pushes by the old path', async () => {
    // Arrange
    const owner = await createUser();
    const project = await createProject(owner.token);
    await pushNewRepository(project.fullPath, owner.token, { 'README.md': '# moved\n' });
    const newPath = unique('cloned');
    expect((await api(`/projects/${project.id}`, { method: 'PUT', token: owner.token, body: { path: newPath } })).status).toBe(200);

    // Act
    const target = scratch('clone-');
    await gitOk(['clone', '-q', cloneUrl(project.fullPath, owner.token), target]);

    // Assert
    expect(await gitOk(['log', '--format=%s', '-1'], { cwd: target })).toContain('initial commit');
    const tree = await api(`/projects/${project.id}/repository/tree`, { token: owner.token });
    expect(tree.body.map((entry: { name: string }) => entry.name)).toContain('README.md');
  });

  it.runIf(isLocalRuntime())('kept in the first key format (one partition per path) is still followed, and dropped when the path is taken', async () => {
    // Arrange: a redirect as the first version of redirects wrote it, from a path to a project
    const owner = await createUser();
    const project = await createProject(owner.token);
    const oldPath = `${project.fullPath.split('/')[0]}/${unique('legacy')}`;
    await db().send(new PutCommand({
      TableName: tableName(),
      Item: { ...redirectRouteKeys.legacyRedirectRoute(oldPath), type: 'RedirectRoute', path: oldPath, kind: 'project', targetId: project.id },
    }));

    // Act
    const followed = await byPath(oldPath, owner.token);
    const taken = await createProject(owner.token, { path: oldPath.split('/')[1], name: oldPath.split('/')[1] });
    const afterTaken = await byPath(oldPath, owner.token);

    // Assert
    expect(followed.status).toBe(200);
    expect(followed.body.id).toBe(project.id);
    expect(afterTaken.body.id).toBe(taken.id);
    expect(await getItem(redirectRouteKeys.legacyRedirectRoute(oldPath))).toBeUndefined();
  });
});
