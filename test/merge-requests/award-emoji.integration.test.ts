/**
 * Award emoji on merge requests and their notes over HTTP (GitLab's `API::AwardEmoji` for
 * `merge_requests`): GitLab's entity, `thumbsup`/`thumbsdown` counted in the merge request's
 * `upvotes`/`downvotes` (exactly, under parallel awards), one award per user and name, deleting
 * by the award's user only, notes' awards that never vote, system notes refused, and who may see them.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { api, rootToken } from '../support/api';
import { createUser, newMember, ownedProject, type OwnedProject, type TestUser } from '../support/fixtures';
import { commit, GUEST, mrs, openMergeRequest, REPORTER } from './helpers';

async function award(url: string, token: string, name = 'thumbsup') {
  const response = await api(url, { token, body: { name } });
  expect(response.status, JSON.stringify(response.body)).toBe(201);
  return response.body;
}

describe('award emoji on a merge request', () => {
  let project: OwnedProject;
  let reporter: TestUser;
  let branch = 0;
  /** A new merge request of a branch of its own. */
  const newMergeRequest = async () => {
    const name = `topic-${++branch}`;
    await commit(project.id, project.owner.token, name, { [`${name}.txt`]: 'x\n' }, { start: 'main' });
    return openMergeRequest(project.id, project.owner.token, { source_branch: name, title: `Change ${branch}` });
  };
  const awardsOf = (iid: number) => mrs(project.id, `/${iid}/award_emoji`);
  const votes = async (iid: number) => {
    const { upvotes, downvotes } = (await api(mrs(project.id, `/${iid}`), { token: rootToken() })).body;
    return { upvotes, downvotes };
  };

  beforeAll(async () => {
    project = await ownedProject('private');
    await commit(project.id, project.owner.token, 'main', { 'README.md': '# readme\n' });
    reporter = await newMember(project, REPORTER);
  });

  it("awards with GitLab's entity and counts thumbsup and thumbsdown in upvotes and downvotes, single and listed", async () => {
    const mr = await newMergeRequest();
    const given = await award(awardsOf(mr.iid), reporter.token, 'thumbsup');
    await award(awardsOf(mr.iid), project.owner.token, 'thumbsdown');
    await award(awardsOf(mr.iid), project.owner.token, 'tada');

    expect(given).toEqual({
      id: expect.any(Number),
      name: 'thumbsup',
      user: expect.objectContaining({ id: reporter.id, username: reporter.username }),
      created_at: expect.any(String),
      updated_at: given.created_at,
      awardable_id: mr.id,
      awardable_type: 'MergeRequest',
      url: null,
    });
    expect(await votes(mr.iid)).toEqual({ upvotes: 1, downvotes: 1 });
    const listed = await api(mrs(project.id), { token: reporter.token, query: { 'iids[]': [mr.iid] } });
    expect(listed.body[0]).toMatchObject({ iid: mr.iid, upvotes: 1, downvotes: 1 });
    const awards = await api(awardsOf(mr.iid), { token: reporter.token, query: { per_page: 2 } });
    expect(awards.body.map((entry: { name: string }) => entry.name)).toEqual(['thumbsup', 'thumbsdown']);
    expect(awards.headers.get('x-total')).toBe('3');
    expect((await api(`${awardsOf(mr.iid)}/${given.id}`, { token: reporter.token })).body).toEqual(given);
    // An edit after the votes keeps them.
    expect((await api(mrs(project.id, `/${mr.iid}`), { method: 'PUT', token: project.owner.token, body: { title: 'Renamed' } })).body).toMatchObject({ upvotes: 1, downvotes: 1 });
  });

  it('refuses an unknown name and a second award of the same name, changing nothing', async () => {
    const mr = await newMergeRequest();
    await award(awardsOf(mr.iid), reporter.token);
    const again = await api(awardsOf(mr.iid), { token: reporter.token, body: { name: 'thumbsup' } });
    expect(again).toMatchObject({ status: 404, body: { message: '404 Award Emoji Name has already been taken Not Found' } });
    const unknown = await api(awardsOf(mr.iid), { token: reporter.token, body: { name: 'no-such-emoji' } });
    expect(unknown).toMatchObject({ status: 404, body: { message: '404 Award Emoji Name is not a valid emoji name Not Found' } });
    expect(await votes(mr.iid)).toEqual({ upvotes: 1, downvotes: 0 });
    expect((await api(awardsOf(mr.iid), { token: reporter.token })).body).toHaveLength(1);
  });

  it('counts each of parallel awards once, also against parallel edits of the merge request', async () => {
    const mr = await newMergeRequest();
    const voters = await Promise.all(Array.from({ length: 6 }, () => newMember(project, REPORTER)));
    const vote = (voter: TestUser) => api(awardsOf(mr.iid), { token: voter.token, body: { name: 'thumbsup' } });
    const edit = (n: number) => api(mrs(project.id, `/${mr.iid}`), { method: 'PUT', token: project.owner.token, body: { title: `Edited ${n}` } });
    const answers = await Promise.all([...voters.map(vote), ...voters.map(vote), ...[1, 2, 3].map(edit)]);
    expect(answers.filter((answer) => answer.status === 201)).toHaveLength(voters.length);
    expect(answers.slice(-3).map((answer) => answer.status)).toEqual([200, 200, 200]);
    expect(await votes(mr.iid)).toEqual({ upvotes: voters.length, downvotes: 0 });
  });

  it("lets only the award's user or an admin delete it, and takes the vote back", async () => {
    const mr = await newMergeRequest();
    const mine = await award(awardsOf(mr.iid), reporter.token, 'thumbsdown');
    const other = await award(awardsOf(mr.iid), project.owner.token, 'thumbsup');
    expect((await api(`${awardsOf(mr.iid)}/${mine.id}`, { method: 'DELETE', token: project.owner.token })).status).toBe(401);
    expect((await api(`${awardsOf(mr.iid)}/${mine.id}`, { method: 'DELETE', token: reporter.token })).status).toBe(204);
    expect((await api(`${awardsOf(mr.iid)}/${other.id}`, { method: 'DELETE', token: rootToken() })).status).toBe(204);
    expect(await votes(mr.iid)).toEqual({ upvotes: 0, downvotes: 0 });
    expect((await api(`${awardsOf(mr.iid)}/${mine.id}`, { token: reporter.token })).status).toBe(404);
  });

  it("awards a note without voting on the merge request, refuses system notes, and keeps each awardable's awards apart", async () => {
    const mr = await newMergeRequest();
    const note = (await api(mrs(project.id, `/${mr.iid}/notes`), { token: reporter.token, body: { body: 'Looks good' } })).body;
    const onNote = mrs(project.id, `/${mr.iid}/notes/${note.id}/award_emoji`);
    const given = await award(onNote, project.owner.token, 'thumbsup');
    expect(given).toMatchObject({ awardable_id: note.id, awardable_type: 'Note' });
    expect(await votes(mr.iid)).toEqual({ upvotes: 0, downvotes: 0 });
    expect((await api(onNote, { token: reporter.token })).body.map((entry: { id: number }) => entry.id)).toEqual([given.id]);
    // The merge request's own awards: not the note's, whatever the query says.
    expect((await api(awardsOf(mr.iid), { token: reporter.token, query: { note_id: note.id } })).body).toEqual([]);
    expect((await api(`${awardsOf(mr.iid)}/${given.id}`, { token: reporter.token })).status).toBe(404);

    expect((await api(mrs(project.id, `/${mr.iid}`), { method: 'PUT', token: project.owner.token, body: { title: 'Retitled' } })).status).toBe(200);
    const notes = (await api(mrs(project.id, `/${mr.iid}/notes`), { token: reporter.token })).body as Array<{ id: number; system: boolean }>;
    const system = notes.find((entry) => entry.system)!;
    const refused = await api(mrs(project.id, `/${mr.iid}/notes/${system.id}/award_emoji`), { token: reporter.token, body: { name: 'tada' } });
    expect(refused).toMatchObject({ status: 404, body: { message: '404 Award Emoji Awardable cannot be awarded emoji Not Found' } });
    expect((await api(`${onNote}/${given.id}`, { method: 'DELETE', token: project.owner.token })).status).toBe(204);
    expect((await api(onNote, { token: reporter.token })).body).toEqual([]);
  });

  it('answers 401 without a token and 404 to those who may not read the merge request, writing nothing', async () => {
    const mr = await newMergeRequest();
    expect((await api(awardsOf(mr.iid))).status).toBe(401);
    const [guest, stranger] = [await newMember(project, GUEST), await createUser()];
    for (const user of [guest, stranger]) {
      expect((await api(awardsOf(mr.iid), { token: user.token, body: { name: 'thumbsup' } })).status).toBe(404);
      expect((await api(awardsOf(mr.iid), { token: user.token })).status).toBe(404);
    }
    expect(await votes(mr.iid)).toEqual({ upvotes: 0, downvotes: 0 });
  });
});
