/**
 * Deleting a user as GitLab does (`DELETE /users/:id`, `Users::DestroyService`): the deleted
 * user's contributions are shown under the ghost user (its issues and merge requests are moved to
 * it: test/users/ghost-contributions.integration.test.ts) (one internal user, `Ghost User`, made on
 * the first deletion), which cannot be deleted, blocked, edited nor signed in as; a user who solely
 * owns a group is refused with 409 unless `hard_delete` is given. Deletion runs in the background:
 * the tests wait for its outcome.
 */
import { describe, expect, it } from 'vitest';
import { api, rootToken } from '../support/api';
import { addMember, createGroup, createProject, createUser, openIssue, unique, type TestUser } from '../support/fixtures';
import { eventually } from '../support/eventually';

const root = () => ({ token: rootToken() });

interface Author {
  id: number;
  username: string;
  name: string;
}

/** A user with an issue and a note on it in a public project of root's. */
async function contributor(): Promise<{ user: TestUser; project: number; iid: number }> {
  const user = await createUser();
  const project = await createProject(rootToken(), { visibility: 'public' });
  await addMember('projects', project.id, user.id, 30);
  const issue = await openIssue(project.id, user.token);
  const note = await api(`/projects/${project.id}/issues/${issue.iid}/notes`, { token: user.token, body: { body: 'a note' } });
  expect(note.status).toBe(201);
  return { user, project: project.id, iid: issue.iid };
}

/** The author of an issue once the deletion of `userId` has finished (no longer that user). */
async function authorAfterDeletion(project: number, iid: number, userId: number): Promise<Author> {
  return eventually(async () => {
    const issue = await api(`/projects/${project}/issues/${iid}`, root());
    expect(issue.status).toBe(200);
    expect(issue.body.author?.id).not.toBe(userId);
    return issue.body.author as Author;
  });
}

let ghost: Author | undefined;

/** The ghost user (made by the first deletion of this file, or before). */
async function theGhost(): Promise<Author> {
  if (ghost) return ghost;
  const { user, project, iid } = await contributor();
  expect((await api(`/users/${user.id}`, { ...root(), method: 'DELETE' })).status).toBe(200);
  ghost = await authorAfterDeletion(project, iid, user.id);
  return ghost;
}

/** Deletions run in the background (the local runtime's worker), slower on a busy machine. */
const DELETION_TIMEOUT = { timeout: 120_000 };

describe('the ghost user', DELETION_TIMEOUT, () => {
  it('is made once when users are first deleted concurrently', async () => {
    // Prepare: three contributors (the first deletions of this run when the file runs alone).
    const contributors = await Promise.all([contributor(), contributor(), contributor()]);

    // Act
    const deleted = await Promise.all(contributors.map(({ user }) => api(`/users/${user.id}`, { ...root(), method: 'DELETE' })));

    // Assess: every contribution shows the same ghost, and there is one Ghost User.
    expect(deleted.map((response) => response.status)).toEqual([200, 200, 200]);
    const authors = await Promise.all(contributors.map(({ user, project, iid }) => authorAfterDeletion(project, iid, user.id)));
    expect(new Set(authors.map((author) => author.id)).size).toBe(1);
    expect(authors[0]).toMatchObject({ name: 'Ghost User' });
    const ghosts = await api<Author[]>('/users', { ...root(), query: { search: 'Ghost User', per_page: 100 } });
    expect(ghosts.body.filter((user) => user.name === 'Ghost User').map((user) => user.id)).toEqual([authors[0].id]);
    ghost = authors[0];
  });

  it("shows as the author of a deleted user's issue and note, in single reads and lists", async () => {
    // Prepare
    const { user, project, iid } = await contributor();

    // Act
    const deleted = await api(`/users/${user.id}`, { ...root(), method: 'DELETE' });

    // Assess
    expect(deleted.status).toBe(200);
    const author = await authorAfterDeletion(project, iid, user.id);
    const expected = await theGhost();
    expect(author).toMatchObject({ id: expected.id, username: expected.username, name: 'Ghost User', state: 'active' });
    const list = await api(`/projects/${project}/issues`, root());
    expect(list.body.map((issue: { author: Author }) => issue.author.id)).toEqual([expected.id]);
    // The note keeps its author id: shown under the ghost once the user's record is gone (the job's last step).
    await eventually(async () => {
      const notes = await api(`/projects/${project}/issues/${iid}/notes`, root());
      expect(notes.body.filter((note: { system: boolean }) => !note.system).map((note: { author: Author }) => note.author)).toEqual([
        expect.objectContaining({ id: expected.id, name: 'Ghost User' }),
      ]);
    });
  });

  it('is found by username as any user, anonymously too, and has GitLab’s bio', async () => {
    // Prepare
    const expected = await theGhost();

    // Act
    const byUsername = await api('/users', { query: { username: expected.username } });
    const single = await api(`/users/${expected.id}`, root());

    // Assess
    expect(byUsername.status).toBe(200);
    expect(byUsername.body).toEqual([
      expect.objectContaining({ id: expected.id, username: expected.username, name: 'Ghost User', state: 'active' }),
    ]);
    expect(single.body).toMatchObject({
      bio: 'This is a "Ghost User", created to hold all issues authored by users that have since been deleted. This user cannot be removed.',
      bot: false,
    });
  });

  it('cannot be deleted, blocked, edited or given a token, and its username cannot be registered', async () => {
    // Prepare
    const expected = await theGhost();

    // Act
    const deleted = await api(`/users/${expected.id}`, { ...root(), method: 'DELETE' });
    const blocked = await api(`/users/${expected.id}/block`, { ...root(), method: 'POST' });
    const edited = await api(`/users/${expected.id}`, { ...root(), method: 'PUT', body: { name: 'Boo' } });
    const token = await api(`/users/${expected.id}/impersonation_tokens`, { ...root(), body: { name: 't', scopes: ['api'] } });
    const taken = await api('/users', { ...root(), body: { username: expected.username, email: `${unique()}@example.com`, name: 'X', password: 'long-enough' } });

    // Assess
    expect(deleted.status).toBe(403);
    expect(blocked.status).toBe(403);
    expect(blocked.body).toEqual({ message: 'An internal user cannot be blocked' });
    expect(edited.status).toBe(403);
    expect(token.status).toBe(403);
    expect(taken.status).toBe(409);
    expect((await api(`/users/${expected.id}`, root())).body).toMatchObject({ id: expected.id, name: 'Ghost User', state: 'active' });
    expect((await api(`/users/${expected.id}/impersonation_tokens`, root())).body).toEqual([]);
  });
});

describe('DELETE /users/:id of a group owner', DELETION_TIMEOUT, () => {
  it('refuses the sole owner of a group with 409 and changes nothing', async () => {
    // Prepare
    const user = await createUser();
    const group = await createGroup(user.token);

    // Act
    const refused = await api(`/users/${user.id}`, { ...root(), method: 'DELETE' });
    const refusedAsFalse = await api(`/users/${user.id}`, { ...root(), method: 'DELETE', query: { hard_delete: false } });

    // Assess
    expect(refused.status).toBe(409);
    expect(refused.body).toEqual({ message: 'User cannot be removed while is the sole-owner of a group' });
    expect(refusedAsFalse.status).toBe(409);
    expect((await api(`/users/${user.id}`, root())).status).toBe(200);
    expect((await api('/user', { token: user.token })).status).toBe(200);
    const members = await api<Array<{ id: number; access_level: number }>>(`/groups/${group.id}/members`, root());
    expect(members.body).toEqual([expect.objectContaining({ id: user.id, access_level: 50 })]);
  });

  it('deletes an owner who shares ownership, or owns a subgroup of a group with an owner', async () => {
    // Prepare: a shared group, and a subgroup of root's group.
    const user = await createUser();
    const shared = await createGroup(user.token);
    await addMember('groups', shared.id, (await createUser()).id, 50);
    const parent = await createGroup(rootToken());
    const subgroup = await createGroup(rootToken(), { parent_id: parent.id });
    await addMember('groups', subgroup.id, user.id, 50);

    // Act
    const deleted = await api(`/users/${user.id}`, { ...root(), method: 'DELETE' });

    // Assess
    expect(deleted.status).toBe(200);
    expect((await api(`/users/${user.id}`, root())).status).toBe(404);
    expect((await api(`/groups/${shared.id}`, root())).status).toBe(200);
  });

  it('deletes the sole owner with hard_delete=true', async () => {
    // Prepare
    const user = await createUser();
    const group = await createGroup(user.token);

    // Act
    const deleted = await api(`/users/${user.id}`, { ...root(), method: 'DELETE', query: { hard_delete: true } });

    // Assess
    expect(deleted.status).toBe(200);
    expect(deleted.body).toMatchObject({ id: user.id, username: user.username });
    expect((await api(`/users/${user.id}`, root())).status).toBe(404);
    // The groups it solely owned go with it (in the background).
    await eventually(async () => expect((await api(`/groups/${group.id}`, root())).status).toBe(404));
  });

  it('is admin only, before the sole-owner check', async () => {
    const user = await createUser();
    await createGroup(user.token);
    expect((await api(`/users/${user.id}`, { token: user.token, method: 'DELETE' })).status).toBe(403);
  });
});
