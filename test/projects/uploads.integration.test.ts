/**
 * Project uploads: `POST /projects/:id/uploads` and the web route serving them back,
 * `GET /:namespace/:project/uploads/:secret/:filename`.
 */
import { randomBytes } from 'node:crypto';
import { crc32, deflateSync } from 'node:zlib';
import { beforeAll, describe, expect, it } from 'vitest';
import { api, baseUrl, rootToken } from '../support/api';
import { addMember, createGroup, createProject, createUser, type TestProject, type TestUser } from '../support/fixtures';

interface UploadResult {
  alt: string;
  url: string;
  full_path: string;
  markdown: string;
}

/** Internal: a real PNG of `size`×`size` random RGB pixels (binary bytes of every value). */
function png(size = 8): Buffer {
  const chunk = (type: string, data: Buffer) => {
    const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
    const length = Buffer.alloc(4);
    length.writeUInt32BE(data.length);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(crc32(body));
    return Buffer.concat([length, body, crc]);
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(size, 0);
  header.writeUInt32BE(size, 4);
  header.set([8, 2, 0, 0, 0], 8); // 8-bit RGB, no interlace
  const rows = Buffer.concat(Array.from({ length: size }, () => Buffer.concat([Buffer.from([0]), randomBytes(size * 3)])));
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(rows)),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

function form(name: string, data: Buffer | string, type: string): FormData {
  const body = new FormData();
  body.append('file', new Blob([data], { type }), name);
  return body;
}

const upload = (project: { id: number }, token: string | undefined, body: FormData) =>
  api<UploadResult>(`/projects/${project.id}/uploads`, { token, form: body });

/** Internal: the file at an upload's `full_path` (absolute on the host, like GitLab's). */
const download = (fullPath: string, token?: string) =>
  fetch(new URL(fullPath, `${baseUrl()}/`), { headers: token ? { 'PRIVATE-TOKEN': token } : {}, redirect: 'manual' });

describe('POST /projects/:id/uploads', () => {
  let owner: TestUser;
  let project: TestProject;

  beforeAll(async () => {
    owner = await createUser();
    project = await createProject(owner.token);
  });

  it('stores an image and answers its alt, url, full_path and image Markdown', async () => {
    // Prepare
    const bytes = png();

    // Act
    const response = await upload(project, owner.token, form('pixel.png', bytes, 'image/png'));

    // Assert
    expect(response.status).toBe(201);
    expect(Object.keys(response.body).sort()).toEqual(['alt', 'full_path', 'markdown', 'url']);
    expect(response.body.alt).toBe('pixel');
    expect(response.body.url).toMatch(/^\/uploads\/[0-9a-f]{32}\/pixel\.png$/);
    expect(response.body.full_path.endsWith(`/${project.fullPath}${response.body.url}`)).toBe(true);
    expect(response.body.markdown).toBe(`![pixel](${response.body.url})`);
  });

  it('links any other file with its full name', async () => {
    // Act
    const response = await upload(project, owner.token, form('release notes.txt', 'hello\n', 'text/plain'));

    // Assert
    expect(response.status).toBe(201);
    expect(response.body.alt).toBe('release_notes.txt');
    expect(response.body.url).toMatch(/^\/uploads\/[0-9a-f]{32}\/release_notes\.txt$/);
    expect(response.body.markdown).toBe(`[release_notes.txt](${response.body.url})`);
  });

  it('gives every upload its own secret', async () => {
    // Act
    const first = await upload(project, owner.token, form('same.txt', 'a', 'text/plain'));
    const second = await upload(project, owner.token, form('same.txt', 'a', 'text/plain'));

    // Assert
    expect(first.body.url).not.toBe(second.body.url);
  });

  it('finds the project by its URL-encoded path', async () => {
    // Act
    const response = await api<UploadResult>(`/projects/${encodeURIComponent(project.fullPath)}/uploads`, {
      token: owner.token,
      form: form('by-path.txt', 'x', 'text/plain'),
    });

    // Assert
    expect(response.status).toBe(201);
    expect(response.body.full_path.endsWith(`/${project.fullPath}${response.body.url}`)).toBe(true);
  });

  it('lets anyone signed in who can read the project upload: a non-member to a public project', async () => {
    // Prepare
    const publicProject = await createProject(owner.token, { visibility: 'public' });
    const stranger = await createUser();

    // Act
    const response = await upload(publicProject, stranger.token, form('a.txt', 'a', 'text/plain'));

    // Assert
    expect(response.status).toBe(201);
  });

  it('answers 404 to a non-member uploading to a private project', async () => {
    // Prepare
    const stranger = await createUser();

    // Act
    const response = await upload(project, stranger.token, form('a.txt', 'a', 'text/plain'));

    // Assert
    expect(response.status).toBe(404);
    expect(response.body).toEqual({ message: '404 Project Not Found' });
  });

  it('lets a guest of a private project upload', async () => {
    // Prepare
    const guest = await createUser();
    await addMember('projects', project.id, guest.id, 10);

    // Act
    const response = await upload(project, guest.token, form('a.txt', 'a', 'text/plain'));

    // Assert
    expect(response.status).toBe(201);
  });

  it('answers 401 without a token', async () => {
    // Act
    const response = await upload(project, undefined, form('a.txt', 'a', 'text/plain'));

    // Assert
    expect(response.status).toBe(401);
    expect(response.body).toEqual({ message: '401 Unauthorized' });
  });

  it('answers 400 "file is missing" without a file', async () => {
    // Prepare
    const body = new FormData();
    body.append('other', 'x');

    // Act
    const response = await upload(project, owner.token, body);

    // Assert
    expect(response.status).toBe(400);
    expect(response.body).toEqual({ error: 'file is missing' });
  });

  it('answers 400 "file is invalid" when file is a plain field', async () => {
    // Prepare
    const body = new FormData();
    body.append('file', 'not a file');

    // Act
    const response = await upload(project, owner.token, body);

    // Assert
    expect(response.status).toBe(400);
    expect(response.body).toEqual({ error: 'file is invalid' });
  });

  it('answers 413 to a file over the 4 MiB limit', async () => {
    // Act
    const response = await upload(project, owner.token, form('big.bin', Buffer.alloc(4 * 1024 * 1024 + 1, 7), 'application/octet-stream'));

    // Assert
    expect(response.status).toBe(413);
    expect(response.body).toEqual({ message: '413 Request Entity Too Large' });
  });

  it('answers 404 for an unknown project', async () => {
    // Act
    const response = await upload({ id: 999_999_999 }, owner.token, form('a.txt', 'a', 'text/plain'));

    // Assert
    expect(response.status).toBe(404);
    expect(response.body).toEqual({ message: '404 Project Not Found' });
  });
});

describe('GET /:namespace/:project/uploads/:secret/:filename', () => {
  let owner: TestUser;
  let privateProject: TestProject;
  let publicProject: TestProject;
  const image = png(16);
  let privateImage: UploadResult;
  let publicImage: UploadResult;
  let publicText: UploadResult;

  beforeAll(async () => {
    owner = await createUser();
    privateProject = await createProject(owner.token);
    publicProject = await createProject(owner.token, { visibility: 'public' });
    privateImage = (await upload(privateProject, owner.token, form('shot.png', image, 'image/png'))).body;
    publicImage = (await upload(publicProject, owner.token, form('shot.png', image, 'image/png'))).body;
    publicText = (await upload(publicProject, owner.token, form('notes.txt', 'some notes\n', 'text/plain'))).body;
  });

  it('serves an image byte for byte, inline, with its type, to a member', async () => {
    // Act
    const response = await download(privateImage.full_path, owner.token);

    // Assert
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('image/png');
    expect(response.headers.get('content-disposition')).toBe('inline; filename="shot.png"');
    expect(response.headers.get('x-content-type-options')).toBe('nosniff');
    expect(Buffer.from(await response.arrayBuffer()).equals(image)).toBe(true);
  });

  it('serves any other file as an attachment with its type', async () => {
    // Act
    const response = await download(publicText.full_path);

    // Assert
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/plain');
    expect(response.headers.get('content-disposition')).toBe('attachment; filename="notes.txt"');
    expect(await response.text()).toBe('some notes\n');
  });

  it("serves a public project's upload anonymously", async () => {
    // Act
    const response = await download(publicImage.full_path);

    // Assert
    expect(response.status).toBe(200);
    expect(Buffer.from(await response.arrayBuffer()).equals(image)).toBe(true);
  });

  it("answers 404 for a private project's upload, anonymously or to a non-member", async () => {
    // Prepare
    const stranger = await createUser();

    // Act
    const anonymous = await download(privateImage.full_path);
    const nonMember = await download(privateImage.full_path, stranger.token);

    // Assert
    expect(anonymous.status).toBe(404);
    expect(await anonymous.json()).toEqual({ message: '404 Not Found' });
    expect(nonMember.status).toBe(404);
    expect(await nonMember.json()).toEqual({ message: '404 Not Found' });
  });

  it('answers 401 to a bad token, as every route does', async () => {
    // Act
    const response = await download(publicImage.full_path, 'glpat-not-a-real-token');

    // Assert
    expect(response.status).toBe(401);
  });

  it('answers 404 for an unknown secret, another file name, or the upload of another project', async () => {
    // Prepare
    const base = publicImage.full_path.slice(0, -publicImage.url.length);
    const secret = publicImage.url.split('/')[2];

    // Act
    const responses = await Promise.all([
      download(`${base}/uploads/${'0'.repeat(32)}/shot.png`),
      download(`${base}/uploads/${secret}/other.png`),
      download(`${base}/uploads/${secret}/SHOT.png`),
      download(privateImage.full_path.replace(privateProject.fullPath, publicProject.fullPath)),
    ]);

    // Assert
    for (const response of responses) {
      expect(response.status).toBe(404);
      expect(await response.json()).toEqual({ message: '404 Not Found' });
    }
  });

  it('serves uploads of a project in a nested group', async () => {
    // Prepare
    const parent = await createGroup(owner.token);
    const child = await createGroup(owner.token, { parent_id: parent.id });
    const nested = await createProject(owner.token, { namespace_id: child.id });
    const uploaded = (await upload(nested, owner.token, form('deep.png', image, 'image/png'))).body;

    // Act
    const response = await download(uploaded.full_path, owner.token);

    // Assert
    expect(nested.fullPath).toBe(`${child.fullPath}/${nested.path}`);
    expect(child.fullPath.startsWith(`${parent.fullPath}/`)).toBe(true);
    expect(uploaded.full_path.endsWith(`/${nested.fullPath}${uploaded.url}`)).toBe(true);
    expect(response.status).toBe(200);
    expect(Buffer.from(await response.arrayBuffer()).equals(image)).toBe(true);
  });

  it('answers other paths outside /api/v4 with the gateway 404, even with a bad token', async () => {
    // Act
    const responses = await Promise.all([
      fetch(`${baseUrl()}/some/project/issues`),
      fetch(`${baseUrl()}/some/project/uploads/not-a-secret/a.png`),
      fetch(`${baseUrl()}/api/v4/no/such/route`, { headers: { 'PRIVATE-TOKEN': 'glpat-not-a-real-token' } }),
    ]);

    // Assert
    for (const response of responses) {
      expect(response.status).toBe(404);
      expect(await response.json()).toEqual({ error: '404 Not Found' });
      expect(response.headers.get('x-request-id')).toBeTruthy();
    }
  });

  it('stops serving the uploads of a deleted project', async () => {
    // Prepare
    const doomed = await createProject(owner.token, { visibility: 'public' });
    const uploaded = (await upload(doomed, owner.token, form('gone.png', image, 'image/png'))).body;
    expect((await download(uploaded.full_path)).status).toBe(200);

    // Act
    const deleted = await api(`/projects/${doomed.id}`, { method: 'DELETE', token: rootToken() });

    // Assert
    expect(deleted.status).toBe(202);
    const response = await download(uploaded.full_path);
    expect(response.status).toBe(404);
    expect(await response.json()).toEqual({ message: '404 Not Found' });
  });
});
