/**
 * Group avatars over HTTP: `avatar` of `POST /groups` and `PUT /groups/:id` (multipart; `""`
 * removes it), GitLab's 400s (nothing written), `avatar_url` in the Group and Namespace entities
 * (a project's `namespace` too), `GET /groups/:id/avatar`, and the image at its `avatar_url`,
 * served as the group is visible, and gone with the group.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { api, baseUrl } from '../support/api';
import { addMember, createGroup, createProject, createUser, unique, type TestUser } from '../support/fixtures';
import { avatarForm, download, image } from '../support/avatars';

const setAvatar = (group: { id: number }, token: string, form: FormData) => api(`/groups/${group.id}`, { method: 'PUT', token, form });

/** Internal: `GET /groups/:id/avatar`. */
const avatarFile = async (group: { id: number | string }, token?: string) => {
  const response = await fetch(`${baseUrl()}/api/v4/groups/${group.id}/avatar`, { headers: token ? { 'PRIVATE-TOKEN': token } : {} });
  const data = Buffer.from(await response.arrayBuffer());
  return { status: response.status, type: response.headers.get('content-type'), data, json: () => JSON.parse(data.toString('utf8')) };
};

const FORMAT_ERROR = 'file format is not supported. Please try one of the following supported formats: png, jpg, jpeg, gif, bmp, tiff, ico, webp';

describe('group avatars (PUT /groups/:id, GET /groups/:id/avatar)', () => {
  let owner: TestUser;
  let stranger: TestUser;
  let group: { id: number; fullPath: string };
  beforeAll(async () => {
    owner = await createUser();
    stranger = await createUser();
    group = await createGroup(owner.token, { visibility: 'private' });
  });

  it('sets the avatar: avatar_url in the group and namespace entities, the file by API and at its URL, for members only', async () => {
    // Arrange
    const data = image();
    // Act
    const response = await setAvatar(group, owner.token, avatarForm('logo.png', data));
    // Assert
    expect(response.status, JSON.stringify(response.body)).toBe(200);
    const url = response.body.avatar_url;
    expect(url).toMatch(new RegExp(`^https?://.+/uploads/-/system/group/avatar/${group.id}/logo\\.png$`));
    expect((await api(`/groups/${group.id}`, { token: owner.token })).body.avatar_url).toBe(url);
    expect((await api(`/namespaces/${group.id}`, { token: owner.token })).body.avatar_url).toBe(url);
    const project = await createProject(owner.token, { namespace_id: group.id });
    expect((await api(`/projects/${project.id}`, { token: owner.token })).body.namespace.avatar_url).toBe(url);
    const byApi = await avatarFile(group, owner.token);
    expect(byApi.status).toBe(200);
    expect(byApi.type).toBe('image/png');
    expect(byApi.data).toEqual(data);
    const byUrl = await download(url, owner.token);
    expect(byUrl.status).toBe(200);
    expect(byUrl.type).toBe('image/png');
    expect(byUrl.data).toEqual(data);
    // A private group's avatar is hidden from strangers and anonymous callers.
    expect((await avatarFile(group, stranger.token)).status).toBe(404);
    expect((await avatarFile(group)).status).toBe(404);
    expect((await download(url, stranger.token)).status).toBe(404);
    expect((await download(url)).status).toBe(404);
  });

  it('replaces the avatar (the old URL is gone) and removes it with avatar=""', async () => {
    // Arrange
    const first = await setAvatar(group, owner.token, avatarForm('one.png', image()));
    // Act
    const second = await setAvatar(group, owner.token, avatarForm('two.gif', image(), { description: 'with a new avatar' }));
    // Assert
    expect(second.status).toBe(200);
    expect(second.body.description).toBe('with a new avatar');
    expect((await download(first.body.avatar_url, owner.token)).status).toBe(404);
    expect((await download(second.body.avatar_url, owner.token)).type).toBe('image/gif');

    // Act: remove it
    const removed = await api(`/groups/${group.id}`, { method: 'PUT', token: owner.token, body: { avatar: '' } });
    // Assert
    expect(removed.status).toBe(200);
    expect(removed.body.avatar_url).toBeNull();
    expect((await api(`/namespaces/${group.id}`, { token: owner.token })).body.avatar_url).toBeNull();
    expect((await download(second.body.avatar_url, owner.token)).status).toBe(404);
    const none = await avatarFile(group, owner.token);
    expect(none.status).toBe(404);
    expect(none.json()).toEqual({ message: '404 Avatar Not Found' });
  });

  it('answers GitLab’s 400s for a bad avatar and changes nothing, not even the other fields', async () => {
    // Arrange
    await setAvatar(group, owner.token, avatarForm('kept.png', image()));
    const before = (await api(`/groups/${group.id}`, { token: owner.token })).body;
    // Act
    const text = await setAvatar(group, owner.token, avatarForm('a.txt', image(), { description: 'changed' }));
    const big = await setAvatar(group, owner.token, avatarForm('a.png', image(200 * 1024 + 1), { description: 'changed' }));
    const notAFile = await api(`/groups/${group.id}`, { method: 'PUT', token: owner.token, body: { avatar: 'logo.png' } });
    // Assert
    expect(text.status).toBe(400);
    expect(text.body).toEqual({ message: { avatar: [FORMAT_ERROR] } });
    expect(big.status).toBe(400);
    expect(big.body).toEqual({ message: { avatar: ['is too big (should be at most 200 KiB)'] } });
    expect(notAFile.status).toBe(400);
    const after = (await api(`/groups/${group.id}`, { token: owner.token })).body;
    expect(after.description).toBe(before.description);
    expect(after.avatar_url).toBe(before.avatar_url);
    expect((await download(before.avatar_url, owner.token)).status).toBe(200);
  });

  it('lets only those who may administer the group set it (403 for a developer, 404 for a stranger)', async () => {
    // Arrange
    const developer = await createUser();
    await addMember('groups', group.id, developer.id, 30);
    const before = (await api(`/groups/${group.id}`, { token: owner.token })).body.avatar_url;
    // Act
    const asDeveloper = await setAvatar(group, developer.token, avatarForm('dev.png', image()));
    const asStranger = await setAvatar(group, stranger.token, avatarForm('dev.png', image()));
    // Assert
    expect(asDeveloper.status).toBe(403);
    expect(asStranger.status).toBe(404);
    expect((await api(`/groups/${group.id}`, { token: owner.token })).body.avatar_url).toBe(before);
    // A member may read it.
    expect((await avatarFile(group, developer.token)).status).toBe(200);
  });

  it('serves a public group’s avatar to anyone, by id and by full path', async () => {
    // Arrange
    const open = await createGroup(owner.token, { visibility: 'public' });
    const data = image();
    const set = await setAvatar(open, owner.token, avatarForm('pub.jpeg', data));
    // Act
    const byUrl = await download(set.body.avatar_url);
    const byApi = await avatarFile({ id: encodeURIComponent(open.fullPath) });
    // Assert
    expect(byUrl.status).toBe(200);
    expect(byUrl.type).toBe('image/jpeg');
    expect(byUrl.data).toEqual(data);
    expect(byApi.status).toBe(200);
    expect(byApi.data).toEqual(data);
    expect((await api(`/groups/${open.id}`)).body.avatar_url).toBe(set.body.avatar_url);
    expect((await api('/groups', { query: { search: open.fullPath } })).body.find((g: { id: number }) => g.id === open.id)?.avatar_url).toBe(set.body.avatar_url);
  });

  it('answers 404 at an avatar URL whose file name is not the group’s avatar', async () => {
    // Arrange
    const open = await createGroup(owner.token, { visibility: 'public' });
    const set = await setAvatar(open, owner.token, avatarForm('real.png', image()));
    // Act
    const wrongName = await download(set.body.avatar_url.replace(/real\.png$/, 'other.png'));
    // Assert
    expect(wrongName.status).toBe(404);
  });

  it('stops serving the avatar once the group is deleted', async () => {
    // Arrange
    const doomed = await createGroup(owner.token, { visibility: 'public' });
    const set = await setAvatar(doomed, owner.token, avatarForm('gone.png', image()));
    expect((await download(set.body.avatar_url)).status).toBe(200);
    // Act
    const deleted = await api(`/groups/${doomed.id}`, { method: 'DELETE', token: owner.token });
    // Assert
    expect(deleted.status).toBe(202);
    expect((await download(set.body.avatar_url)).status).toBe(404);
    expect((await download(set.body.avatar_url, owner.token)).status).toBe(404);
  });
});

describe('avatar of POST /groups', () => {
  it('creates a group with an avatar', async () => {
    // Arrange
    const owner = await createUser();
    const data = image();
    const path = unique('grp');
    // Act
    const response = await api('/groups', { token: owner.token, form: avatarForm('new.png', data, { name: path, path }) });
    // Assert
    expect(response.status, JSON.stringify(response.body)).toBe(201);
    expect(response.body.avatar_url).toMatch(new RegExp(`/uploads/-/system/group/avatar/${response.body.id}/new\\.png$`));
    expect((await avatarFile({ id: response.body.id }, owner.token)).data).toEqual(data);
  });

  it('refuses a bad avatar (400) and creates no group', async () => {
    // Arrange
    const owner = await createUser();
    const path = unique('grp');
    // Act
    const response = await api('/groups', { token: owner.token, form: avatarForm('new.exe', image(), { name: path, path }) });
    // Assert
    expect(response.status).toBe(400);
    expect(response.body).toEqual({ message: { avatar: [FORMAT_ERROR] } });
    expect((await api(`/groups/${path}`, { token: owner.token })).status).toBe(404);
  });
});
