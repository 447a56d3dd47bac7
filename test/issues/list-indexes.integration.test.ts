/**
 * Issue lists served by their own indexes (ACCESS_PATTERNS.md #59-#61): the filtered lists
 * (labels, milestone, assignee, author), search by word prefixes, and totals from maintained
 * counts. What a user relies on: the right issues, in order, with exact totals, whatever happened
 * to them (state changes, relabels, edits, deletion, concurrent writes).
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { issueCollections, issueIndexKeys, issueKeys } from '../../shared/issues/store/keys';
import { importIssues, listIssuesInEveryState, reindexProjectIssues } from '../../shared/issues';
import { deleteMany, putMany } from '../../shared/platform/dynamo/batch';
import { tableCollection } from '../../shared/platform/dynamo/keys';
import { getItem, queryAll } from '../../shared/platform/dynamo/query';
import { api, isLocalRuntime } from '../support/api';
import { addMember, createProject, createUser, newMember, openIssue, openIssuesCount, ownedProject, unique, type OwnedProject, type TestUser } from '../support/fixtures';

const DEVELOPER = 30;
const GUEST = 10;

type Listed = { iid: number; title: string };

async function list(project: { id: number }, token: string, query: Record<string, string | number>) {
  const response = await api<Listed[]>(`/projects/${project.id}/issues`, { token, query: { per_page: 100, ...query } });
  expect(response.status, JSON.stringify(response.body)).toBe(200);
  return { iids: response.body.map((issue) => issue.iid), total: response.headers.get('x-total'), headers: response.headers };
}

async function edit(project: OwnedProject, iid: number, body: Record<string, unknown>) {
  const response = await api(`/projects/${project.id}/issues/${iid}`, { method: 'PUT', token: project.owner.token, body });
  expect(response.status, JSON.stringify(response.body)).toBe(200);
  return response.body;
}

describe('filtered issue lists', () => {
  let project: OwnedProject;
  let assignee: TestUser;
  let milestone: { id: number; title: string };
  const [l1, l2] = [unique('l1'), unique('l2')];
  const iid: Record<string, number> = {};

  beforeAll(async () => {
    project = await ownedProject();
    assignee = await newMember(project, DEVELOPER);
    milestone = (await api(`/projects/${project.id}/milestones`, { token: project.owner.token, body: { title: unique('m') } })).body;
    iid.a = (await openIssue(project.id, project.owner.token, { title: 'a', labels: l1, milestone_id: milestone.id, assignee_ids: [assignee.id] })).iid;
    iid.b = (await openIssue(project.id, project.owner.token, { title: 'b', labels: `${l1},${l2}` })).iid;
    iid.c = (await openIssue(project.id, project.owner.token, { title: 'c' })).iid;
    iid.d = (await openIssue(project.id, assignee.token, { title: 'd', labels: l2 })).iid;
  });

  it('lists a label, a milestone, an assignee and an author, newest first, with exact totals', async () => {
    expect(await list(project, project.owner.token, { labels: l1 })).toMatchObject({ iids: [iid.b, iid.a], total: '2' });
    expect(await list(project, project.owner.token, { labels: `${l1},${l2}` })).toMatchObject({ iids: [iid.b] });
    expect(await list(project, project.owner.token, { milestone: milestone.title })).toMatchObject({ iids: [iid.a], total: '1' });
    // Titles match exactly, as in GitLab (the title claim itself ignores case).
    expect(await list(project, project.owner.token, { milestone: milestone.title.toUpperCase() })).toMatchObject({ iids: [] });
    expect(await list(project, project.owner.token, { assignee_id: assignee.id })).toMatchObject({ iids: [iid.a], total: '1' });
    expect(await list(project, project.owner.token, { assignee_id: 'None' })).toMatchObject({ iids: [iid.d, iid.c, iid.b] });
    expect(await list(project, project.owner.token, { author_id: assignee.id })).toMatchObject({ iids: [iid.d], total: '1' });
    expect(await list(project, project.owner.token, { author_id: project.owner.id, sort: 'asc' })).toMatchObject({ iids: [iid.a, iid.b, iid.c], total: '3' });
    expect(await list(project, project.owner.token, { labels: l2, order_by: 'updated_at' })).toMatchObject({ iids: [iid.d, iid.b], total: '2' });
  });

  it('follows closing, reopening and relabelling', async () => {
    await edit(project, iid.a, { state_event: 'close' });
    expect(await list(project, project.owner.token, { labels: l1, state: 'closed' })).toMatchObject({ iids: [iid.a], total: '1' });
    expect(await list(project, project.owner.token, { labels: l1, state: 'opened' })).toMatchObject({ iids: [iid.b], total: '1' });

    await edit(project, iid.b, { labels: l2 });
    expect(await list(project, project.owner.token, { labels: l1 })).toMatchObject({ iids: [iid.a], total: '1' });
    expect(await list(project, project.owner.token, { labels: l2 })).toMatchObject({ iids: [iid.d, iid.b], total: '2' });

    await edit(project, iid.a, { state_event: 'reopen', milestone_id: 0 });
    expect(await list(project, project.owner.token, { labels: l1, state: 'opened' })).toMatchObject({ iids: [iid.a], total: '1' });
    expect(await list(project, project.owner.token, { milestone: milestone.title })).toMatchObject({ iids: [], total: '0' });
  });

  it('leaves a deleted issue out of every list and count', async () => {
    const doomed = await openIssue(project.id, project.owner.token, { title: 'doomed', labels: l2, assignee_ids: [assignee.id] });
    expect((await list(project, project.owner.token, { assignee_id: assignee.id })).total).toBe('2');
    expect((await api(`/projects/${project.id}/issues/${doomed.iid}`, { method: 'DELETE', token: project.owner.token })).status).toBe(204);
    expect(await list(project, project.owner.token, { assignee_id: assignee.id })).toMatchObject({ total: '1' });
    expect((await list(project, project.owner.token, { labels: l2 })).iids).not.toContain(doomed.iid);
  });

  it('follows a label name and a milestone title to what they name now, not to what they named before', async () => {
    const owner = project.owner.token;
    const [x, y, z] = [unique('x'), unique('y'), unique('z')];
    const labelIds = [];
    for (const name of [x, y]) {
      labelIds.push((await api(`/projects/${project.id}/labels`, { method: 'POST', token: owner, body: { name, color: '#ff0000' } })).body.id as number);
    }
    const first = (await api(`/projects/${project.id}/milestones`, { method: 'POST', token: owner, body: { title: z } })).body;
    const twoX = [await openIssue(project.id, owner, { title: 'x1', labels: x, milestone_id: first.id }), await openIssue(project.id, owner, { title: 'x2', labels: x, milestone_id: first.id })];
    const oneY = await openIssue(project.id, owner, { title: 'y1', labels: y });
    // Listed once: the names resolved (and may be remembered).
    expect(await list(project, owner, { labels: x })).toMatchObject({ iids: [twoX[1].iid, twoX[0].iid], total: '2' });
    expect(await list(project, owner, { milestone: z })).toMatchObject({ iids: [twoX[1].iid, twoX[0].iid], total: '2' });

    // The two labels swap names; the milestone is deleted and another takes its title.
    const rename = (id: number, name: string) => api(`/projects/${project.id}/labels/${id}`, { method: 'PUT', token: owner, body: { new_name: name } });
    expect((await rename(labelIds[0], unique('tmp'))).status).toBe(200);
    expect((await rename(labelIds[1], x)).status).toBe(200);
    expect((await api(`/projects/${project.id}/milestones/${first.id}`, { method: 'DELETE', token: owner })).status).toBe(204);
    const second = (await api(`/projects/${project.id}/milestones`, { method: 'POST', token: owner, body: { title: z } })).body;
    const inSecond = await openIssue(project.id, owner, { title: 'z2', milestone_id: second.id });

    expect(await list(project, owner, { labels: x })).toMatchObject({ iids: [oneY.iid], total: '1' });
    expect(await list(project, owner, { milestone: z })).toMatchObject({ iids: [inSecond.iid], total: '1' });
  });

  it('answers 400 for an assignee_id that is neither an id nor None/Any', async () => {
    const response = await api(`/projects/${project.id}/issues`, { token: project.owner.token, query: { assignee_id: 'someone' } });
    expect(response.status).toBe(400);
  });
});

describe('issue search', () => {
  let project: OwnedProject;
  let login: { iid: number };
  let logout: { iid: number };

  beforeAll(async () => {
    project = await ownedProject();
    login = await openIssue(project.id, project.owner.token, { title: 'Login page crashes', description: 'Only on Safari 17' });
    logout = await openIssue(project.id, project.owner.token, { title: 'Logout button' });
  });

  it('finds issues by word prefixes of the title or the description, case-insensitively', async () => {
    expect((await list(project, project.owner.token, { search: 'LOG' })).iids).toEqual([logout.iid, login.iid]);
    expect((await list(project, project.owner.token, { search: 'crash' })).iids).toEqual([login.iid]);
    expect((await list(project, project.owner.token, { search: 'safari' })).iids).toEqual([login.iid]);
    expect((await list(project, project.owner.token, { search: 'login crashes' })).iids).toEqual([login.iid]);
    // GitLab: every word in one column; "login" is in the title, "safari" in the description.
    expect((await list(project, project.owner.token, { search: 'login safari' })).iids).toEqual([]);
    expect((await list(project, project.owner.token, { search: 'logout', state: 'closed' })).iids).toEqual([]);
  });

  it('follows edits and deletion', async () => {
    await edit(project, login.iid, { title: 'Sign-in page crashes' });
    expect((await list(project, project.owner.token, { search: 'login' })).iids).toEqual([]);
    expect((await list(project, project.owner.token, { search: 'sign' })).iids).toEqual([login.iid]);
    await api(`/projects/${project.id}/issues/${logout.iid}`, { method: 'DELETE', token: project.owner.token });
    expect((await list(project, project.owner.token, { search: 'logout' })).iids).toEqual([]);
  });

  it('does not show a confidential issue to whom may not read it', async () => {
    const secret = await openIssue(project.id, project.owner.token, { title: 'Secret rotation', confidential: true });
    const guest = await newMember(project, GUEST);
    expect((await list(project, project.owner.token, { search: 'secret' })).iids).toEqual([secret.iid]);
    expect((await list(project, guest.token, { search: 'secret' })).iids).toEqual([]);
  });
});

describe('totals', () => {
  it('keeps X-Total exact past the counting bound from the maintained counts, and leaves it out where none serves', async () => {
    const project = await ownedProject();
    const label = unique('bulk');
    for (let i = 0; i < 11; i++) {
      await Promise.all(Array.from({ length: 10 }, (_, j) => openIssue(project.id, project.owner.token, { title: `bulk ${i * 10 + j}`, labels: label })));
    }
    expect((await list(project, project.owner.token, { per_page: 5 })).total).toBe('110');
    expect((await list(project, project.owner.token, { per_page: 5, labels: label })).total).toBe('110');
    // No count serves a search: counting stops one Query page past this one.
    const searched = await list(project, project.owner.token, { per_page: 5, search: 'bulk' });
    expect(searched.total).toBeNull();
    expect(searched.headers.get('x-next-page')).toBe('2');

    // A client walking the rel="next" links still gets every issue.
    const seen = new Set<number>();
    let next: URL | undefined = new URL(`http://link/api/v4/projects/${project.id}/issues?search=bulk&per_page=50`);
    while (next) {
      const page: { body: Listed[]; headers: Headers } = await api<Listed[]>(next.pathname.replace(/^.*\/api\/v4/, ''), { token: project.owner.token, query: next.searchParams });
      expect(page.body.length).toBeGreaterThan(0);
      page.body.forEach((issue: Listed) => seen.add(issue.iid));
      const link = /<([^>]+)>; rel="next"/.exec(page.headers.get('link') ?? '')?.[1];
      next = link ? new URL(link) : undefined;
    }
    expect(seen.size).toBe(110);
  }, 180_000);

  it('counts for a caller who cannot see confidential issues without showing their number', async () => {
    const owner = await createUser();
    const project = await createProject(owner.token, { visibility: 'public' });
    for (const confidential of [false, true, false]) await openIssue(project.id, owner.token, { title: 't', confidential });
    const stranger = await createUser();
    expect(await list(project, owner.token, { per_page: 1 })).toMatchObject({ total: '3' });
    expect(await list(project, stranger.token, { per_page: 1 })).toMatchObject({ total: '2' });
  });

  it('stays exact under concurrent creates and racing closes', async () => {
    const project = await ownedProject();
    const label = unique('race');
    const issues = await Promise.all(Array.from({ length: 10 }, () => openIssue(project.id, project.owner.token, { title: 'race', labels: label })));
    const closing = issues.slice(0, 5);
    await Promise.all(
      [...closing, ...closing].map((issue) => api(`/projects/${project.id}/issues/${issue.iid}`, { method: 'PUT', token: project.owner.token, body: { state_event: 'close' } })),
    );
    const opened = await list(project, project.owner.token, { labels: label, state: 'opened', per_page: 2 });
    const closed = await list(project, project.owner.token, { labels: label, state: 'closed', per_page: 2 });
    expect([opened.total, closed.total]).toEqual(['5', '5']);
    expect((await list(project, project.owner.token, { state: 'closed', per_page: 2 })).total).toBe('5');
    expect((await list(project, project.owner.token, { author_id: project.owner.id, state: 'opened', per_page: 2 })).total).toBe('5');
  });
});

describe.skipIf(!isLocalRuntime())('stale list entries', () => {
  it('leaves out and removes an entry whose issue does not stand for it', async () => {
    const project = await ownedProject();
    const member = await createUser();
    await addMember('projects', project.id, member.id, DEVELOPER);
    const real = await openIssue(project.id, project.owner.token, { title: 'real', assignee_ids: [member.id] });
    // An entry left by an interrupted write: it names an issue that is not in this list.
    const dimension = `assignee:${member.id}`;
    const stale = {
      ...issueKeys.listEntry(project.id, dimension, 'opened', real.iid + 1000),
      ...issueIndexKeys.listEntry(project.id, dimension, 'opened', '2999-01-01T00:00:00.000Z', 999_999),
      type: 'IssueEntry',
      iid: real.iid + 1000,
      version: 1,
    };
    await putMany([stale]);

    expect((await list(project, project.owner.token, { assignee_id: member.id })).iids).toEqual([real.iid]);
    expect(await getItem({ PK: stale.PK, SK: stale.SK })).toBeUndefined();
  });
});

describe.skipIf(!isLocalRuntime())('importing issues through the data layer', () => {
  it('lists them in every list, by creation, with exact totals and counts', async () => {
    const project = await ownedProject();
    const label = (await api(`/projects/${project.id}/labels`, { token: project.owner.token, body: { name: unique('imported'), color: '#428BCA' } })).body as {
      id: number;
      name: string;
    };
    const at = (minute: number) => new Date(Date.UTC(2026, 0, 1, 0, minute)).toISOString();
    await importIssues(project.id, [
      { title: 'Imported quokka', state: 'opened', authorId: project.owner.id, labelIds: [label.id], createdAt: at(1) },
      { title: 'Imported closed', state: 'closed', authorId: project.owner.id, createdAt: at(2) },
      { title: 'Imported confidential', state: 'opened', authorId: project.owner.id, labelIds: [label.id], confidential: true, createdAt: at(3) },
    ]);

    expect(await list(project, project.owner.token, {})).toMatchObject({ iids: [3, 2, 1], total: '3' });
    expect(await list(project, project.owner.token, { state: 'opened', sort: 'asc' })).toMatchObject({ iids: [1, 3], total: '2' });
    expect(await list(project, project.owner.token, { labels: label.name })).toMatchObject({ iids: [3, 1], total: '2' });
    expect(await list(project, project.owner.token, { author_id: project.owner.id, state: 'closed' })).toMatchObject({ iids: [2], total: '1' });
    expect((await list(project, project.owner.token, { search: 'quokka' })).iids).toEqual([1]);
    expect(await openIssuesCount(project)).toBe(2);
    const labels = (await api(`/projects/${project.id}/labels`, { token: project.owner.token, query: { with_counts: 'true' } })).body as Array<{ name: string; open_issues_count: number }>;
    expect(labels.find((l) => l.name === label.name)?.open_issues_count).toBe(2);
  });
});

describe.skipIf(!isLocalRuntime())('rebuilding the indexes of issues written before they existed', () => {
  it('brings back the filtered lists, the search and the exact totals', async () => {
    const project = await ownedProject();
    const label = unique('old');
    const issues = [
      await openIssue(project.id, project.owner.token, { title: 'Legacy importer', labels: label }),
      await openIssue(project.id, project.owner.token, { title: 'Legacy exporter', labels: label, confidential: true }),
    ];
    // The table as an older version left it: no entries, no counts.
    const derived = (await queryAll(tableCollection(`PROJECT#${project.id}`, 'ISSUE_'))).filter((item) => /^ISSUE_(ENTRY|TERM|COUNT)#/.test(item.SK));
    expect(derived.length).toBeGreaterThan(0);
    await deleteMany(derived.map(({ PK, SK }) => ({ PK, SK })));
    expect((await list(project, project.owner.token, { labels: label })).iids).toEqual([]);

    expect(await reindexProjectIssues(project.id)).toBe(2);
    expect(await reindexProjectIssues(project.id)).toBe(2);

    expect(await list(project, project.owner.token, { labels: label, per_page: 1 })).toMatchObject({ iids: [issues[1].iid], total: '2' });
    expect((await list(project, project.owner.token, { search: 'legacy' })).iids).toEqual([issues[1].iid, issues[0].iid]);
    expect((await list(project, project.owner.token, { per_page: 1 })).total).toBe('2');
  });

  it('puts the entries of the first version into the lists of every state', async () => {
    const project = await ownedProject();
    const label = unique('v1');
    const closed = await openIssue(project.id, project.owner.token, { title: 'closed one', labels: label });
    await edit(project, closed.iid, { state_event: 'close' });
    const opened = await openIssue(project.id, project.owner.token, { title: 'open one', labels: label });
    // Entries as the first version wrote them: in the list of their state only.
    const entries = (await queryAll(tableCollection(`PROJECT#${project.id}`, 'ISSUE_ENTRY#'))).map(({ GSI2PK: _pk, GSI2SK: _sk, ...v1 }) => v1);
    await putMany(entries);
    expect((await list(project, project.owner.token, { labels: label })).iids).toEqual([]);
    expect((await list(project, project.owner.token, { labels: label, state: 'closed' })).iids).toEqual([closed.iid]);

    await reindexProjectIssues(project.id);

    expect(await list(project, project.owner.token, { labels: label })).toMatchObject({ iids: [opened.iid, closed.iid], total: '2' });
  });

  it("puts the issues of the second version into their project's list of every state, by creation", async () => {
    const project = await ownedProject();
    const closed = await openIssue(project.id, project.owner.token, { title: 'closed one' });
    await edit(project, closed.iid, { state_event: 'close' });
    const opened = await openIssue(project.id, project.owner.token, { title: 'open one' });
    // Issue items as the second version wrote them: in the lists of their state only.
    const issues = await queryAll(issueCollections.projectIssueItems(project.id));
    expect(issues.map((item) => item.GSI7PK)).toEqual([`PROJECT_ISSUES#${project.id}#all`, `PROJECT_ISSUES#${project.id}#all`]);
    await putMany(issues.map(({ GSI7PK: _pk, GSI7SK: _sk, ...v2 }) => v2));
    expect((await list(project, project.owner.token, {})).iids).toEqual([]);
    expect((await list(project, project.owner.token, { state: 'closed' })).iids).toEqual([closed.iid]);

    await reindexProjectIssues(project.id);

    expect(await list(project, project.owner.token, {})).toMatchObject({ iids: [opened.iid, closed.iid], total: '2' });
    expect(await list(project, project.owner.token, { sort: 'asc', per_page: 1 })).toMatchObject({ iids: [closed.iid], total: '2' });
  });

  it("puts the issues of the third version into their project's list of every state by update, and leaves alone one written meanwhile", async () => {
    const project = await ownedProject();
    const older = await openIssue(project.id, project.owner.token, { title: 'older' });
    const newer = await openIssue(project.id, project.owner.token, { title: 'newer' });
    await edit(project, older.iid, { state_event: 'close' }); // updated last: first by update
    const third = await openIssue(project.id, project.owner.token, { title: 'third' });
    const byUpdate = { order_by: 'updated_at' };
    expect((await list(project, project.owner.token, byUpdate)).iids).toEqual([third.iid, older.iid, newer.iid]);
    // Issue items as the third version wrote them: in the list of every state by creation only.
    const items = await queryAll(issueCollections.projectIssueItems(project.id));
    expect(items.map((item) => item.GSI8PK)).toEqual(items.map(() => `PROJECT_ISSUES#${project.id}#all`));
    await putMany(items.map(({ GSI8PK: _pk, GSI8SK: _sk, ...v3 }) => v3));
    expect((await list(project, project.owner.token, byUpdate)).iids).toEqual([]);
    expect((await list(project, project.owner.token, {})).iids).toEqual([third.iid, newer.iid, older.iid]);
    // Written meanwhile (the whole item put again, with its lists): not the version the migration read.
    await edit(project, third.iid, { title: 'third, renamed' });

    expect(await listIssuesInEveryState(project.id)).toBe(2);
    expect(await listIssuesInEveryState(project.id)).toBe(0);

    expect(await list(project, project.owner.token, byUpdate)).toMatchObject({ iids: [third.iid, older.iid, newer.iid], total: '3' });
    expect(await list(project, project.owner.token, { ...byUpdate, sort: 'asc', per_page: 1 })).toMatchObject({ iids: [newer.iid], total: '3' });
  });
});

describe('label search', () => {
  it('finds labels by word prefixes of the name or description, follows renames and deletion', async () => {
    const project = await ownedProject();
    const add = async (name: string, description?: string) =>
      (await api(`/projects/${project.id}/labels`, { token: project.owner.token, body: { name, color: '#428BCA', description } })).body as { id: number; name: string };
    const search = async (q: string) =>
      ((await api(`/projects/${project.id}/labels`, { token: project.owner.token, query: { search: q } })).body as Array<{ name: string }>).map((l) => l.name);
    const backend = await add('Backend', 'Server side work');
    await add('frontend', 'Browser');
    await add('bug');

    expect(await search('BACK')).toEqual(['Backend']);
    expect(await search('server')).toEqual(['Backend']);
    expect(await search('end')).toEqual([]); // found where a word starts, not inside "Backend"
    expect(await search('bug')).toEqual(['bug']);

    expect((await api(`/projects/${project.id}/labels/${backend.id}`, { method: 'PUT', token: project.owner.token, body: { new_name: 'API' } })).status).toBe(200);
    expect(await search('backend')).toEqual([]);
    expect(await search('api')).toEqual(['API']);
    expect((await api(`/projects/${project.id}/labels/${backend.id}`, { method: 'DELETE', token: project.owner.token })).status).toBe(204);
    expect(await search('server')).toEqual([]);
  });
});
