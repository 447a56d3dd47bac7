/**
 * The files, tree and blobs APIs over HTTP: a file with its metadata and X-Gitlab headers (also
 * on HEAD), raw content and its type, one-file commits and their conflicts, directory listings
 * and their paging, blobs by id, binary and non-UTF-8 content and names, and a large file.
 */
import { createHash, randomBytes } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { api, baseUrl } from '../../support/api';
import { newMember, ownedProject, type OwnedProject } from '../../support/fixtures';
import { commit, createFiles, enc, repo } from './helpers';

const REPORTER = 20;

describe('GET /projects/:id/repository/files/:file_path', () => {
  let project: OwnedProject;
  let first: { id: string };
  let second: { id: string };
  beforeAll(async () => {
    project = await ownedProject();
    first = await createFiles(project.id, project.owner.token, { 'app/models/key.rb': 'class Key\nend\n', 'README.md': '# Hi\n' });
    second = await createFiles(project.id, project.owner.token, { 'other.txt': 'x' });
  });

  it("answers GitLab's file data with the content base64-encoded, and the same as X-Gitlab headers", async () => {
    const response = await api(repo(project.id, `/files/${enc('app/models/key.rb')}`), { token: project.owner.token, query: { ref: 'main' } });
    expect(response.status).toBe(200);
    const content = 'class Key\nend\n';
    expect(response.body).toEqual({
      file_name: 'key.rb',
      file_path: 'app/models/key.rb',
      size: content.length,
      encoding: 'base64',
      content_sha256: createHash('sha256').update(content).digest('hex'),
      ref: 'main',
      blob_id: expect.stringMatching(/^[0-9a-f]{40}$/),
      commit_id: second.id,
      last_commit_id: first.id,
      execute_filemode: false,
      content: Buffer.from(content).toString('base64'),
    });
    expect(response.headers.get('x-gitlab-file-name')).toBe('key.rb');
    expect(response.headers.get('x-gitlab-last-commit-id')).toBe(first.id);
    expect(response.headers.get('x-gitlab-blob-id')).toBe(response.body.blob_id);

    const head = await api(repo(project.id, `/files/${enc('app/models/key.rb')}`), { token: project.owner.token, method: 'HEAD', query: { ref: 'main' } });
    expect(head.status).toBe(200);
    expect(head.body).toBe('');
    expect(head.headers.get('x-gitlab-commit-id')).toBe(second.id);
    expect(head.headers.get('x-gitlab-size')).toBe(String(content.length));
  });

  it('reads at a commit id, and answers 404 Commit Not Found / File Not Found', async () => {
    const atFirst = await api(repo(project.id, '/files/other.txt'), { token: project.owner.token, query: { ref: first.id } });
    expect(atFirst).toMatchObject({ status: 404, body: { message: '404 File Not Found' } });
    const unknownRef = await api(repo(project.id, '/files/README.md'), { token: project.owner.token, query: { ref: 'nope' } });
    expect(unknownRef).toMatchObject({ status: 404, body: { message: '404 Commit Not Found' } });
    const directory = await api(repo(project.id, '/files/app'), { token: project.owner.token, query: { ref: 'main' } });
    expect(directory.body).toEqual({ message: '404 File Not Found' });
    expect((await api(repo(project.id, '/files/README.md'), { token: project.owner.token })).body).toEqual({ error: 'ref is missing' });
    expect((await api(repo(project.id, `/files/${enc('../secret')}`), { token: project.owner.token, query: { ref: 'main' } })).body).toEqual({
      error: 'file_path should be a valid file path',
    });
  });

  it('sends raw content with its type, by default from the default branch', async () => {
    const response = await fetch(`${baseUrl()}/api/v4${repo(project.id, '/files/README.md/raw')}`, { headers: { 'PRIVATE-TOKEN': project.owner.token } });
    expect(response.status).toBe(200);
    expect(await response.text()).toBe('# Hi\n');
    expect(response.headers.get('content-type')).toBe('text/plain; charset=utf-8');
    expect(response.headers.get('content-disposition')).toBe(`inline; filename="README.md"; filename*=UTF-8''README.md`);
    expect(response.headers.get('x-gitlab-ref')).toBe('main');
    expect(response.headers.get('cache-control')).toBe('no-cache, no-store, max-age=0, must-revalidate');
  });
});

describe('file writes', () => {
  let project: OwnedProject;
  beforeAll(async () => {
    project = await ownedProject();
    await createFiles(project.id, project.owner.token, { 'README.md': '# x\n' });
  });

  it('creates (201), updates (200) and deletes (204) a file, each a commit', async () => {
    const path = `/files/${enc('docs/guide.md')}`;
    const created = await api(repo(project.id, path), {
      token: project.owner.token,
      body: { branch: 'main', content: Buffer.from('# Guide\n').toString('base64'), encoding: 'base64', commit_message: 'Add guide', execute_filemode: true },
    });
    expect(created).toMatchObject({ status: 201, body: { file_path: 'docs/guide.md', branch: 'main' } });
    const read = await api(repo(project.id, path), { token: project.owner.token, query: { ref: 'main' } });
    expect(read.body).toMatchObject({ execute_filemode: true, content: Buffer.from('# Guide\n').toString('base64') });

    const updated = await api(repo(project.id, path), {
      token: project.owner.token,
      method: 'PUT',
      body: { branch: 'main', content: '# Guide v2\n', commit_message: 'Update guide', last_commit_id: read.body.last_commit_id, execute_filemode: false },
    });
    expect(updated).toMatchObject({ status: 200, body: { file_path: 'docs/guide.md', branch: 'main' } });
    const reread = await api(repo(project.id, path), { token: project.owner.token, query: { ref: 'main' } });
    expect(reread.body).toMatchObject({ execute_filemode: false, content: Buffer.from('# Guide v2\n').toString('base64') });
    const history = await api(repo(project.id, '/commits'), { token: project.owner.token, query: { path: 'docs/guide.md' } });
    expect(history.body.map((c: { title: string }) => c.title)).toEqual(['Update guide', 'Add guide']);

    const stale = await api(repo(project.id, path), {
      token: project.owner.token,
      method: 'PUT',
      body: { branch: 'main', content: 'x', commit_message: 'x', last_commit_id: read.body.last_commit_id },
    });
    expect(stale).toMatchObject({ status: 400, body: { message: 'You are attempting to update a file that has changed since you started editing it.' } });
    const staleDelete = await api(repo(project.id, path), {
      token: project.owner.token,
      method: 'DELETE',
      body: { branch: 'main', commit_message: 'x', last_commit_id: read.body.last_commit_id },
    });
    expect(staleDelete.body).toEqual({ message: 'You are attempting to delete a file that has been previously updated.' });

    const deleted = await api(repo(project.id, path), { token: project.owner.token, method: 'DELETE', body: { branch: 'main', commit_message: 'Remove guide' } });
    expect(deleted.status).toBe(204);
    expect((await api(repo(project.id, path), { token: project.owner.token, query: { ref: 'main' } })).status).toBe(404);
  });

  it("answers GitLab's errors", async () => {
    const write = (method: 'POST' | 'PUT' | 'DELETE', path: string, body: Record<string, unknown>) =>
      api(repo(project.id, `/files/${enc(path)}`), { token: project.owner.token, method, body: { branch: 'main', commit_message: 'x', ...body } });
    expect((await write('POST', 'README.md', { content: 'x' })).body).toEqual({ message: 'A file with this name already exists' });
    expect((await write('PUT', 'missing.md', { content: 'x' })).body).toEqual({ message: "A file with this name doesn't exist" });
    expect((await write('DELETE', 'missing.md', {})).body).toEqual({ message: "A file with this name doesn't exist" });
    expect((await write('POST', 'new.md', {})).body).toEqual({ error: 'content is missing' });
    expect((await write('POST', 'new.md', { content: 'x', branch: 'topic' })).body).toEqual({ message: 'You can only create or edit files when you are on a branch' });
    const reporter = await newMember(project, REPORTER);
    expect((await api(repo(project.id, '/files/new.md'), { token: reporter.token, body: { branch: 'main', commit_message: 'x', content: 'x' } })).status).toBe(403);
  });

  it('creates an empty file, and a file on a new branch from start_branch', async () => {
    expect((await api(repo(project.id, '/files/empty.txt'), { token: project.owner.token, body: { branch: 'main', commit_message: 'x', content: '' } })).status).toBe(201);
    const onTopic = await api(repo(project.id, '/files/topic.txt'), { token: project.owner.token, body: { branch: 'topic', start_branch: 'main', commit_message: 'x', content: 't' } });
    expect(onTopic.status).toBe(201);
    expect((await api(repo(project.id, '/files/topic.txt'), { token: project.owner.token, query: { ref: 'topic' } })).status).toBe(200);
  });
});

describe('binary content, names in other encodings, large files', () => {
  it('keeps bytes as they are and reads them back, raw and base64', async () => {
    const project = await ownedProject();
    const bytes = randomBytes(2048);
    bytes[0] = 0;
    await commit(project.id, project.owner.token, [
      { action: 'create', file_path: 'data.bin', content: bytes.toString('base64'), encoding: 'base64' },
      { action: 'create', file_path: 'café/naïve ünïcode.txt', content: 'ü\n' },
    ]);
    const raw = await fetch(`${baseUrl()}/api/v4${repo(project.id, '/files/data.bin/raw')}?ref=main`, { headers: { 'PRIVATE-TOKEN': project.owner.token } });
    expect(Buffer.from(await raw.arrayBuffer())).toEqual(bytes);
    expect(raw.headers.get('content-type')).toBe('application/octet-stream');
    expect(raw.headers.get('content-disposition')).toMatch(/^attachment; filename="data.bin"/);
    const unicode = await api(repo(project.id, `/files/${enc('café/naïve ünïcode.txt')}`), { token: project.owner.token, query: { ref: 'main' } });
    expect(unicode.body).toMatchObject({ file_name: 'naïve ünïcode.txt', file_path: 'café/naïve ünïcode.txt', content: Buffer.from('ü\n').toString('base64') });
    const tree = await api(repo(project.id, '/tree'), { token: project.owner.token, query: { path: 'café' } });
    expect(tree.body).toEqual([{ id: expect.any(String), name: 'naïve ünïcode.txt', type: 'blob', path: 'café/naïve ünïcode.txt', mode: '100644' }]);
    const diff = await api(repo(project.id, '/commits/main/diff'), { token: project.owner.token });
    expect(diff.body.find((d: { new_path: string }) => d.new_path === 'data.bin').diff).toBe('Binary files /dev/null and b/data.bin differ\n');
  });

  it('stores and reads a file of a few megabytes, and leaves its diff out as too large', async () => {
    const project = await ownedProject();
    const big = Array.from({ length: 60_000 }, (_, i) => `line ${i} ${'lorem ipsum '.repeat(4)}\n`).join('');
    expect(big.length).toBeGreaterThan(3_000_000);
    // As text: base64 would make the request's Lambda event exceed 6 MB (413, as on AWS).
    const made = await commit(project.id, project.owner.token, [{ action: 'create', file_path: 'big.txt', content: big }]);
    const raw = await fetch(`${baseUrl()}/api/v4${repo(project.id, '/files/big.txt/raw')}?ref=main`, { headers: { 'PRIVATE-TOKEN': project.owner.token } });
    expect(createHash('sha1').update(Buffer.from(await raw.arrayBuffer())).digest('hex')).toBe(createHash('sha1').update(big).digest('hex'));
    const diff = await api(repo(project.id, `/commits/${made.id}/diff`), { token: project.owner.token });
    expect(diff.body[0]).toMatchObject({ new_path: 'big.txt', diff: '', too_large: true });
  });
});

describe('GET /projects/:id/repository/tree and blobs', () => {
  let project: OwnedProject;
  beforeAll(async () => {
    project = await ownedProject('public');
    await createFiles(project.id, project.owner.token, { 'b.txt': 'b', 'a/x.txt': 'x', 'a/deeper/y.txt': 'y', 'z/z.txt': 'z', 'c.txt': 'c' });
  });

  it('lists directories first, then files, anonymously on a public project', async () => {
    const response = await api(repo(project.id, '/tree'));
    expect(response.body.map((e: { path: string; type: string; mode: string }) => [e.path, e.type, e.mode])).toEqual([
      ['a', 'tree', '040000'],
      ['z', 'tree', '040000'],
      ['b.txt', 'blob', '100644'],
      ['c.txt', 'blob', '100644'],
    ]);
    expect(Object.keys(response.body[0])).toEqual(['id', 'name', 'type', 'path', 'mode']);
    const recursive = await api(repo(project.id, '/tree'), { query: { path: 'a', recursive: true } });
    // Every directory below, then every file (GitLab's sorted_entries of a recursive listing).
    expect(recursive.body.map((e: { path: string }) => e.path)).toEqual(['a/deeper', 'a/deeper/y.txt', 'a/x.txt']);
  });

  it('pages with X-Total, or by page_token with keyset paging', async () => {
    const page = await api(repo(project.id, '/tree'), { query: { per_page: 3, page: 2 } });
    expect(page.body.map((e: { path: string }) => e.path)).toEqual(['c.txt']);
    expect(page.headers.get('x-total')).toBe('4');
    const keyset = await api(repo(project.id, '/tree'), { query: { pagination: 'keyset', per_page: 2 } });
    expect(keyset.body.map((e: { path: string }) => e.path)).toEqual(['a', 'z']);
    const next = /<([^>]+)>; rel="next"/.exec(keyset.headers.get('link') ?? '')![1];
    const second = (await fetch(next).then((r) => r.json())) as Array<{ path: string }>;
    expect(second.map((e) => e.path)).toEqual(['b.txt', 'c.txt']);
  });

  it('answers 404 Tree Not Found for an unknown ref and for an empty repository, and 404 for a missing path', async () => {
    expect((await api(repo(project.id, '/tree'), { query: { ref: 'nope' } })).body).toEqual({ message: '404 Tree Not Found' });
    expect((await api(repo(project.id, '/tree'), { query: { path: 'nope' } })).body).toEqual({ message: '404 invalid revision or path Not Found' });
    const empty = await ownedProject();
    expect((await api(repo(empty.id, '/tree'), { token: empty.owner.token })).body).toEqual({ message: '404 Tree Not Found' });
  });

  it('reads a blob by id, and raw', async () => {
    const [entry] = (await api(repo(project.id, '/tree'), { query: { path: 'z' } })).body;
    const blob = await api(repo(project.id, `/blobs/${entry.id}`));
    expect(blob.body).toEqual({ size: 1, encoding: 'base64', content: Buffer.from('z').toString('base64'), sha: entry.id });
    const raw = await fetch(`${baseUrl()}/api/v4${repo(project.id, `/blobs/${entry.id.slice(0, 12)}/raw`)}`);
    expect(await raw.text()).toBe('z');
    expect(raw.headers.get('content-type')).toBe('text/plain; charset=utf-8');
    expect((await api(repo(project.id, `/blobs/${'0'.repeat(40)}`))).body).toEqual({ message: '404 Blob Not Found' });
  });
});
