/**
 * git over a former path, with the real `git` CLI: after a project rename or its owner's username
 * change, clone, fetch and push by the old address still work, and git shows GitLab's
 * `ContainerMoved` message on its `remote:` lines (side band 2), with the command that points the
 * clone at the new address. By its current path nothing is said.
 */
import { describe, expect, it } from 'vitest';
import { api, rootToken } from '../support/api';
import { createProject, createUser, unique } from '../support/fixtures';
import { cloneUrl, commitFiles, git, gitOk, pushNewRepository, scratch } from '../support/git';

/** What git prints of the message, `remote: ` before each line. */
const movedLines = (from: string, to: string) => [
  `remote: Project '${from}' was moved to '${to}'.`,
  'remote: Please update your Git remote:',
  'remote:   git remote set-url origin http',
  `/${to}.git`,
];

async function pushedProject() {
  const owner = await createUser();
  const project = await createProject(owner.token);
  const work = await pushNewRepository(project.fullPath, owner.token, { 'README.md': '# moved\n' });
  return { owner, project, work };
}

describe('git by a former path', () => {
  it.each(['0', '2'])('after a project rename: clones (protocol %s) and tells where the project moved', async (version) => {
    // Arrange
    const { owner, project } = await pushedProject();
    const newPath = unique('renamed');
    expect((await api(`/projects/${project.id}`, { method: 'PUT', token: owner.token, body: { path: newPath } })).status).toBe(200);
    const now = `${owner.username}/${newPath}`;

    // Act
    const target = scratch('moved-');
    const cloned = await git(['-c', `protocol.version=${version}`, 'clone', cloneUrl(project.fullPath, owner.token), target]);
    const current = await git(['-c', `protocol.version=${version}`, 'clone', cloneUrl(now, owner.token), scratch('current-')]);

    // Assert
    expect(cloned.code, cloned.stderr).toBe(0);
    expect(await gitOk(['log', '--format=%s', '-1'], { cwd: target })).toContain('initial commit');
    for (const line of movedLines(project.fullPath, now)) expect(cloned.stderr).toContain(line);
    expect(current.code, current.stderr).toBe(0);
    expect(current.stderr).not.toContain('was moved to');
  });

  it('after the owner’s username change: clone, then fetch and push by the old address, each told', async () => {
    // Arrange
    const { owner, project, work } = await pushedProject();
    const clone = scratch('user-moved-');
    await gitOk(['clone', '-q', cloneUrl(project.fullPath, owner.token), clone]);
    const newUsername = unique('renamed');
    expect((await api(`/users/${owner.id}`, { method: 'PUT', token: rootToken(), body: { username: newUsername } })).status).toBe(200);
    const now = `${newUsername}/${project.path}`;
    const pushedSha = await commitFiles(work, { 'CHANGELOG.md': 'v2\n' }, 'second');
    await gitOk(['push', '-q', cloneUrl(now, owner.token), 'HEAD:refs/heads/main'], { cwd: work });

    // Act
    const fetched = await git(['fetch', 'origin'], { cwd: clone });
    const localSha = await commitFiles(clone, { 'NOTES.md': 'from the old address\n' }, 'third');
    const pushed = await git(['push', 'origin', 'HEAD:refs/heads/from-old-address'], { cwd: clone });

    // Assert
    expect(fetched.code, fetched.stderr).toBe(0);
    expect((await gitOk(['rev-parse', 'origin/main'], { cwd: clone })).trim()).toBe(pushedSha);
    for (const line of movedLines(project.fullPath, now)) expect(fetched.stderr).toContain(line);
    expect(pushed.code, pushed.stderr).toBe(0);
    for (const line of movedLines(project.fullPath, now)) expect(pushed.stderr).toContain(line);
    const branch = await api(`/projects/${project.id}/repository/branches/from-old-address`, { token: owner.token });
    expect(branch.status).toBe(200);
    expect(branch.body.commit.id).toBe(localSha);
  });

  it('a stranger gets no message and no project by the old path of a private project', async () => {
    // Arrange
    const { owner, project } = await pushedProject();
    const stranger = await createUser();
    expect((await api(`/projects/${project.id}`, { method: 'PUT', token: owner.token, body: { path: unique('hidden') } })).status).toBe(200);

    // Act
    const refused = await git(['clone', cloneUrl(project.fullPath, stranger.token), scratch('stranger-')]);

    // Assert
    expect(refused.code).not.toBe(0);
    expect(refused.stderr).not.toContain('was moved to');
  });
});
