/**
 * Project snippets as python-gitlab (`project.snippets`) and gitbeaker call them: create with one
 * file and with several, list (newest first, paged), read, raw and file raw, edit with file
 * actions, delete; who may do what; GitLab's validation answers, which change nothing; concurrent
 * creates; a deleted project's snippets going with it.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { getItem } from '../../shared/platform/dynamo/query';
import { bucketName, s3 } from '../../shared/platform/s3/client';
import { snippetKeys, snippetObjects } from '../../shared/snippets/store/keys';
import { api, isLocalRuntime, rootToken } from '../support/api';
import { eventually } from '../support/eventually';
import { addMember, createProject, createUser, unique, type TestUser } from '../support/fixtures';

const GUEST = 10;
const REPORTER = 20;
const MAINTAINER = 40;

describe('project snippets', () => {
  let owner: TestUser;
  let reporter: TestUser;
  let guest: TestUser;
  let maintainer: TestUser;
  let outsider: TestUser;
  let priv: { id: number; fullPath: string };
  let pub: { id: number; fullPath: string };

  const snippetsOf = (projectId: number) => `/projects/${projectId}/snippets`;
  const create = (projectId: number, token: string, body: Record<string, unknown>) =>
    api(snippetsOf(projectId), { token, body: { title: unique('Snippet '), visibility: 'private', file_name: 'a.rb', content: 'puts 1', ...body } });

  beforeAll(async () => {
    [owner, reporter, guest, maintainer, outsider] = await Promise.all([createUser(), createUser(), createUser(), createUser(), createUser()]);
    [priv, pub] = await Promise.all([createProject(owner.token, { visibility: 'private' }), createProject(owner.token, { visibility: 'public' })]);
    await Promise.all([
      ...[priv, pub].flatMap((project) => [
        addMember('projects', project.id, reporter.id, REPORTER),
        addMember('projects', project.id, guest.id, GUEST),
        addMember('projects', project.id, maintainer.id, MAINTAINER),
      ]),
    ]);
  });

  it('creates a single-file and a multi-file snippet and reads them, raw and by file', async () => {
    // Act
    const single = await create(priv.id, reporter.token, { title: 'One', description: 'a file', visibility: 'internal', file_name: 'add.rb', content: 'def add(a, b) = a + b\n' });
    const multi = await api(snippetsOf(priv.id), {
      token: owner.token,
      body: { title: 'Two', visibility: 'private', files: [{ file_path: 'z.txt', content: 'last' }, { file_path: 'lib/first.rb', content: 'first' }] },
    });
    const read = await api(`${snippetsOf(priv.id)}/${single.body.id}`, { token: guest.token });
    const raw = await api(`${snippetsOf(priv.id)}/${multi.body.id}/raw`, { token: reporter.token });
    const fileRaw = await api(`${snippetsOf(priv.id)}/${multi.body.id}/files/main/${encodeURIComponent('z.txt')}/raw`, { token: reporter.token });
    const nested = await api(`${snippetsOf(priv.id)}/${multi.body.id}/files/main/${encodeURIComponent('lib/first.rb')}/raw`, { token: reporter.token });
    const badRef = await api(`${snippetsOf(priv.id)}/${multi.body.id}/files/nope/z.txt/raw`, { token: reporter.token });
    const badFile = await api(`${snippetsOf(priv.id)}/${multi.body.id}/files/main/nope.txt/raw`, { token: reporter.token });

    // Assess
    expect(single.status, JSON.stringify(single.body)).toBe(201);
    const web = `${single.body.web_url.split('/-/snippets/')[0]}`;
    expect(web.endsWith(`/${priv.fullPath}`)).toBe(true);
    expect(single.body).toEqual({
      id: expect.any(Number),
      title: 'One',
      description: 'a file',
      visibility: 'internal',
      author: expect.objectContaining({ id: reporter.id, username: reporter.username, state: 'active' }),
      created_at: expect.any(String),
      updated_at: single.body.created_at,
      project_id: priv.id,
      web_url: `${web}/-/snippets/${single.body.id}`,
      raw_url: `${web}/-/snippets/${single.body.id}/raw`,
      file_name: 'add.rb',
      files: [{ path: 'add.rb', raw_url: `${web}/-/snippets/${single.body.id}/raw/main/add.rb` }],
      imported: false,
      imported_from: 'none',
    });
    expect(multi.status, JSON.stringify(multi.body)).toBe(201);
    expect(multi.body.file_name).toBe('lib/first.rb');
    expect(multi.body.files.map((file: { path: string }) => file.path)).toEqual(['lib/first.rb', 'z.txt']);
    expect(read.status).toBe(200);
    expect(read.body).toEqual(single.body);
    expect([raw.status, raw.headers.get('content-type'), raw.body]).toEqual([200, 'text/plain; charset=utf-8', 'first']);
    expect([fileRaw.status, fileRaw.body, nested.status, nested.body]).toEqual([200, 'last', 200, 'first']);
    expect([badRef.status, badRef.body, badFile.status, badFile.body]).toEqual([404, { message: '404 Reference Not Found' }, 404, { message: '404 File Not Found' }]);
  });

  it('lists newest first, paged with GitLab headers', async () => {
    // Prepare
    const project = await createProject(owner.token);
    const ids: number[] = [];
    for (let i = 0; i < 3; i++) ids.push((await create(project.id, owner.token, {})).body.id);

    // Act
    const first = await api(snippetsOf(project.id), { token: owner.token, query: { per_page: 2 } });
    const second = await api(snippetsOf(project.id), { token: owner.token, query: { per_page: 2, page: 2 } });

    // Assess
    expect(first.status).toBe(200);
    expect(first.body.map((snippet: { id: number }) => snippet.id)).toEqual([ids[2], ids[1]]);
    expect(second.body.map((snippet: { id: number }) => snippet.id)).toEqual([ids[0]]);
    expect([first.headers.get('x-total'), first.headers.get('x-total-pages'), first.headers.get('x-next-page'), first.headers.get('x-per-page')]).toEqual(['3', '2', '2', '2']);
    expect(first.headers.get('link')).toContain('rel="next"');
    expect(second.headers.get('x-next-page')).toBe('');
  });

  it('edits fields and files with create, update, move and delete actions, and refuses a broken commit whole', async () => {
    // Prepare
    const snippet = (await api(snippetsOf(priv.id), {
      token: reporter.token,
      body: { title: 'Edit me', visibility: 'private', files: [{ file_path: 'a.rb', content: 'a' }, { file_path: 'b.rb', content: 'b' }] },
    })).body;
    const path = `${snippetsOf(priv.id)}/${snippet.id}`;

    // Act
    const edited = await api(path, {
      method: 'PUT',
      token: reporter.token,
      body: {
        title: 'Edited',
        description: 'now',
        files: [
          { action: 'update', file_path: 'a.rb', content: 'a2' },
          { action: 'move', previous_path: 'b.rb', file_path: 'c/b.rb' },
          { action: 'create', file_path: 'd.rb', content: 'd' },
          { action: 'delete', file_path: 'd.rb' },
        ],
      },
    });
    const contents = await Promise.all(['a.rb', 'c/b.rb'].map((file) => api(`${path}/files/main/${encodeURIComponent(file)}/raw`, { token: reporter.token })));
    const broken = await api(path, { method: 'PUT', token: reporter.token, body: { title: 'Lost', files: [{ action: 'create', file_path: 'e.rb', content: 'e' }, { action: 'create', file_path: 'a.rb', content: 'x' }] } });
    const invalid = await api(path, { method: 'PUT', token: reporter.token, body: { files: [{ action: 'update', content: 'no path' }] } });
    const legacy = await api(path, { method: 'PUT', token: reporter.token, body: { content: 'one file only' } });
    // Two edits at once, each adding a file: the one that loses the race is applied again over the other's.
    await Promise.all(['x.rb', 'y.rb'].map((file) => api(path, { method: 'PUT', token: reporter.token, body: { files: [{ action: 'create', file_path: file, content: file }] } })));
    const after = await api(path, { token: reporter.token });

    // Assess
    expect(edited.status, JSON.stringify(edited.body)).toBe(200);
    expect([edited.body.title, edited.body.description, edited.body.files.map((file: { path: string }) => file.path)]).toEqual(['Edited', 'now', ['a.rb', 'c/b.rb']]);
    expect(contents.map((response) => response.body)).toEqual(['a2', 'b']);
    expect([broken.status, broken.body]).toEqual([400, { error: 'Repository Error updating the snippet' }]);
    expect([invalid.status, invalid.body]).toEqual([422, { error: 'Snippet actions have invalid data' }]);
    expect([legacy.status, legacy.body]).toEqual([400, { error: 'To update Snippets with multiple files, you must use the `files` parameter' }]);
    expect(after.body.title).toBe('Edited');
    expect(after.body.files.map((file: { path: string }) => file.path)).toEqual(['a.rb', 'c/b.rb', 'x.rb', 'y.rb']);
  });

  it('edits a single-file snippet with the deprecated file_name and content, and deletes it (204)', async () => {
    // Prepare
    const snippet = (await create(priv.id, owner.token, { file_name: 'old.rb', content: 'old' })).body;
    const path = `${snippetsOf(priv.id)}/${snippet.id}`;

    // Act
    const edited = await api(path, { method: 'PUT', token: owner.token, body: { file_name: 'new.rb', content: 'new', visibility: 'public' } });
    const raw = await api(`${path}/raw`, { token: owner.token });
    const deleted = await api(path, { method: 'DELETE', token: owner.token });
    const gone = await Promise.all([api(path, { token: owner.token }), api(`${path}/raw`, { token: owner.token }), api(path, { method: 'DELETE', token: owner.token })]);

    // Assess
    expect([edited.status, edited.body.file_name, edited.body.visibility, raw.body]).toEqual([200, 'new.rb', 'public', 'new']);
    expect(deleted.status).toBe(204);
    expect(gone.map((response) => [response.status, response.body])).toEqual([
      [404, { message: '404 Not found' }],
      [404, { message: '404 Snippet Not Found' }],
      [404, { message: '404 Snippet Not Found' }],
    ]);
  });

  it('lets members by role, authors and visibility do what GitLab lets them', async () => {
    // Prepare
    const [privateOne, publicOne, internalOne] = await Promise.all([
      create(pub.id, reporter.token, { visibility: 'private' }),
      create(pub.id, reporter.token, { visibility: 'public' }),
      create(pub.id, reporter.token, { visibility: 'internal' }),
    ]).then((responses) => responses.map((response) => response.body.id as number));
    const at = (id: number) => `${snippetsOf(pub.id)}/${id}`;

    // Act
    const results = {
      outsiderPrivateProjectList: (await api(snippetsOf(priv.id), { token: outsider.token })).status,
      outsiderPrivateProjectCreate: (await create(priv.id, outsider.token, {})).status,
      guestCreates: (await create(pub.id, guest.token, {})).status,
      anonymousList: (await api(snippetsOf(pub.id))).status,
      anonymousPublic: (await api(at(publicOne))).status,
      anonymousInternal: (await api(at(internalOne))).status,
      outsiderPrivate: (await api(at(privateOne), { token: outsider.token })).status,
      outsiderInternal: (await api(at(internalOne), { token: outsider.token })).status,
      guestPrivate: (await api(at(privateOne), { token: guest.token })).status,
      guestEdits: (await api(at(privateOne), { method: 'PUT', token: guest.token, body: { title: 'no' } })).status,
      maintainerEditsPrivate: (await api(at(privateOne), { method: 'PUT', token: maintainer.token, body: { title: 'yes' } })).status,
      maintainerEditsInternal: (await api(at(internalOne), { method: 'PUT', token: maintainer.token, body: { title: 'no' } })).status,
      adminAgentDetail: (await api(`${at(publicOne)}/user_agent_detail`, { token: rootToken() })).status,
      memberAgentDetail: (await api(`${at(publicOne)}/user_agent_detail`, { token: owner.token })).status,
    };
    const outsiderList = await api(snippetsOf(pub.id), { token: outsider.token, query: { per_page: 100 } });
    const guestList = await api(snippetsOf(pub.id), { token: guest.token, query: { per_page: 100 } });
    const disabled = await api(`/projects/${pub.id}`, { method: 'PUT', token: owner.token, body: { snippets_access_level: 'disabled' } });
    const whenDisabled = [(await api(snippetsOf(pub.id), { token: owner.token })).status, (await api(at(publicOne))).status];
    await api(`/projects/${pub.id}`, { method: 'PUT', token: owner.token, body: { snippets_access_level: 'enabled' } });

    // Assess
    expect(results).toEqual({
      outsiderPrivateProjectList: 404,
      outsiderPrivateProjectCreate: 404,
      guestCreates: 403,
      anonymousList: 401,
      anonymousPublic: 200,
      anonymousInternal: 404,
      outsiderPrivate: 404,
      outsiderInternal: 200,
      guestPrivate: 200,
      guestEdits: 403,
      maintainerEditsPrivate: 200,
      maintainerEditsInternal: 403,
      adminAgentDetail: 404,
      memberAgentDetail: 403,
    });
    const listed = (response: { body: Array<{ id: number }> }) => response.body.map((snippet) => snippet.id);
    expect(listed(outsiderList)).toEqual(expect.arrayContaining([publicOne, internalOne]));
    expect(listed(outsiderList)).not.toContain(privateOne);
    expect(listed(guestList)).toEqual(expect.arrayContaining([privateOne, publicOne, internalOne]));
    expect(disabled.status).toBe(200);
    expect(whenDisabled).toEqual([403, 403]);
  });

  it("answers GitLab's validation errors and changes nothing", async () => {
    // Prepare
    const project = await createProject(owner.token);
    const post = (body: Record<string, unknown>) => api(snippetsOf(project.id), { token: owner.token, body });
    const base = { title: 'T', visibility: 'private' };

    // Act
    const answers = await Promise.all([
      post({ visibility: 'private', file_name: 'a', content: 'x' }),
      post({ ...base, title: ' ', file_name: 'a', content: 'x' }),
      post({ ...base, visibility: 'secret', file_name: 'a', content: 'x' }),
      post({ ...base, file_name: 'a', content: 'x', files: [{ file_path: 'b', content: 'y' }] }),
      post(base),
      post({ ...base, content: 'x' }),
      post({ ...base, files: [{ file_path: 'b', content: '' }] }),
      post({ ...base, files: [] }),
      post({ ...base, files: [{ file_path: '../b', content: 'y' }] }),
      post({ ...base, files: [{ file_path: 'b', content: 'y' }, { file_path: 'b', content: 'z' }] }),
      post({ ...base, title: 't'.repeat(256), file_name: 'a', content: 'x' }),
      post({ ...base, file_name: 'big.txt', content: 'x'.repeat(4 * 1024 * 1024 + 1) }),
    ]);
    const list = await api(snippetsOf(project.id), { token: owner.token });

    // Assess
    expect(answers.map((answer) => [answer.status, answer.body])).toEqual([
      [400, { error: 'title is missing' }],
      [400, { error: 'title is empty' }],
      [400, { error: 'visibility does not have a valid value' }],
      [400, { error: 'files, content are mutually exclusive' }],
      [400, { error: 'files, content are missing, exactly one parameter must be provided' }],
      [400, { error: 'file_name is missing' }],
      [400, { error: 'files[0][content] is empty' }],
      [400, { error: "Content can't be blank" }],
      [400, { error: 'files[0][file_path] should be a valid file path' }],
      [400, { error: 'Repository Error creating the snippet' }],
      [400, { error: 'Title is too long (maximum is 255 characters)' }],
      [400, { error: 'Content is too long (4 MB). The maximum size is 4 MB.' }],
    ]);
    expect([list.status, list.body]).toEqual([200, []]);
  });

  it('gives concurrent creates distinct ids, all listed', async () => {
    // Prepare
    const project = await createProject(owner.token);

    // Act
    const created = await Promise.all(Array.from({ length: 6 }, () => create(project.id, owner.token, {})));
    const list = await api(snippetsOf(project.id), { token: owner.token });

    // Assess
    const ids = created.map((response) => response.body.id as number);
    expect(created.map((response) => response.status)).toEqual(Array(6).fill(201));
    expect(new Set(ids).size).toBe(6);
    expect(list.body.map((snippet: { id: number }) => snippet.id)).toEqual([...ids].sort((a, b) => b - a));
  });

  it.skipIf(!isLocalRuntime())('removes the snippets of a deleted project with their contents', async () => {
    // Prepare
    const project = await createProject(owner.token);
    const snippet = (await create(project.id, owner.token, {})).body;

    // Act
    expect((await api(`/projects/${project.id}`, { method: 'DELETE', token: owner.token })).status).toBe(202);

    // Assess
    await eventually(async () => {
      const { client, sdk } = await s3();
      const objects = await client.send(new sdk.ListObjectsV2Command({ Bucket: bucketName(), Prefix: snippetObjects.projectPrefix(project.id) }));
      expect([await getItem(snippetKeys.snippet(project.id, snippet.id)), objects.KeyCount ?? 0]).toEqual([undefined, 0]);
    });
  });
});
