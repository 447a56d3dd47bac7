import { beforeAll, describe, expect, it } from 'vitest';
import { api } from '../support/api';
import { openIssue, createProject, newMember, ownedProject, unique, type OwnedProject } from '../support/fixtures';

const GUEST = 10;

type Counts = { open: number; closed: number };

const issuesUrl = (project: OwnedProject) => `/projects/${project.id}/issues`;
const issueUrl = (project: OwnedProject, iid: number) => `${issuesUrl(project)}/${iid}`;

/** Internal: opens an issue (201 asserted). */
const addIssue = (project: OwnedProject, body: Record<string, unknown> = {}) => openIssue(project.id, project.owner.token, body);

/** Internal: edits an issue (200 asserted). */
async function edit(project: OwnedProject, iid: number, body: Record<string, unknown>) {
  const response = await api(issueUrl(project, iid), { method: 'PUT', token: project.owner.token, body });
  expect(response.status, JSON.stringify(response.body)).toBe(200);
  return response.body;
}

async function addLabel(project: OwnedProject, name: string): Promise<{ id: number; name: string }> {
  const response = await api(`/projects/${project.id}/labels`, { token: project.owner.token, body: { name, color: '#428BCA' } });
  expect(response.status, JSON.stringify(response.body)).toBe(201);
  return response.body;
}

/** Internal: each label's issue counts, by name, as `GET /projects/:id/labels?with_counts=true` shows them. */
async function countsOf(project: OwnedProject): Promise<Record<string, Counts>> {
  const response = await api(`/projects/${project.id}/labels`, { token: project.owner.token, query: { with_counts: true, per_page: 100 } });
  expect(response.status, JSON.stringify(response.body)).toBe(200);
  return Object.fromEntries(
    response.body.map((label: { name: string; open_issues_count: number; closed_issues_count: number }) => [
      label.name,
      { open: label.open_issues_count, closed: label.closed_issues_count },
    ]),
  );
}

const counts = (open: number, closed: number): Counts => ({ open, closed });

describe('label issue counts through the issue lifecycle', () => {
  let project: OwnedProject;
  beforeAll(async () => {
    project = await ownedProject();
  });

  it('counts a new open issue on each of its labels, and shows every count field with with_counts=true', async () => {
    // Prepare
    const [a, b] = [unique('a'), unique('b')];

    // Act
    await addIssue(project, { labels: `${a},${b}` });

    // Assess
    const all = await countsOf(project);
    expect(all[a]).toEqual(counts(1, 0));
    expect(all[b]).toEqual(counts(1, 0));
    const listed = await api(`/projects/${project.id}/labels`, { token: project.owner.token, query: { with_counts: true, search: a } });
    expect(listed.body).toEqual([expect.objectContaining({ name: a, open_issues_count: 1, closed_issues_count: 0, open_merge_requests_count: 0 })]);
    const plain = await api(`/projects/${project.id}/labels`, { token: project.owner.token, query: { search: a } });
    expect(plain.body[0]).not.toHaveProperty('open_issues_count');
  });

  it('moves an issue from open to closed on close, and back on reopen', async () => {
    // Prepare
    const [a, b] = [unique('a'), unique('b')];
    const issue = await addIssue(project, { labels: [a, b] });

    // Act + Assess
    await edit(project, issue.iid, { state_event: 'close' });
    let all = await countsOf(project);
    expect([all[a], all[b]]).toEqual([counts(0, 1), counts(0, 1)]);

    await edit(project, issue.iid, { state_event: 'close' }); // already closed: no change
    all = await countsOf(project);
    expect([all[a], all[b]]).toEqual([counts(0, 1), counts(0, 1)]);

    await edit(project, issue.iid, { state_event: 'reopen' });
    all = await countsOf(project);
    expect([all[a], all[b]]).toEqual([counts(1, 0), counts(1, 0)]);
  });

  it('moves the counts from the labels removed to the labels added on a relabel, open or closed', async () => {
    // Prepare
    const [a, b, c, d] = [unique('a'), unique('b'), unique('c'), unique('d')];
    const open = await addIssue(project, { labels: [a, b] });
    const closed = await addIssue(project, { labels: [a, b] });
    await edit(project, closed.iid, { state_event: 'close' });

    // Act
    await edit(project, open.iid, { labels: `${b},${c}` });
    await edit(project, closed.iid, { labels: `${b},${d}` });

    // Assess
    const all = await countsOf(project);
    expect(all[a]).toEqual(counts(0, 0));
    expect(all[b]).toEqual(counts(1, 1));
    expect(all[c]).toEqual(counts(1, 0));
    expect(all[d]).toEqual(counts(0, 1));
  });

  it('changes the counts once when labels and state change in one edit', async () => {
    // Prepare
    const [a, b] = [unique('a'), unique('b')];
    const issue = await addIssue(project, { labels: a });

    // Act
    await edit(project, issue.iid, { labels: b, state_event: 'close' });

    // Assess
    const all = await countsOf(project);
    expect([all[a], all[b]]).toEqual([counts(0, 0), counts(0, 1)]);
  });

  it('leaves the counts alone when an edit keeps the labels and the state', async () => {
    // Prepare
    const a = unique('a');
    const issue = await addIssue(project, { labels: a });

    // Act
    await edit(project, issue.iid, { title: 'Renamed', labels: a.toUpperCase(), state_event: 'reopen' });

    // Assess
    expect((await countsOf(project))[a]).toEqual(counts(1, 0));
  });

  it('takes a soft-deleted issue out of its labels, open or closed', async () => {
    // Prepare
    const a = unique('a');
    const open = await addIssue(project, { labels: a });
    const closed = await addIssue(project, { labels: a });
    await edit(project, closed.iid, { state_event: 'close' });
    expect((await countsOf(project))[a]).toEqual(counts(1, 1));

    // Act
    const deletions = [
      await api(issueUrl(project, open.iid), { method: 'DELETE', token: project.owner.token }),
      await api(issueUrl(project, closed.iid), { method: 'DELETE', token: project.owner.token }),
    ];

    // Assess
    expect(deletions.map((r) => r.status)).toEqual([204, 204]);
    expect((await countsOf(project))[a]).toEqual(counts(0, 0));
  });

  it('does not count labels a guest names (GitLab ignores them)', async () => {
    // Prepare
    const a = unique('a');
    await addLabel(project, a);
    const guest = await newMember(project, GUEST);

    // Act
    const response = await api(issuesUrl(project), { token: guest.token, body: { title: 'by a guest', labels: a } });

    // Assess
    expect(response.status).toBe(201);
    expect(response.body.labels).toEqual([]);
    expect((await countsOf(project))[a]).toEqual(counts(0, 0));
  });
});

describe('label issue counts on a move', () => {
  it('counts the new issue on the target label of the same name, and the closed original on the source labels', async () => {
    // Prepare
    const source = await ownedProject();
    const created = await createProject(source.owner.token);
    const target: OwnedProject = { ...created, owner: source.owner };
    await addLabel(target, 'Bug');
    const issue = await addIssue(source, { labels: 'bug,only-here' });
    expect(await countsOf(source)).toEqual({ bug: counts(1, 0), 'only-here': counts(1, 0) });

    // Act
    const response = await api(`${issueUrl(source, issue.iid)}/move`, { token: source.owner.token, body: { to_project_id: target.id } });

    // Assess
    expect(response.status, JSON.stringify(response.body)).toBe(201);
    expect(response.body.labels).toEqual(['Bug']);
    expect(await countsOf(source)).toEqual({ bug: counts(0, 1), 'only-here': counts(0, 1) });
    expect(await countsOf(target)).toEqual({ Bug: counts(1, 0) });
  });

  it('leaves the source counts of an already closed original alone', async () => {
    // Prepare
    const source = await ownedProject();
    const created = await createProject(source.owner.token);
    const target: OwnedProject = { ...created, owner: source.owner };
    await addLabel(target, 'bug');
    const issue = await addIssue(source, { labels: 'bug' });
    await edit(source, issue.iid, { state_event: 'close' });

    // Act
    const response = await api(`${issueUrl(source, issue.iid)}/move`, { token: source.owner.token, body: { to_project_id: target.id } });

    // Assess
    expect(response.status, JSON.stringify(response.body)).toBe(201);
    expect(await countsOf(source)).toEqual({ bug: counts(0, 1) });
    expect(await countsOf(target)).toEqual({ bug: counts(1, 0) });
  });
});

describe('label issue counts at the largest transactions', () => {
  const names = (prefix: string) => Array.from({ length: 40 }, (_, i) => `${prefix}-${i}`);

  it('swaps 40 labels for 40 others with every other change and a close in one edit', async () => {
    // Prepare
    const project = await ownedProject();
    const milestone = await api(`/projects/${project.id}/milestones`, { token: project.owner.token, body: { title: 'v1' } });
    expect(milestone.status).toBe(201);
    const issue = await addIssue(project, { labels: names('old') });

    // Act
    const edited = await edit(project, issue.iid, {
      title: 'Everything changed',
      description: 'new',
      labels: names('new'),
      milestone_id: milestone.body.id,
      assignee_ids: [project.owner.id],
      due_date: '2030-01-01',
      confidential: true,
      state_event: 'close',
    });

    // Assess
    expect(edited).toMatchObject({ state: 'closed', title: 'Everything changed' });
    expect(edited.labels).toHaveLength(40);
    const all = await countsOf(project);
    for (const name of names('old')) expect(all[name], name).toEqual(counts(0, 0));
    for (const name of names('new')) expect(all[name], name).toEqual(counts(0, 1));
    const notes = await api(`${issueUrl(project, issue.iid)}/notes`, { token: project.owner.token, query: { per_page: 100 } });
    expect(notes.body).toHaveLength(8);
  });

  it('moves an issue with 40 labels that all exist in the target', async () => {
    // Prepare
    const source = await ownedProject();
    const created = await createProject(source.owner.token);
    const target: OwnedProject = { ...created, owner: source.owner };
    for (const name of names('lbl')) await addLabel(target, name);
    const issue = await addIssue(source, { labels: names('lbl') });

    // Act
    const response = await api(`${issueUrl(source, issue.iid)}/move`, { token: source.owner.token, body: { to_project_id: target.id } });

    // Assess
    expect(response.status, JSON.stringify(response.body)).toBe(201);
    expect(response.body.labels).toHaveLength(40);
    const [fromCounts, toCounts] = [await countsOf(source), await countsOf(target)];
    for (const name of names('lbl')) {
      expect(fromCounts[name], name).toEqual(counts(0, 1));
      expect(toCounts[name], name).toEqual(counts(1, 0));
    }
  });
});

describe('label issue counts after a label is deleted', () => {
  let project: OwnedProject;
  beforeAll(async () => {
    project = await ownedProject();
  });

  const deleteLabel = async (id: number) => {
    const response = await api(`/projects/${project.id}/labels/${id}`, { method: 'DELETE', token: project.owner.token });
    expect(response.status, JSON.stringify(response.body)).toBe(204);
  };

  it('still closes and reopens an issue holding the deleted label, with the other labels counted right', async () => {
    // Prepare
    const [gone, kept] = [await addLabel(project, unique('gone')), await addLabel(project, unique('kept'))];
    const issue = await addIssue(project, { labels: [gone.name, kept.name] });
    await deleteLabel(gone.id);

    // Act
    const closed = await api(issueUrl(project, issue.iid), { method: 'PUT', token: project.owner.token, body: { state_event: 'close' } });

    // Assess
    expect(closed.status, JSON.stringify(closed.body)).toBe(200);
    expect(closed.body).toMatchObject({ state: 'closed', labels: [kept.name] });
    let all = await countsOf(project);
    expect(all[kept.name]).toEqual(counts(0, 1));
    expect(all).not.toHaveProperty(gone.name);

    const reopened = await edit(project, issue.iid, { state_event: 'reopen' });
    expect(reopened.labels).toEqual([kept.name]);
    all = await countsOf(project);
    expect(all[kept.name]).toEqual(counts(1, 0));
  });

  it('does not count a deleted label on a new label of the same name', async () => {
    // Prepare
    const old = await addLabel(project, unique('reborn'));
    const issue = await addIssue(project, { labels: old.name });
    await deleteLabel(old.id);
    const reborn = await addLabel(project, old.name);

    // Act
    const closed = await edit(project, issue.iid, { state_event: 'close' });

    // Assess
    expect(closed.labels).toEqual([]);
    expect((await countsOf(project))[reborn.name]).toEqual(counts(0, 0));
  });

  it('lists an issue whose only label was deleted as unlabelled, without the deleted name', async () => {
    // Prepare
    const only = await addLabel(project, unique('only'));
    const issue = await addIssue(project, { labels: only.name });
    const labelled = await addIssue(project, { labels: unique('still') });
    await deleteLabel(only.id);

    // Act
    const none = await api(issuesUrl(project), { token: project.owner.token, query: { labels: 'No Label', per_page: 100 } });
    const any = await api(issuesUrl(project), { token: project.owner.token, query: { labels: 'Any', per_page: 100 } });
    const single = await api(issueUrl(project, issue.iid), { token: project.owner.token });

    // Assess
    expect(none.status).toBe(200);
    const noneIids = none.body.map((i: { iid: number }) => i.iid);
    expect(noneIids).toContain(issue.iid);
    expect(noneIids).not.toContain(labelled.iid);
    const anyIids = any.body.map((i: { iid: number }) => i.iid);
    expect(anyIids).toContain(labelled.iid);
    expect(anyIids).not.toContain(issue.iid);
    expect(single.body.labels).toEqual([]);
    expect(none.body.find((i: { iid: number }) => i.iid === issue.iid).labels).toEqual([]);
  });
});

describe('label issue counts under concurrency', () => {
  it('counts 8 parallel creates and 8 parallel closes exactly', async () => {
    // Prepare
    const project = await ownedProject();

    // Act: the label does not exist yet, so the creates also race to create it.
    const issues = await Promise.all(Array.from({ length: 8 }, () => addIssue(project, { labels: 'hot' })));

    // Assess
    expect(await countsOf(project)).toEqual({ hot: counts(8, 0) });

    // Act
    const closes = await Promise.all(
      issues.map((issue) => api(issueUrl(project, issue.iid), { method: 'PUT', token: project.owner.token, body: { state_event: 'close' } })),
    );

    // Assess
    expect(closes.map((r) => r.status)).toEqual(Array(8).fill(200));
    expect(await countsOf(project)).toEqual({ hot: counts(0, 8) });
  });

  it('changes the counts once when the same issue is closed by 5 parallel requests', async () => {
    // Prepare
    const project = await ownedProject();
    const issue = await addIssue(project, { labels: 'hot,cold' });
    await addIssue(project, { labels: 'hot' });

    // Act
    const closes = await Promise.all(
      Array.from({ length: 5 }, () => api(issueUrl(project, issue.iid), { method: 'PUT', token: project.owner.token, body: { state_event: 'close' } })),
    );

    // Assess
    expect(closes.map((r) => r.status)).toEqual(Array(5).fill(200));
    expect(await countsOf(project)).toEqual({ hot: counts(1, 1), cold: counts(0, 1) });
  });

  it('keeps the counts exact when relabels and a close race on one issue', async () => {
    // Prepare
    const project = await ownedProject();
    for (const name of ['x', 'y', 'z']) await addLabel(project, name);
    const issue = await addIssue(project, { labels: 'x' });

    // Act
    const responses = await Promise.all([
      api(issueUrl(project, issue.iid), { method: 'PUT', token: project.owner.token, body: { labels: 'y' } }),
      api(issueUrl(project, issue.iid), { method: 'PUT', token: project.owner.token, body: { labels: 'z' } }),
      api(issueUrl(project, issue.iid), { method: 'PUT', token: project.owner.token, body: { state_event: 'close' } }),
    ]);

    // Assess: whatever order won, the counts match the issue as it ended.
    expect(responses.map((r) => r.status)).toEqual([200, 200, 200]);
    const final = (await api(issueUrl(project, issue.iid), { token: project.owner.token })).body;
    expect(final.state).toBe('closed');
    expect(final.labels).toHaveLength(1);
    const expected: Record<string, Counts> = { x: counts(0, 0), y: counts(0, 0), z: counts(0, 0) };
    expected[final.labels[0]] = counts(0, 1);
    expect(await countsOf(project)).toEqual(expected);
  });
});
