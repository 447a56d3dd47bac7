/**
 * Project avatars over HTTP: `avatar` of `POST /projects` and `PUT /projects/:id` (multipart;
 * `""` removes it), GitLab's 400s (nothing written), `avatar_url` in the Project entity,
 * `GET /projects/:id/avatar`, and the image at its `avatar_url`, served as the project is visible.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { api, baseUrl } from '../support/api';
import { createUser, newMember, ownedProject, unique, type OwnedProject, type TestUser } from '../support/fixtures';
import { avatarForm, download, image } from '../support/avatars';

const setAvatar = (project: { id: number }, token: string, form: FormData) => api(`/projects/${project.id}`, { method: 'PUT', token, form });

/** Internal: `GET /projects/:id/avatar`. */
const avatarFile = async (project: { id: number }, token?: string) => {
  const response = await fetch(`${baseUrl()}/api/v4/projects/${project.id}/avatar`, { headers: token ? { 'PRIVATE-TOKEN': token } : {} });
  const data = Buffer.from(await response.arrayBuffer());
  return { status: response.status, type: response.headers.get('content-type'), data, json: () => JSON.parse(data.toString('utf8')) };
};

const FORMAT_ERROR = 'file format is not supported. Please try one of the following supported formats: png, jpg, jpeg, gif, bmp, tiff, ico, webp';

describe('project avatars (PUT /projects/:id, GET /projects/:id/avatar)', () => {
  let project: OwnedProject;
  let stranger: TestUser;
  beforeAll(async () => {
    project = await ownedProject('private');
    stranger = await createUser();
  });

  it('sets the avatar: avatar_url, the file by API and at its URL, for members only', async () => {
    // Arrange
    const data = image();
    // Act
    const response = await setAvatar(project, project.owner.token, avatarForm('logo.png', data));
    // Assert
    expect(response.status, JSON.stringify(response.body)).toBe(200);
    expect(response.body.avatar_url).toMatch(new RegExp(`/uploads/-/system/project/avatar/${project.id}/logo\\.png$`));
    expect((await api(`/projects/${project.id}`, { token: project.owner.token })).body.avatar_url).toBe(response.body.avatar_url);
    const byApi = await avatarFile(project, project.owner.token);
    expect(byApi.status).toBe(200);
    expect(byApi.type).toBe('image/png');
    expect(byApi.data).toEqual(data);
    const byUrl = await download(response.body.avatar_url, project.owner.token);
    expect(byUrl.status).toBe(200);
    expect(byUrl.data).toEqual(data);
    // A private project's avatar is hidden from strangers and anonymous callers.
    expect((await avatarFile(project, stranger.token)).status).toBe(404);
    expect((await avatarFile(project)).status).toBe(404);
    expect((await download(response.body.avatar_url, stranger.token)).status).toBe(404);
    expect((await download(response.body.avatar_url)).status).toBe(404);
  });

  it('replaces the avatar (the old URL is gone) and removes it with avatar=""', async () => {
    // Arrange
    const first = await setAvatar(project, project.owner.token, avatarForm('one.png', image()));
    // Act
    const second = await setAvatar(project, project.owner.token, avatarForm('two.gif', image()));
    // Assert
    expect(second.status).toBe(200);
    expect((await download(first.body.avatar_url, project.owner.token)).status).toBe(404);
    expect((await download(second.body.avatar_url, project.owner.token)).type).toBe('image/gif');

    // Act: remove it
    const removed = await api(`/projects/${project.id}`, { method: 'PUT', token: project.owner.token, body: { avatar: '' } });
    // Assert
    expect(removed.status).toBe(200);
    expect(removed.body.avatar_url).toBeNull();
    expect((await download(second.body.avatar_url, project.owner.token)).status).toBe(404);
    const none = await avatarFile(project, project.owner.token);
    expect(none.status).toBe(404);
    expect(none.json()).toEqual({ message: '404 Avatar Not Found' });
  });

  it('answers GitLab’s 400s for a bad avatar and changes nothing, not even the other fields', async () => {
    // Arrange
    const before = (await api(`/projects/${project.id}`, { token: project.owner.token })).body;
    // Act
    const text = await setAvatar(project, project.owner.token, avatarForm('a.txt', image(), { description: 'changed' }));
    const big = await setAvatar(project, project.owner.token, avatarForm('a.png', image(200 * 1024 + 1), { description: 'changed' }));
    // Assert
    expect(text.status).toBe(400);
    expect(text.body).toEqual({ message: { avatar: [FORMAT_ERROR] } });
    expect(big.status).toBe(400);
    expect(big.body).toEqual({ message: { avatar: ['is too big (should be at most 200 KiB)'] } });
    const after = (await api(`/projects/${project.id}`, { token: project.owner.token })).body;
    expect(after.description).toBe(before.description);
    expect(after.avatar_url).toBe(before.avatar_url);
  });

  it('lets only those who may administer the project set it (403 for a developer)', async () => {
    // Arrange
    const developer = await newMember(project, 30);
    // Act
    const response = await setAvatar(project, developer.token, avatarForm('dev.png', image()));
    // Assert
    expect(response.status).toBe(403);
  });

  it('serves a public project’s avatar to anyone', async () => {
    // Arrange
    const open = await ownedProject('public');
    const data = image();
    const set = await setAvatar(open, open.owner.token, avatarForm('pub.jpeg', data));
    // Act
    const byUrl = await download(set.body.avatar_url);
    const byApi = await avatarFile(open);
    // Assert
    expect(byUrl.status).toBe(200);
    expect(byUrl.type).toBe('image/jpeg');
    expect(byUrl.data).toEqual(data);
    expect(byApi.status).toBe(200);
    expect((await api(`/projects/${open.id}`)).body.avatar_url).toBe(set.body.avatar_url);
  });
});

describe('avatar of POST /projects', () => {
  it('creates a project with an avatar', async () => {
    // Arrange
    const owner = await createUser();
    const data = image();
    // Act
    const response = await api('/projects', { token: owner.token, form: avatarForm('new.png', data, { name: unique('Avatar ') }) });
    // Assert
    expect(response.status, JSON.stringify(response.body)).toBe(201);
    expect(response.body.avatar_url).toMatch(new RegExp(`/uploads/-/system/project/avatar/${response.body.id}/new\\.png$`));
    expect((await avatarFile({ id: response.body.id }, owner.token)).data).toEqual(data);
  });

  it('refuses a bad avatar (400) and creates no project', async () => {
    // Arrange
    const owner = await createUser();
    const name = unique('Avatar ');
    // Act
    const response = await api('/projects', { token: owner.token, form: avatarForm('new.exe', image(), { name }) });
    // Assert
    expect(response.status).toBe(400);
    expect(response.body).toEqual({ message: { avatar: [FORMAT_ERROR] } });
    expect((await api(`/users/${owner.id}/projects`, { token: owner.token })).body).toEqual([]);
  });
});
