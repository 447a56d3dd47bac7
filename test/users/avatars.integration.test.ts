/**
 * User avatars over HTTP: `PUT /user/avatar`, `avatar` of `POST /users` and `PUT /users/:id`
 * (multipart; `""` removes it), GitLab's 400s for what is no acceptable image (nothing written),
 * `avatar_url` in the user entities, and the image served publicly at that URL.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { api, baseUrl, rootToken } from '../support/api';
import { createUser, unique, type TestUser } from '../support/fixtures';
import { avatarForm as multipartAvatar, download, image } from '../support/avatars';

/** Internal: the avatar sent as `application/octet-stream`: the client's media type is not what is checked. */
const avatarForm = (filename: string, data: Buffer, fields: Record<string, string> = {}) => multipartAvatar(filename, data, fields, 'application/octet-stream');

const FORMAT_ERROR = 'file format is not supported. Please try one of the following supported formats: png, jpg, jpeg, gif, bmp, tiff, ico, webp';

describe('PUT /user/avatar', () => {
  let user: TestUser;
  beforeAll(async () => {
    user = await createUser();
  });

  it('sets the caller’s avatar, shows it in avatar_url and serves it publicly', async () => {
    // Arrange
    const data = image();
    // Act
    const response = await api('/user/avatar', { method: 'PUT', token: user.token, form: avatarForm('my face.png', data) });
    // Assert
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ avatar_url: expect.stringMatching(new RegExp(`/uploads/-/system/user/avatar/${user.id}/my_face\\.png$`)) });
    const shown = await api(`/users/${user.id}`);
    expect(shown.body.avatar_url).toBe(response.body.avatar_url);
    const me = await api('/user', { token: user.token });
    expect(me.body.avatar_url).toBe(response.body.avatar_url);
    const served = await download(response.body.avatar_url);
    expect(served.status).toBe(200);
    expect(served.type).toBe('image/png');
    expect(served.data).toEqual(data);
  });

  it('replaces the avatar: the old URL is gone, the new one serves the new image', async () => {
    // Arrange
    const first = await api('/user/avatar', { method: 'PUT', token: user.token, form: avatarForm('old.gif', image()) });
    const data = image(32);
    // Act
    const second = await api('/user/avatar', { method: 'PUT', token: user.token, form: avatarForm('new.jpg', data) });
    // Assert
    expect(second.status).toBe(200);
    expect((await download(first.body.avatar_url)).status).toBe(404);
    const served = await download(second.body.avatar_url);
    expect(served.type).toBe('image/jpeg');
    expect(served.data).toEqual(data);
  });

  it('answers GitLab’s 400s for a file that is no image or too big, changing nothing', async () => {
    // Arrange
    const before = (await api(`/users/${user.id}`)).body.avatar_url;
    // Act
    const text = await api('/user/avatar', { method: 'PUT', token: user.token, form: avatarForm('notes.txt', Buffer.from('hello')) });
    const big = await api('/user/avatar', { method: 'PUT', token: user.token, form: avatarForm('big.png', image(200 * 1024)) });
    const missing = await api('/user/avatar', { method: 'PUT', token: user.token, form: new FormData() });
    // Assert
    expect(text.status).toBe(400);
    expect(text.body).toEqual({ message: { avatar: [FORMAT_ERROR] } });
    expect(big.status).toBe(400);
    expect(big.body).toEqual({ message: { avatar: ['is too big (should be at most 200 KiB)'] } });
    expect(missing.status).toBe(400);
    expect(missing.body).toEqual({ error: 'avatar is missing' });
    expect((await api(`/users/${user.id}`)).body.avatar_url).toBe(before);
  });

  it('requires a token (401)', async () => {
    const response = await api('/user/avatar', { method: 'PUT', form: avatarForm('a.png', image()) });
    expect(response.status).toBe(401);
  });
});

describe('avatar of POST /users and PUT /users/:id', () => {
  it('creates a user with an avatar, and removes it with avatar=""', async () => {
    // Arrange
    const username = unique('ava');
    const data = image();
    // Act
    const created = await api('/users', {
      token: rootToken(),
      form: avatarForm('face.webp', data, { username, email: `${username}@example.com`, name: 'Ava', password: 'secret-password' }),
    });
    // Assert
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    expect(created.body.avatar_url).toMatch(new RegExp(`/uploads/-/system/user/avatar/${created.body.id}/face\\.webp$`));
    expect((await download(created.body.avatar_url)).data).toEqual(data);

    // The personal namespace shows its owner's avatar (GitLab's Namespace entity)
    expect((await api(`/namespaces/${username}`, { token: rootToken() })).body.avatar_url).toBe(created.body.avatar_url);

    // Act: remove it
    const removed = await api(`/users/${created.body.id}`, { method: 'PUT', token: rootToken(), body: { avatar: '' } });
    // Assert
    expect(removed.status).toBe(200);
    expect(removed.body.avatar_url).toBeNull();
    expect((await download(created.body.avatar_url)).status).toBe(404);
    expect((await api(`/namespaces/${username}`, { token: rootToken() })).body.avatar_url).toBeNull();
  });

  it('sets an avatar with PUT /users/:id as an admin; a bad one writes nothing, not even the other fields', async () => {
    // Arrange
    const user = await createUser();
    // Act
    const bad = await api(`/users/${user.id}`, { method: 'PUT', token: rootToken(), form: avatarForm('x.svg', image(), { bio: 'changed' }) });
    const good = await api(`/users/${user.id}`, { method: 'PUT', token: rootToken(), form: avatarForm('x.ico', image(), { bio: 'set' }) });
    // Assert
    expect(bad.status).toBe(400);
    expect(bad.body).toEqual({ message: { avatar: [FORMAT_ERROR] } });
    expect(good.status).toBe(200);
    expect(good.body.bio).toBe('set');
    expect(good.body.avatar_url).toMatch(/\/x\.ico$/);
    expect((await download(good.body.avatar_url)).type).toBe('image/vnd.microsoft.icon');
  });

  it('refuses a POST /users with a bad avatar (400) and creates no user', async () => {
    // Arrange
    const username = unique('ava');
    // Act
    const response = await api('/users', {
      token: rootToken(),
      form: avatarForm('face.html', image(), { username, email: `${username}@example.com`, name: 'Ava', password: 'secret-password' }),
    });
    // Assert
    expect(response.status).toBe(400);
    expect(response.body).toEqual({ message: { avatar: [FORMAT_ERROR] } });
    expect((await api('/users', { token: rootToken(), query: { username } })).body).toEqual([]);
  });

  it('lets only admins set another user’s avatar (403)', async () => {
    // Arrange
    const [user, other] = [await createUser(), await createUser()];
    // Act
    const response = await api(`/users/${other.id}`, { method: 'PUT', token: user.token, form: avatarForm('a.png', image()) });
    // Assert
    expect(response.status).toBe(403);
    expect((await api(`/users/${other.id}`)).body.avatar_url).toBeNull();
  });

  it('serves no avatar for a user without one, or under another file name (404)', async () => {
    // Arrange
    const user = await createUser();
    const set = await api('/user/avatar', { method: 'PUT', token: user.token, form: avatarForm('me.png', image()) });
    const url = new URL(set.body.avatar_url);
    // Act
    const wrongName = await fetch(new URL(url.pathname.replace('me.png', 'other.png'), `${baseUrl()}/`));
    const nobody = await fetch(new URL('/uploads/-/system/user/avatar/999999999/me.png', `${baseUrl()}/`));
    // Assert
    expect(wrongName.status).toBe(404);
    expect(nobody.status).toBe(404);
  });
});
