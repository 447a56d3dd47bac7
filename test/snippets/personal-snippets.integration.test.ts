/**
 * Personal snippets (`/snippets`) as python-gitlab (`gl.snippets`, `.content()`, `list_public()`,
 * `list_all()`) and gitbeaker call them: create with files or the deprecated single file, read,
 * raw and file raw, edit with file actions, delete; who sees what (another user, an external
 * one, anonymous, an admin); the three lists; the admins' route; GitLab's errors, which change
 * nothing.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { api, rootToken } from '../support/api';
import { createUser, unique, type TestUser } from '../support/fixtures';

type Snippet = { id: number; title: string; visibility: string; web_url: string; files: Array<{ path: string; raw_url: string }> };

describe('personal snippets', () => {
  let author: TestUser;
  let other: TestUser;
  let external: TestUser;
  let lists: TestUser;
  const ids = (body: Snippet[]) => body.map((snippet) => snippet.id);
  const create = (token: string, body: Record<string, unknown>) =>
    api<Snippet>('/snippets', { token, body: { title: unique('Snippet '), files: [{ file_path: 'a.txt', content: 'a' }], ...body } });

  beforeAll(async () => {
    [author, other, external, lists] = await Promise.all([createUser(), createUser(), createUser({ external: true }), createUser()]);
  });

  it('creates, reads, edits with file actions and deletes a snippet', async () => {
    // Act
    const made = await create(author.token, { title: 'Mine', description: 'two files', files: [{ file_path: 'lib/b.rb', content: 'b' }, { file_path: 'a.txt', content: 'hello' }] });
    const legacy = await create(author.token, { files: undefined, file_name: 'one.rb', content: 'puts 1', visibility: 'private' });
    const path = `/snippets/${made.body.id}`;
    const read = await api(path, { token: other.token });
    const raw = await api(`${path}/raw`, { token: author.token });
    const fileRaw = await api(`${path}/files/main/${encodeURIComponent('lib/b.rb')}/raw`, { token: author.token });
    const badRef = await api(`${path}/files/v1/a.txt/raw`, { token: author.token });
    const edited = await api<Snippet>(path, {
      method: 'PUT',
      token: author.token,
      body: {
        title: 'Renamed',
        visibility: 'public',
        files: [
          { action: 'update', file_path: 'a.txt', content: 'changed' },
          { action: 'move', previous_path: 'lib/b.rb', file_path: 'b.rb' },
          { action: 'create', file_path: 'c.md', content: 'c' },
        ],
      },
    });
    const afterEdit = await api(`${path}/raw`);
    const removed = await api(`${path}`, { method: 'DELETE', token: author.token });
    const gone = await Promise.all([api(path, { token: author.token }), api(path, { method: 'DELETE', token: author.token })]);

    // Assess
    expect(made.status, JSON.stringify(made.body)).toBe(201);
    const web = made.body.web_url;
    expect(new URL(web).pathname).toBe(`/-/snippets/${made.body.id}`);
    expect(made.body).toEqual({
      id: expect.any(Number),
      title: 'Mine',
      description: 'two files',
      visibility: 'internal',
      author: expect.objectContaining({ id: author.id, username: author.username }),
      created_at: expect.any(String),
      updated_at: expect.any(String),
      project_id: null,
      web_url: web,
      raw_url: `${web}/raw`,
      file_name: 'a.txt',
      files: [
        { path: 'a.txt', raw_url: `${web}/raw/main/a.txt` },
        { path: 'lib/b.rb', raw_url: `${web}/raw/main/lib/b.rb` },
      ],
      imported: false,
      imported_from: 'none',
    });
    expect([legacy.status, legacy.body.visibility, legacy.body.files.map((file) => file.path)]).toEqual([201, 'private', ['one.rb']]);
    expect([read.status, read.body.id]).toEqual([200, made.body.id]);
    expect([raw.status, raw.headers.get('content-type'), raw.body]).toEqual([200, 'text/plain; charset=utf-8', 'hello']);
    expect([fileRaw.status, fileRaw.body]).toEqual([200, 'b']);
    expect([badRef.status, badRef.body]).toEqual([404, { message: '404 Reference Not Found' }]);
    expect(edited.status, JSON.stringify(edited.body)).toBe(200);
    expect([edited.body.title, edited.body.visibility, edited.body.files.map((file) => file.path)]).toEqual(['Renamed', 'public', ['a.txt', 'b.rb', 'c.md']]);
    expect([afterEdit.status, afterEdit.body]).toEqual([200, 'changed']);
    expect(removed.status).toBe(204);
    expect(gone.map((response) => [response.status, response.body])).toEqual([
      [404, { message: '404 Snippet Not Found' }],
      [404, { message: '404 Snippet Not Found' }],
    ]);
  });

  it('shows each visibility to whom GitLab shows it; only the author edits', async () => {
    // Prepare
    const [priv, internal, pub] = await Promise.all(['private', 'internal', 'public'].map((visibility) => create(author.token, { visibility })));
    const statuses = (token: string | undefined, ...paths: string[]) => Promise.all(paths.map(async (path) => (await api(path, { token })).status));
    const everyRead = (snippet: { body: Snippet }) => [`/snippets/${snippet.body.id}`, `/snippets/${snippet.body.id}/raw`, `/snippets/${snippet.body.id}/files/main/a.txt/raw`];

    // Act
    const seen = {
      author: await statuses(author.token, ...everyRead(priv), ...everyRead(internal)),
      admin: await statuses(rootToken(), ...everyRead(priv)),
      other: await statuses(other.token, ...everyRead(priv), ...everyRead(internal), ...everyRead(pub)),
      external: await statuses(external.token, ...everyRead(internal), ...everyRead(pub)),
      anonymous: await statuses(undefined, ...everyRead(internal), ...everyRead(pub)),
    };
    const othersEdit = await api(`/snippets/${pub.body.id}`, { method: 'PUT', token: other.token, body: { title: 'Not mine' } });
    const othersDelete = await api(`/snippets/${pub.body.id}`, { method: 'DELETE', token: rootToken() });
    const externalCreates = await create(external.token, {});
    const anonymousCreates = await api('/snippets', { body: { title: 'x', file_name: 'a', content: 'b' } });
    const still = await api<Snippet>(`/snippets/${pub.body.id}`);

    // Assess
    expect(seen).toEqual({
      author: [200, 200, 200, 200, 200, 200],
      admin: [200, 200, 200],
      other: [404, 404, 404, 200, 200, 200, 200, 200, 200],
      external: [404, 404, 404, 200, 200, 200],
      anonymous: [404, 404, 404, 200, 200, 200],
    });
    expect([othersEdit.status, othersEdit.body]).toEqual([404, { message: '404 Snippet Not Found' }]);
    expect([othersDelete.status, externalCreates.status, anonymousCreates.status]).toEqual([404, 403, 401]);
    expect([still.status, still.body.title]).toEqual([200, pub.body.title]);
  });

  it('lists the caller’s, the public and all readable snippets, newest first and paged', async () => {
    // Prepare: `lists` has a private, an internal and a public snippet; `other` one private.
    const mine: Snippet[] = [];
    for (const visibility of ['private', 'internal', 'public']) mine.unshift((await create(lists.token, { visibility })).body);
    const othersPrivate = (await create(other.token, { visibility: 'private' })).body;

    // Act
    const first = await api<Snippet[]>('/snippets', { token: lists.token, query: { per_page: 2 } });
    const second = await api<Snippet[]>('/snippets', { token: lists.token, query: { per_page: 2, page: 2 } });
    const publicOnes = await api<Snippet[]>('/snippets/public', { token: other.token, query: { per_page: 100 } });
    const allForOther = await api<Snippet[]>('/snippets/all', { token: other.token, query: { per_page: 100 } });
    const allForExternal = await api<Snippet[]>('/snippets/all', { token: external.token, query: { per_page: 100 } });
    const allForAdmin = await api<Snippet[]>('/snippets/all', { token: rootToken(), query: { per_page: 100 } });
    const anonymous = await Promise.all(['/snippets', '/snippets/public', '/snippets/all'].map(async (path) => (await api(path)).status));
    // Made private, the public one leaves the public list at once.
    await api(`/snippets/${mine[0].id}`, { method: 'PUT', token: lists.token, body: { visibility: 'private' } });
    const publicAfter = await api<Snippet[]>('/snippets/public', { token: other.token, query: { per_page: 100 } });

    // Assess
    const [pub, internal, priv] = mine.map((snippet) => snippet.id);
    expect([ids(first.body), ids(second.body)]).toEqual([[pub, internal], [priv]]);
    expect([first.headers.get('x-total'), first.headers.get('x-total-pages'), first.headers.get('x-next-page'), first.headers.get('link')]).toEqual(['3', '2', '2', expect.stringContaining('rel="next"')]);
    expect(ids(publicOnes.body)).toContain(pub);
    expect(publicOnes.body.every((snippet) => snippet.visibility === 'public')).toBe(true);
    const descending = (list: number[]) => list.every((id, i) => i === 0 || id < list[i - 1]);
    expect([descending(ids(allForOther.body)), ids(allForOther.body).slice(0, 2)]).toEqual([true, [othersPrivate.id, pub]]);
    expect(ids(allForOther.body)).toContain(internal);
    expect(ids(allForOther.body)).not.toContain(priv);
    expect([ids(allForExternal.body).includes(pub), ids(allForExternal.body).includes(internal)]).toEqual([true, false]);
    expect(ids(allForAdmin.body).slice(0, 4)).toEqual([othersPrivate.id, pub, internal, priv]);
    expect(anonymous).toEqual([401, 401, 401]);
    expect(ids(publicAfter.body)).not.toContain(pub);
  });

  it('answers bad input and the admins’ route as GitLab does', async () => {
    // Prepare
    const snippet = (await create(author.token, {})).body;
    const path = `/snippets/${snippet.id}`;

    // Act
    const answers = await Promise.all([
      api('/snippets', { token: author.token, body: { files: [{ file_path: 'a', content: 'b' }] } }),
      api('/snippets', { token: author.token, body: { title: 't', visibility: 'secret', file_name: 'a', content: 'b' } }),
      api('/snippets', { token: author.token, body: { title: 't', file_name: 'a', content: 'b', files: [{ file_path: 'a', content: 'b' }] } }),
      api('/snippets', { token: author.token, body: { title: 't', files: [{ file_path: '../a', content: 'b' }] } }),
      api(path, { method: 'PUT', token: author.token, body: {} }),
      api(path, { method: 'PUT', token: author.token, body: { files: [{ action: 'delete', file_path: 'missing.txt' }] } }),
      api(path, { method: 'PUT', token: author.token, body: { files: [{ action: 'update', content: 'no path' }] } }),
      api('/snippets/abc', { token: author.token }),
      api('/snippets/999999999', { token: author.token }),
      api(`${path}/user_agent_detail`, { token: author.token }),
      api(`${path}/user_agent_detail`, { token: rootToken() }),
      api('/snippets/999999999/user_agent_detail', { token: rootToken() }),
    ]);
    const after = await api<Snippet>(path, { token: author.token });

    // Assess
    expect(answers.map((response) => [response.status, response.body])).toEqual([
      [400, { error: 'title is missing' }],
      [400, { error: 'visibility does not have a valid value' }],
      [400, { error: 'files, content are mutually exclusive' }],
      [400, { error: 'files[0][file_path] should be a valid file path' }],
      [400, { error: 'content, description, files, file_name, title, visibility are missing, at least one parameter must be provided' }],
      [400, { error: 'Repository Error updating the snippet' }],
      [422, { error: 'Snippet actions have invalid data' }],
      [400, { error: 'id is invalid' }],
      [404, { message: '404 Snippet Not Found' }],
      [403, { message: '403 Forbidden' }],
      [404, { message: '404 UserAgentDetail Not Found' }],
      [404, { message: '404 Not found' }],
    ]);
    expect([after.body.title, after.body.files]).toEqual([snippet.title, snippet.files]);
  });
});
