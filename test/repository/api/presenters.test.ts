import { describe, expect, it } from 'vitest';
import { commitTitle, commitTrailers, gitDate, presentCommit } from '../../../shared/repository/presenters/commits';
import { fileHeaders, rawContent } from '../../../shared/repository/presenters/files';
import { uncountedPageHeaders } from '../../../shared/repository/routes/paging';
import { MemoryRepository } from './memory-repository';

describe('commit presentation', () => {
  it('writes git times in their own zone, with milliseconds, as GitLab does', () => {
    expect(gitDate({ timestamp: 1323692851, timezoneOffset: 120 })).toBe('2011-12-12T14:27:31.000+02:00');
    expect(gitDate({ timestamp: 1323692851, timezoneOffset: -330 })).toBe('2011-12-12T06:57:31.000-05:30');
    expect(gitDate({ timestamp: 0, timezoneOffset: 0 })).toBe('1970-01-01T00:00:00.000+00:00');
  });

  it('takes the title from the first line', () => {
    expect(commitTitle('Fix it\n\nBecause.')).toBe('Fix it');
    expect(commitTitle('Windows\r\nline')).toBe('Windows');
    expect(commitTitle('  \n')).toBe('No commit message');
    expect(commitTitle('x'.repeat(150))).toBe('x'.repeat(150));
  });

  it('reads trailers of the last paragraph only when all its lines are trailers', () => {
    expect(commitTrailers('Fix\n\nSigned-off-by: A <a@x>\nSigned-off-by: B <b@x>\nReviewed-by: C\n')).toEqual({
      trailers: { 'Signed-off-by': 'B <b@x>', 'Reviewed-by': 'C' },
      extended: { 'Signed-off-by': ['A <a@x>', 'B <b@x>'], 'Reviewed-by': ['C'] },
    });
    expect(commitTrailers('Fix\n\nJust text: here\nand more\n')).toEqual({ trailers: {}, extended: {} });
    expect(commitTrailers('Subject: only\n')).toEqual({ trailers: {}, extended: {} });
  });

  it("has GitLab's Commit fields in GitLab's order", async () => {
    const repo = new MemoryRepository();
    const id = repo.commit({ files: { a: '1' }, message: 'Add a\n\nBody\n', time: 1_700_000_000 });
    const commit = (await repo.reader().commit(id))!;
    const body = presentCommit(commit, { projectWebUrl: 'https://h/g/p' });
    expect(Object.keys(body)).toEqual([
      'id', 'short_id', 'created_at', 'parent_ids', 'title', 'message', 'author_name', 'author_email', 'authored_date',
      'committer_name', 'committer_email', 'committed_date', 'trailers', 'extended_trailers', 'web_url',
    ]);
    expect(body).toMatchObject({ short_id: id.slice(0, 8), title: 'Add a', message: 'Add a\n\nBody\n', created_at: '2023-11-15T00:13:20.000+02:00', web_url: `https://h/g/p/-/commit/${id}` });
  });
});

describe('file presentation', () => {
  it("names GitLab's X-Gitlab headers after the fields", () => {
    expect(fileHeaders({ file_name: 'a.rb', content_sha256: 'x', execute_filemode: false, last_commit_id: null, content: 'skipped' })).toEqual({
      'X-Gitlab-File-Name': 'a.rb',
      'X-Gitlab-Content-Sha256': 'x',
      'X-Gitlab-Execute-Filemode': 'false',
      'X-Gitlab-Last-Commit-Id': '',
    });
  });

  it('sends text as text/plain inline, images inline, SVG and other binaries as attachments', () => {
    expect(rawContent('a.html', Buffer.from('<html></html>'))).toEqual({ contentType: 'text/plain; charset=utf-8', disposition: `inline; filename="a.html"; filename*=UTF-8''a.html` });
    expect(rawContent('i.png', Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0]))).toMatchObject({ contentType: 'image/png', disposition: expect.stringMatching(/^inline/) });
    expect(rawContent('i.svg', Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"/>'))).toMatchObject({ contentType: 'image/svg+xml', disposition: expect.stringMatching(/^attachment/) });
    expect(rawContent('b.bin', Buffer.from([0, 1, 2]))).toMatchObject({ contentType: 'application/octet-stream', disposition: expect.stringMatching(/^attachment/) });
    expect(rawContent('café.txt', Buffer.from('x')).disposition).toBe(`inline; filename="caf?.txt"; filename*=UTF-8''caf%C3%A9.txt`);
  });
});

describe('uncountedPageHeaders', () => {
  const link = { url: 'https://h/api/v4/projects/1/repository/commits', query: { ref_name: 'main' } };

  it('links a next page after a full page, without X-Total', () => {
    const headers = uncountedPageHeaders({ page: 2, per_page: 2 }, link, 2);
    expect(headers).toMatchObject({ 'X-Page': '2', 'X-Per-Page': '2', 'X-Next-Page': '3', 'X-Prev-Page': '1' });
    expect(headers).not.toHaveProperty('X-Total');
    expect(headers).not.toHaveProperty('X-Total-Pages');
    expect(headers.Link).toBe(
      '<https://h/api/v4/projects/1/repository/commits?page=1&per_page=2&ref_name=main>; rel="prev", ' +
        '<https://h/api/v4/projects/1/repository/commits?page=3&per_page=2&ref_name=main>; rel="next", ' +
        '<https://h/api/v4/projects/1/repository/commits?page=1&per_page=2&ref_name=main>; rel="first", ' +
        '<https://h/api/v4/projects/1/repository/commits?page=3&per_page=2&ref_name=main>; rel="last"',
    );
  });

  it('links no next page after a short page', () => {
    expect(uncountedPageHeaders({ page: 1, per_page: 20 }, link, 5)).toMatchObject({ 'X-Next-Page': '', 'X-Prev-Page': '' });
  });
});
