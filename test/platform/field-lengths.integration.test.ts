/**
 * GitLab's length limits on the string fields of write routes, one case per feature: a value one
 * character past the limit answers GitLab's 400 (`{"message":{"title":["is too long (maximum is
 * 255 characters)"]}}`, or the plain form where GitLab answers one) and changes nothing (a GET
 * shows the old value; on the local runtime the route's writes, `X-Route-Writes`, are none), and a
 * value of exactly the limit is accepted. The limits are declared with the parameters
 * (`p.string({ max })`, shared/platform/http/params.ts), so the 400 comes before anything is read.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { api, rootToken, type ApiResponse } from '../support/api';
import { createGroup, openIssue, ownedProject, unique, type OwnedProject } from '../support/fixtures';

const tooLong = (field: string, max: number) => ({ message: { [field]: [`is too long (maximum is ${max} characters)`] } });

/** Nothing written by a refused request, where the runtime names its writes. */
function expectNothingWritten(response: ApiResponse<unknown>): void {
  const writes = response.headers.get('x-route-writes');
  if (writes !== null) expect(writes).toBe('');
}

interface Case {
  name: string;
  method: 'POST' | 'PUT';
  url: () => string;
  /** Other parameters the request needs. */
  base?: () => Record<string, unknown>;
  field: string;
  max: number;
  /** GitLab's answer to one character more. */
  error: unknown;
  /** Where the value shows after a write (`field` of the GET's body unless `shownAs` says). */
  read?: () => string;
  shownAs?: string;
}

describe('string length limits on write routes', () => {
  let project: OwnedProject;
  let group: { id: number };
  let issue: { iid: number };
  let noteId: number;
  let labelId: number;
  let milestoneId: number;

  beforeAll(async () => {
    [project, group] = await Promise.all([ownedProject('private'), createGroup(rootToken())]);
    const token = project.owner.token;
    issue = await openIssue(project.id, token);
    const [note, label, milestone] = await Promise.all([
      api(`/projects/${project.id}/issues/${issue.iid}/notes`, { token, body: { body: 'first' } }),
      api(`/projects/${project.id}/labels`, { token, body: { name: unique('label'), color: '#ff0000' } }),
      api(`/projects/${project.id}/milestones`, { token, body: { title: unique('milestone') } }),
    ]);
    expect([note.status, label.status, milestone.status]).toEqual([201, 201, 201]);
    [noteId, labelId, milestoneId] = [note.body.id, label.body.id, milestone.body.id];
  });

  const issueUrl = () => `/projects/${project.id}/issues/${issue.iid}`;
  const cases: Case[] = [
    { name: 'user bio', method: 'PUT', url: () => `/users/${project.owner.id}`, field: 'bio', max: 255, error: tooLong('bio', 255), read: () => `/users/${project.owner.id}` },
    { name: 'group description', method: 'PUT', url: () => `/groups/${group.id}`, field: 'description', max: 255, error: tooLong('description', 255), read: () => `/groups/${group.id}` },
    { name: 'project description', method: 'PUT', url: () => `/projects/${project.id}`, field: 'description', max: 2000, error: tooLong('description', 2000), read: () => `/projects/${project.id}` },
    { name: 'issue title', method: 'PUT', url: issueUrl, field: 'title', max: 255, error: tooLong('title', 255), read: issueUrl },
    {
      name: 'note body (named `note`, at most 300,000 bytes)',
      method: 'PUT',
      url: () => `${issueUrl()}/notes/${noteId}`,
      field: 'body',
      max: 300_000,
      error: { message: { note: ['is too long (maximum is 300000 bytes)'] } },
      read: () => `${issueUrl()}/notes/${noteId}`,
    },
    {
      name: 'label name (named `title`)',
      method: 'PUT',
      url: () => `/projects/${project.id}/labels/${labelId}`,
      field: 'new_name',
      max: 255,
      error: tooLong('title', 255),
      read: () => `/projects/${project.id}/labels/${labelId}`,
      shownAs: 'name',
    },
    {
      name: 'milestone title',
      method: 'PUT',
      url: () => `/projects/${project.id}/milestones/${milestoneId}`,
      field: 'title',
      max: 255,
      error: tooLong('title', 255),
      read: () => `/projects/${project.id}/milestones/${milestoneId}`,
    },
    { name: 'merge request title', method: 'PUT', url: () => `/projects/${project.id}/merge_requests/1`, field: 'title', max: 255, error: tooLong('title', 255) },
    {
      name: 'project access token description (GitLab answers the plain message)',
      method: 'POST',
      url: () => `/projects/${project.id}/access_tokens`,
      base: () => ({ name: 'bot', scopes: ['api'] }),
      field: 'description',
      max: 255,
      error: { message: 'Description is too long (maximum is 255 characters)' },
    },
    { name: 'protected branch name', method: 'POST', url: () => `/projects/${project.id}/protected_branches`, field: 'name', max: 255, error: tooLong('name', 255) },
    { name: 'runner description', method: 'PUT', url: () => '/runners/999999999', field: 'description', max: 1024, error: tooLong('description', 1024) },
    { name: 'hook URL', method: 'POST', url: () => `/projects/${project.id}/hooks`, field: 'url', max: 2048, error: tooLong('url', 2048) },
  ];

  // The refusals run side by side, then the accepted values (which change what the refusals read):
  // the tests of each block are concurrent, the blocks are not (two concurrent blocks would overlap).
  describe('one character more', () => {
    it.concurrent.each(cases.map((c) => [c.name, c] as const))('%s: one character more is 400 and changes nothing', async (_name, c) => {
      // Arrange
      const token = rootToken();
      const before = c.read ? await api(c.read(), { token: rootToken() }) : undefined;

      // Act
      const response = await api(c.url(), { method: c.method, token, body: { ...c.base?.(), [c.field]: 'a'.repeat(c.max + 1) } });

      // Assert
      expect(response.status, JSON.stringify(response.body).slice(0, 300)).toBe(400);
      expect(response.body).toEqual(c.error);
      expectNothingWritten(response);
      if (c.read && before) expect((await api(c.read(), { token: rootToken() })).body).toEqual(before.body);
    });
  });

  describe('exactly the maximum', () => {
    it.concurrent.each(cases.filter((c) => c.read).map((c) => [c.name, c] as const))('%s: exactly the maximum is accepted', async (_name, c) => {
      // Arrange: a value unlike any other (label names are unique)
      const value = `${unique('v')}${'b'.repeat(c.max)}`.slice(0, c.max);

      // Act
      const response = await api(c.url(), { method: c.method, token: rootToken(), body: { ...c.base?.(), [c.field]: value } });

      // Assert
      expect(response.status, JSON.stringify(response.body).slice(0, 300)).toBeLessThan(300);
      expect((await api(c.read!(), { token: rootToken() })).body[c.shownAs ?? c.field]).toBe(value);
    });
  });
});
