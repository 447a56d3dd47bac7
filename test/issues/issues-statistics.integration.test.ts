/**
 * GitLab's issues statistics (`project.issues_statistics.get()`, `group.issues_statistics.get()`,
 * `gl.issues_statistics.get()` in python-gitlab; gitbeaker's `IssuesStatistics.all`): the counts
 * by state of the issues the caller may see matching the issue lists' filters.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { api } from '../support/api';
import { addMember, createGroup, createProject, createUser, openIssue, type TestProject, type TestUser } from '../support/fixtures';

const GUEST = 10;
const REPORTER = 20;

type Counts = { all: number; opened: number; closed: number };

describe('issues_statistics', () => {
  let owner: TestUser;
  let guest: TestUser;
  let reporter: TestUser;
  let outsider: TestUser;
  let group: { id: number; fullPath: string };
  let project: TestProject;
  let hidden: TestProject;
  let milestone: { id: number; title: string };
  let assigned: { iid: number };

  /** The counts `path` answers to `user` with `query` (200 asserted). */
  async function counts(path: string, user: TestUser, query: Record<string, string | number | string[]> = {}): Promise<Counts> {
    const response = await api(path, { token: user.token, query });
    expect(response.status, JSON.stringify(response.body)).toBe(200);
    expect(Object.keys(response.body)).toEqual(['statistics']);
    return response.body.statistics.counts;
  }
  const of = (opened: number, closed: number): Counts => ({ all: opened + closed, opened, closed });
  const setState = async (iid: number, state_event: 'close' | 'reopen') =>
    expect((await api(`/projects/${project.id}/issues/${iid}`, { method: 'PUT', token: owner.token, body: { state_event } })).status).toBe(200);

  beforeAll(async () => {
    [owner, guest, reporter, outsider] = await Promise.all([createUser(), createUser(), createUser(), createUser()]);
    group = await createGroup(owner.token, { visibility: 'public' });
    const subgroup = await createGroup(owner.token, { visibility: 'public', parent_id: group.id });
    [project, hidden] = await Promise.all([
      createProject(owner.token, { namespace_id: group.id, visibility: 'public' }),
      createProject(owner.token, { namespace_id: group.id, visibility: 'private' }),
    ]);
    const nested = await createProject(owner.token, { namespace_id: subgroup.id, visibility: 'public' });
    await Promise.all([addMember('projects', project.id, guest.id, GUEST), addMember('projects', project.id, reporter.id, REPORTER)]);
    milestone = (await api(`/projects/${project.id}/milestones`, { token: owner.token, body: { title: 'v1.0' } })).body;
    // Written one after the other: the labels are created on demand by the first issue naming them.
    assigned = await openIssue(project.id, owner.token, { labels: 'bug', milestone_id: milestone.id, assignee_ids: [guest.id] });
    await openIssue(project.id, owner.token, { labels: 'bug,ui', title: 'A zebrafish in the tank' });
    await openIssue(project.id, owner.token, { labels: 'bug', confidential: true });
    await openIssue(project.id, owner.token, { confidential: true, assignee_ids: [guest.id] });
    const closed = await openIssue(project.id, owner.token, { labels: 'ui' });
    await openIssue(project.id, guest.token);
    await setState(closed.iid, 'close');
    await openIssue(hidden.id, owner.token);
    await openIssue(nested.id, owner.token, { labels: 'bug' });
  });

  it("counts a project's issues by state, with the issue lists' filters, as a reporter sees them", async () => {
    const path = `/projects/${project.id}/issues_statistics`;
    const response = await api(`/projects/${encodeURIComponent(project.fullPath)}/issues_statistics`, { token: reporter.token });
    expect(response.body).toEqual({ statistics: { counts: { all: 6, closed: 1, opened: 5 } } });
    const answers = await Promise.all([
      counts(path, reporter, { labels: 'bug' }),
      counts(path, reporter, { labels: 'ui' }),
      counts(path, reporter, { milestone: 'v1.0' }),
      counts(path, reporter, { assignee_id: guest.id }),
      counts(path, reporter, { author_username: guest.username }),
      counts(path, reporter, { search: 'zebrafish' }),
      counts(path, reporter, { confidential: 'true' }),
      counts(path, reporter, { confidential: 'false' }),
      // Two filters no single count serves: counted on the label's list.
      counts(path, reporter, { labels: 'bug', milestone: 'v1.0' }),
      counts(path, reporter, { labels: 'nosuchlabel' }),
      counts(path, reporter, { created_after: '2999-01-01T00:00:00Z' }),
      counts(path, reporter, { 'iids[]': [String(assigned.iid)] }),
      counts(path, reporter, { scope: 'created_by_me' }),
      // `state` is not a filter of the statistics: the counts are by state.
      counts(path, reporter, { state: 'closed' }),
    ]);
    expect(answers).toEqual([of(3, 0), of(1, 1), of(1, 0), of(2, 0), of(1, 0), of(1, 0), of(2, 0), of(3, 1), of(1, 0), of(0, 0), of(0, 0), of(1, 0), of(0, 0), of(5, 1)]);
    // The issue list takes the same filters (and its X-Total the same counts).
    const listed = await api(`/projects/${project.id}/issues`, { token: reporter.token, query: { confidential: 'false', updated_before: '2999-01-01' } });
    expect([listed.body.length, listed.headers.get('x-total')]).toEqual([4, '4']);
    const counted = await api(`/projects/${project.id}/issues`, { token: reporter.token, query: { confidential: 'true' } });
    expect([counted.body.map((issue: { confidential: boolean }) => issue.confidential), counted.headers.get('x-total')]).toEqual([[true, true], '2']);
  });

  it('leaves out what `not[…]` names (labels, milestone, assignee, author, iids), in the counts and in the list', async () => {
    const path = `/projects/${project.id}/issues_statistics`;
    const answers = await Promise.all([
      counts(path, reporter, { 'not[labels]': 'bug' }),
      counts(path, reporter, { 'not[milestone]': 'v1.0' }),
      counts(path, reporter, { 'not[assignee_id]': guest.id }),
      counts(path, reporter, { 'not[author_username]': guest.username }),
      counts(path, reporter, { 'not[iids][]': [String(assigned.iid)], 'not[labels]': 'nosuchlabel' }),
    ]);
    expect(answers).toEqual([of(2, 1), of(4, 1), of(3, 1), of(4, 1), of(4, 1)]);
    const listed = await api(`/projects/${project.id}/issues`, { token: reporter.token, query: { labels: 'bug', 'not[labels]': 'ui' } });
    expect(listed.body.map((issue: { labels: string[] }) => issue.labels)).toEqual([['bug'], ['bug']]);
    const invalid = await api(`/projects/${project.id}/issues`, { token: reporter.token, query: { not: 'bug' } });
    expect([invalid.status, invalid.body]).toEqual([400, { error: 'not is invalid' }]);
  });

  it('counts for a guest only the confidential issues they may see (their own or assigned), and 404 for an outsider of a private project', async () => {
    const path = `/projects/${project.id}/issues_statistics`;
    const answers = await Promise.all([
      counts(path, guest),
      counts(path, guest, { labels: 'bug' }),
      counts(path, guest, { confidential: 'true' }),
      counts(path, guest, { assignee_id: guest.id }),
      counts(path, guest, { scope: 'created_by_me' }),
      counts(path, outsider),
    ]);
    expect(answers).toEqual([of(4, 1), of(2, 0), of(1, 0), of(2, 0), of(1, 0), of(3, 1)]);
    const denied = await api(`/projects/${hidden.id}/issues_statistics`, { token: outsider.token });
    expect([denied.status, denied.body]).toEqual([404, { message: '404 Project Not Found' }]);
    expect((await api(`/projects/${project.id}/issues_statistics`)).status).toBe(401);
    const clash = await api(path, { token: guest.token, query: { author_id: owner.id, author_username: owner.username } });
    expect([clash.status, clash.body]).toEqual([400, { error: 'author_id, author_username are mutually exclusive' }]);
  });

  it('follows closing and reopening an issue', async () => {
    const path = `/projects/${project.id}/issues_statistics`;
    await setState(assigned.iid, 'close');
    expect([await counts(path, reporter), await counts(path, reporter, { milestone: 'v1.0' })]).toEqual([of(4, 2), of(0, 1)]);
    await setState(assigned.iid, 'reopen');
    expect([await counts(path, reporter), await counts(path, reporter, { milestone: 'v1.0' })]).toEqual([of(5, 1), of(1, 0)]);
  });

  it("counts a group's issues (its subgroups' too, private projects for members only) and the caller's own", async () => {
    const path = `/groups/${group.id}/issues_statistics`;
    const answers = await Promise.all([
      counts(path, owner),
      counts(`/groups/${encodeURIComponent(group.fullPath)}/issues_statistics`, outsider),
      counts(path, owner, { labels: 'bug' }),
      counts('/issues_statistics', owner),
      counts('/issues_statistics', owner, { labels: 'ui' }),
      counts('/issues_statistics', guest),
      counts('/issues_statistics', guest, { scope: 'assigned_to_me' }),
    ]);
    expect(answers).toEqual([of(7, 1), of(4, 1), of(4, 0), of(6, 1), of(1, 1), of(1, 0), of(2, 0)]);
    const everyone = await api('/issues_statistics', { token: owner.token, query: { scope: 'all' } });
    expect([everyone.status, everyone.body]).toEqual([400, { error: 'scope does not have a valid value' }]);
    expect((await api('/groups/999999999/issues_statistics', { token: owner.token })).status).toBe(404);
  });
});
