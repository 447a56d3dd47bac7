/**
 * A username change moves the user's namespace (GitLab's `Routable`: a redirect route for the
 * old path): the API still finds the user's projects by their old full paths, a private one
 * staying 404 to whoever cannot read it; a change refused (a taken username) writes nothing.
 * A new user taking the old username takes the path: the redirect there and every redirect
 * beneath it are dropped (GitLab's `RedirectRoute.matching_path_and_descendants`).
 */
import { describe, expect, it } from 'vitest';
import { api, rootToken } from '../support/api';
import { createProject, createUser, unique } from '../support/fixtures';

const byPath = (fullPath: string, token: string) => api(`/projects/${encodeURIComponent(fullPath)}`, { token });
const renameUser = (id: number, username: string) => api(`/users/${id}`, { method: 'PUT', token: rootToken(), body: { username } });

describe('a username change', () => {
  it('keeps the old paths of the user’s projects: the project at its new path, 404 to a stranger', async () => {
    // Arrange
    const [owner, stranger] = await Promise.all([createUser(), createUser()]);
    const project = await createProject(owner.token, { visibility: 'private' });
    const newUsername = unique('renamed');

    // Act
    const renamed = await renameUser(owner.id, newUsername);
    const byOldPath = await byPath(project.fullPath, owner.token);
    const byOldPathUpperCase = await byPath(project.fullPath.toUpperCase(), owner.token);
    const byNewPath = await byPath(`${newUsername}/${project.path}`, owner.token);
    const hidden = await byPath(project.fullPath, stranger.token);

    // Assert
    expect(renamed.status, JSON.stringify(renamed.body)).toBe(200);
    expect(renamed.body).toMatchObject({ username: newUsername });
    expect(byOldPath.status).toBe(200);
    expect(byOldPath.body).toMatchObject({ id: project.id, path_with_namespace: `${newUsername}/${project.path}` });
    expect(byOldPathUpperCase.body).toMatchObject({ id: project.id });
    expect(byNewPath.body).toMatchObject({ id: project.id });
    expect(hidden.status).toBe(404);
    expect(hidden.body).toEqual({ message: '404 Project Not Found' });
  });

  it('a refused change (the username is taken) writes no redirect and moves nothing', async () => {
    // Arrange
    const [owner, other] = await Promise.all([createUser(), createUser()]);
    const project = await createProject(owner.token);

    // Act
    const refused = await renameUser(owner.id, other.username);
    const byPathNow = await byPath(project.fullPath, owner.token);
    const underOther = await byPath(`${other.username}/${project.path}`, owner.token);

    // Assert
    // The contract's answer to a taken username on modification.
    expect(refused).toMatchObject({ status: 404, body: { message: '404 Username has already been taken' } });
    expect(byPathNow.body).toMatchObject({ id: project.id, path_with_namespace: project.fullPath });
    expect(underOther.status).toBe(404);
  });

  it('a new user taking the old username drops the redirects at it and beneath it', async () => {
    // Arrange: olduser/p renamed to olduser/q (a redirect beneath olduser), then olduser renamed
    const owner = await createUser();
    const project = await createProject(owner.token, { visibility: 'public' });
    const movedPath = unique('q');
    expect((await api(`/projects/${project.id}`, { method: 'PUT', token: owner.token, body: { path: movedPath } })).status).toBe(200);
    const newUsername = unique('moved');
    expect((await renameUser(owner.id, newUsername)).status).toBe(200);
    expect((await byPath(project.fullPath, owner.token)).body).toMatchObject({ id: project.id });
    expect((await byPath(`${owner.username}/${movedPath}`, owner.token)).body).toMatchObject({ id: project.id });

    // Act: someone else takes the old username
    const taker = await createUser({ username: owner.username, email: `${unique('taker')}@example.com` });
    const formerProjectPath = await byPath(project.fullPath, taker.token);
    const formerNamespacePath = await byPath(`${owner.username}/${movedPath}`, taker.token);
    const takersOwn = await createProject(taker.token, { name: project.path, path: project.path });

    // Assert
    expect(formerProjectPath.status).toBe(404);
    expect(formerNamespacePath.status).toBe(404);
    expect(takersOwn.fullPath).toBe(project.fullPath);
    expect((await byPath(project.fullPath, taker.token)).body).toMatchObject({ id: takersOwn.id });
    // The moved project is still found at its current path.
    expect((await byPath(`${newUsername}/${movedPath}`, owner.token)).body).toMatchObject({ id: project.id });
  });
});
