/**
 * The response size guard over HTTP (issue 14, defect 5): a list page whose items together exceed
 * Lambda's 6 MB response payload would fail as a 502 for every client. Comments may be 300,000
 * bytes, and a comment of quotes takes twice that in the JSON body and twice again escaped in the
 * function's response: eight of them make a page of about 9 MB. The page is ended early under the
 * budget (5 MB by default, `RESPONSE_BUDGET_BYTES`), and a client following `Link` rel="next" (as
 * python-gitlab and gitbeaker do) sees every comment once, in offset and in keyset mode, as does
 * one that copies `X-Next-Page` into `page` (go-gitlab).
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { api, baseUrl } from '../support/api';
import { openIssue, ownedProject, type OwnedProject } from '../support/fixtures';

/** Lambda's response payload limit, less room for the status and headers. */
const PAYLOAD_ROOM = 6 * 1024 * 1024 - 64 * 1024;
/** Comments of `"`: 280,000 bytes each, 560,000 in the JSON body, 1,120,000 escaped in a buffered response. */
const COMMENT = '"'.repeat(280_000);
const COMMENTS = 8;

/** The URL of `rel` in a Link header. */
function linkOf(headers: Headers, rel: string): string | undefined {
  return headers.get('link')?.split(', ').find((part) => part.endsWith(`rel="${rel}"`))?.match(/^<([^>]+)>/)?.[1];
}

/** Requests a Link URL as given (its path under the API's base, its query verbatim). */
function follow(url: string, token: string) {
  const target = new URL(url);
  const apiPath = `${new URL(baseUrl()).pathname.replace(/\/+$/, '')}/api/v4`;
  return api<Array<{ id: number; body: string }>>(target.pathname.slice(apiPath.length), { token, query: target.searchParams });
}

describe('a list page larger than a function may answer', () => {
  let project: OwnedProject;
  let notesPath: string;
  const ids: number[] = [];

  beforeAll(async () => {
    project = await ownedProject('private');
    const issue = await openIssue(project.id, project.owner.token);
    notesPath = `/projects/${project.id}/issues/${issue.iid}/notes`;
    for (let i = 0; i < COMMENTS; i++) {
      const created = await api(notesPath, { token: project.owner.token, body: { body: COMMENT } });
      expect(created.status).toBe(201);
      ids.push(created.body.id);
    }
  }, 120_000);

  it.each<[string, Record<string, string | number>, 'link' | 'x-next-page']>([
    ['offset mode, following Link', { per_page: COMMENTS, sort: 'asc' }, 'link'],
    ['keyset mode, following Link', { per_page: COMMENTS, sort: 'asc', pagination: 'keyset' }, 'link'],
    // go-gitlab copies X-Next-Page into `page` and keeps its other parameters.
    ['offset mode, following X-Next-Page', { per_page: COMMENTS, sort: 'asc' }, 'x-next-page'],
  ])('is ended early in %s, and the next page resumes at the first comment left out', async (_mode, query, follows) => {
    // Act: a client walking from the first page.
    const pages: Array<{ ids: number[]; escapedBytes: number }> = [];
    let response = await api<Array<{ id: number; body: string }>>(notesPath, { token: project.owner.token, query });
    for (;;) {
      expect(response.status).toBe(200);
      pages.push({ ids: response.body.map((note) => note.id), escapedBytes: Buffer.byteLength(JSON.stringify(JSON.stringify(response.body))) });
      const next = follows === 'link' ? linkOf(response.headers, 'next') : response.headers.get('x-next-page');
      if (!next || pages.length > COMMENTS) break;
      response = follows === 'link'
        ? await follow(next, project.owner.token)
        : await api<Array<{ id: number; body: string }>>(notesPath, { token: project.owner.token, query: { ...query, page: next } });
    }

    // Assess: every comment once, in order, over more than one page, each within Lambda's payload.
    expect(pages.flatMap((page) => page.ids)).toEqual(ids);
    expect(pages.length).toBeGreaterThan(1);
    for (const page of pages) {
      expect(page.escapedBytes).toBeLessThanOrEqual(PAYLOAD_ROOM);
      expect(page.ids.length).toBeGreaterThan(0);
    }
  });

  it('keeps the page whole when it fits', async () => {
    // Act
    const response = await api(notesPath, { token: project.owner.token, query: { per_page: 2, sort: 'asc' } });

    // Assess
    expect(response.body.map((note: { id: number }) => note.id)).toEqual(ids.slice(0, 2));
    expect(linkOf(response.headers, 'next')).not.toContain('page_shift');
    expect(response.headers.get('x-next-page')).toBe('2');
  });
});
