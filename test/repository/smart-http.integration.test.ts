/**
 * git's smart HTTP transport with the real `git` CLI: clone, push, fetch (also shallow), tags,
 * deletions, protected branches, racing and atomic pushes, who may clone and push, forks.
 */
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { api, baseUrl, rootToken } from '../support/api';
import { addMember, createUser, newMember, ownedProject, unique } from '../support/fixtures';
import { eventually } from '../support/eventually';
import { cloneUrl, commitFiles, commitMany, git, gitOk, localRepository, scratch } from '../support/git';

const REPORTER = 20;
const DEVELOPER = 30;
const GUEST = 10;

async function pushed(visibility: 'private' | 'internal' | 'public' = 'private') {
  const project = await ownedProject(visibility);
  const work = await localRepository({ 'README.md': '# hello\n', 'src/app.js': 'console.log(1);\n' });
  await gitOk(['push', '-q', cloneUrl(project.fullPath, project.owner.token), 'main'], { cwd: work });
  const head = (await gitOk(['rev-parse', 'HEAD'], { cwd: work })).trim();
  return { project, work, head };
}

describe('clone and push', () => {
  it('clones an empty repository, pushes to it and clones what was pushed', async () => {
    const project = await ownedProject();
    const url = cloneUrl(project.fullPath, project.owner.token);
    const empty = join(scratch(), 'empty');
    const cloned = await git(['clone', url, empty]);
    expect(cloned.code, cloned.stderr).toBe(0);
    expect(cloned.stderr).toContain('empty repository');

    const sha = await commitFiles(empty, { 'README.md': '# first\n', 'bin/data.bin': Buffer.from([0, 1, 2, 255, 254, 0, 10]) }, 'first');
    const push = await git(['push', 'origin', 'HEAD:main'], { cwd: empty });
    expect(push.code, push.stderr).toBe(0);

    const again = join(scratch(), 'again');
    await gitOk(['clone', '-q', url, again]);
    expect((await gitOk(['rev-parse', 'HEAD'], { cwd: again })).trim()).toBe(sha);
    expect(readFileSync(join(again, 'bin/data.bin'))).toEqual(Buffer.from([0, 1, 2, 255, 254, 0, 10]));
    expect(await gitOk(['fsck', '--full'], { cwd: again })).toBe('');

    const statistics = await api(`/projects/${project.id}`, { token: project.owner.token, query: { statistics: true } });
    expect(statistics.body.statistics.repository_size).toBeGreaterThan(0);

    const events = await api(`/projects/${project.id}/events`, { token: project.owner.token });
    const pushEvent = events.body.find((event: { action_name: string }) => event.action_name === 'pushed new');
    expect(pushEvent?.data).toMatchObject({ after: sha, ref: 'refs/heads/main', total_commits_count: 1 });
  });

  it('fetches only what is new, and a shallow clone gets one commit', async () => {
    const { project, work } = await pushed();
    const url = cloneUrl(project.fullPath, project.owner.token);
    const clone = join(scratch(), 'clone');
    await gitOk(['clone', '-q', url, clone]);
    await commitMany(work, [0, 1, 2].map((i) => ({ files: { [`file${i}.txt`]: `content ${i}\n` }, message: `commit ${i}` })));
    await gitOk(['push', '-q', url, 'main'], { cwd: work });

    const fetched = await git(['fetch', 'origin'], { cwd: clone });
    expect(fetched.code, fetched.stderr).toBe(0);
    expect((await gitOk(['rev-parse', 'origin/main'], { cwd: clone })).trim()).toBe((await gitOk(['rev-parse', 'HEAD'], { cwd: work })).trim());

    const shallow = join(scratch(), 'shallow');
    await gitOk(['clone', '-q', '--depth', '1', url, shallow]);
    expect((await gitOk(['rev-list', '--count', 'HEAD'], { cwd: shallow })).trim()).toBe('1');
    expect(readFileSync(join(shallow, 'file2.txt'), 'utf8')).toBe('content 2\n');
    await gitOk(['fetch', '-q', '--deepen', '2'], { cwd: shallow });
    expect((await gitOk(['rev-list', '--count', 'HEAD'], { cwd: shallow })).trim()).toBe('3');
  });

  it.each(['0', '1', '2'])('clones and fetches with protocol version %s, negotiating across rounds', async (version) => {
    const { project, work } = await pushed();
    const url = cloneUrl(project.fullPath, project.owner.token);
    const clone = join(scratch(), `v${version}`);
    await gitOk(['-c', `protocol.version=${version}`, 'clone', '-q', url, clone]);
    // The clone makes many commits of its own: the server must negotiate past them (several rounds of haves).
    await commitMany(clone, Array.from({ length: 40 }, (_, i) => ({ files: { [`local${i}.txt`]: `${i}\n` }, message: `local ${i}` })));
    const remoteTip = await commitFiles(work, { 'remote.txt': 'remote\n' }, 'remote change');
    await gitOk(['push', '-q', url, 'main'], { cwd: work });
    const fetched = await git(['-c', `protocol.version=${version}`, 'fetch', 'origin'], { cwd: clone });
    expect(fetched.code, fetched.stderr).toBe(0);
    expect((await gitOk(['rev-parse', 'origin/main'], { cwd: clone })).trim()).toBe(remoteTip);
    expect(await gitOk(['fsck', '--full'], { cwd: clone })).toBe('');
  });

  it('pushes tags (lightweight and annotated) and deletes a branch', async () => {
    const { project, work, head } = await pushed();
    const url = cloneUrl(project.fullPath, project.owner.token);
    await gitOk(['tag', 'v1.0'], { cwd: work });
    await gitOk(['tag', '-a', 'v1.1', '-m', 'release 1.1'], { cwd: work });
    await gitOk(['push', '-q', url, '--tags', 'main:feature'], { cwd: work });

    const remote = await gitOk(['ls-remote', url]);
    expect(remote).toContain(`${head}\trefs/tags/v1.0`);
    expect(remote).toContain(`${head}\trefs/tags/v1.1^{}`);
    expect(remote).toContain(`${head}\trefs/heads/feature`);
    expect(remote).toContain(`${head}\tHEAD`);

    await gitOk(['push', '-q', url, '--delete', 'feature'], { cwd: work });
    expect(await gitOk(['ls-remote', url])).not.toContain('refs/heads/feature');
  });

  it('pushes many branches and binary files at once', async () => {
    const project = await ownedProject();
    const work = await localRepository({ 'image.png': Buffer.from(Array.from({ length: 4096 }, (_, i) => (i * 7) % 256)) });
    const branches = Array.from({ length: 30 }, (_, i) => `topic/b${i}`);
    await gitOk(['update-ref', '--stdin'], { cwd: work, input: branches.map((branch) => `create refs/heads/${branch} HEAD\n`).join('') });
    await gitOk(['push', '-q', cloneUrl(project.fullPath, project.owner.token), '--all'], { cwd: work });
    const remote = await gitOk(['ls-remote', '--heads', cloneUrl(project.fullPath, project.owner.token)]);
    expect(remote.trim().split('\n')).toHaveLength(branches.length + 1);
  });
});

describe('push size', () => {
  it('refuses a push larger than one request may carry when deployed, saying what to do, and changes nothing', async () => {
    const project = await ownedProject();
    // Over the 4.5 MB a push may carry, under the 6 MB event Lambda accepts (base64: 4/3 of it).
    const work = await localRepository({ 'big.bin': randomBytes(4_600_000) });
    const result = await git(['push', cloneUrl(project.fullPath, project.owner.token), 'main'], { cwd: work });
    expect(result.code).not.toBe(0);
    expect(result.stderr, result.stderr).toContain('one push may carry at most 4.5 MB');
    expect(await gitOk(['ls-remote', cloneUrl(project.fullPath, project.owner.token)])).toBe('');
  });
});

describe('protected branches and racing pushes', () => {
  it('refuses a force-push to a protected branch with GitLab message, and allows a fast-forward', async () => {
    const { project, work } = await pushed();
    const url = cloneUrl(project.fullPath, project.owner.token);
    const protect = await api(`/projects/${project.id}/repository/branches/main/protect`, { method: 'PUT', token: project.owner.token });
    expect(protect.status).toBe(200);

    await gitOk(['commit', '-q', '--amend', '-m', 'rewritten'], { cwd: work });
    const forced = await git(['push', '--force', url, 'main'], { cwd: work });
    expect(forced.code).not.toBe(0);
    expect(forced.stderr).toContain('You are not allowed to force push code to a protected branch on this project.');

    const deleted = await git(['push', url, '--delete', 'main'], { cwd: work });
    expect(deleted.code).not.toBe(0);

    await gitOk(['reset', '-q', '--hard', 'HEAD@{1}'], { cwd: work });
    await commitFiles(work, { 'more.txt': 'more\n' }, 'fast-forward');
    expect((await git(['push', url, 'main'], { cwd: work })).code).toBe(0);
  });

  it('lets exactly one of two racing pushes to a branch win; the other is rejected, nothing is lost', async () => {
    const { project } = await pushed();
    const url = cloneUrl(project.fullPath, project.owner.token);
    const a = join(scratch(), 'a');
    const b = join(scratch(), 'b');
    await gitOk(['clone', '-q', url, a]);
    await gitOk(['clone', '-q', url, b]);
    const shaA = await commitFiles(a, { 'a.txt': 'a\n' }, 'from a');
    const shaB = await commitFiles(b, { 'b.txt': 'b\n' }, 'from b');
    const results = await Promise.all([git(['push', url, 'main'], { cwd: a }), git(['push', url, 'main'], { cwd: b })]);
    expect(results.filter((result) => result.code === 0)).toHaveLength(1);
    const tip = (await gitOk(['ls-remote', url, 'refs/heads/main'])).split('\t')[0];
    expect([shaA, shaB]).toContain(tip);
    const loser = results.find((result) => result.code !== 0)!;
    expect(loser.stderr).toMatch(/failed to update ref|fetch first|rejected/);
  });

  it('an atomic push applies all refs or none', async () => {
    const { project, work } = await pushed();
    const url = cloneUrl(project.fullPath, project.owner.token);
    await gitOk(['push', '-q', url, 'main:feature', 'main:stable'], { cwd: work });
    expect((await api(`/projects/${project.id}/repository/branches/stable/protect`, { method: 'PUT', token: project.owner.token })).status).toBe(200);
    const developer = await newMember(project, DEVELOPER);
    const devUrl = cloneUrl(project.fullPath, developer.token, developer.username);
    const head = await commitFiles(work, { 'x.txt': 'x\n' }, 'next');

    const atomic = await git(['push', '--atomic', devUrl, 'HEAD:feature', 'HEAD:stable'], { cwd: work });

    expect(atomic.code).not.toBe(0);
    expect(await gitOk(['ls-remote', url])).not.toContain(head);
    expect((await git(['push', devUrl, 'HEAD:feature'], { cwd: work })).code).toBe(0);
  });

  it("protects the default branch of the first push, as GitLab's default: developers may not push to it", async () => {
    const { project, work } = await pushed();
    const developer = await newMember(project, DEVELOPER);
    await commitFiles(work, { 'dev.txt': 'dev\n' }, 'by a developer');

    const refused = await git(['push', cloneUrl(project.fullPath, developer.token), 'main'], { cwd: work });

    expect(refused.code).not.toBe(0);
    expect(refused.stderr).toContain('You are not allowed to push code to protected branches on this project.');
    const branch = await api(`/projects/${project.id}/repository/branches/main`, { token: project.owner.token });
    expect(branch.body).toMatchObject({ protected: true, developers_can_push: false, developers_can_merge: false });
    expect((await git(['push', cloneUrl(project.fullPath, project.owner.token), 'main'], { cwd: work })).code).toBe(0);
  });
});

describe('who may clone and push', () => {
  it('clones a public project anonymously; a private one asks for credentials', async () => {
    const publicProject = await pushed('public');
    expect((await git(['ls-remote', cloneUrl(publicProject.project.fullPath)])).code).toBe(0);
    const privateProject = await pushed('private');
    const anonymous = await git(['ls-remote', cloneUrl(privateProject.project.fullPath)]);
    expect(anonymous.code).not.toBe(0);
    expect(anonymous.stderr).toMatch(/could not read Username|Authentication failed/);
    const response = await fetch(`${baseUrl()}/${privateProject.project.fullPath}.git/info/refs?service=git-upload-pack`);
    expect(response.status).toBe(401);
    expect(response.headers.get('www-authenticate')).toMatch(/^Basic/);
  });

  it('refuses bad credentials and blocked users with 401', async () => {
    // git sends credentials only once asked (401): a public project would never see them.
    const { project } = await pushed('private');
    expect((await git(['ls-remote', cloneUrl(project.fullPath, 'not-a-token')])).stderr).toContain('Authentication failed');
    const member = await createUser({ password: 'secret-password' });
    await addMember('projects', project.id, member.id, DEVELOPER);
    expect((await git(['ls-remote', cloneUrl(project.fullPath, member.token)])).code).toBe(0);
    // The user's own password works with their username, as on GitLab.
    expect((await git(['ls-remote', cloneUrl(project.fullPath, 'secret-password', member.username)])).code).toBe(0);
    expect((await git(['ls-remote', cloneUrl(project.fullPath, 'wrong-password', member.username)])).stderr).toContain('Authentication failed');
    expect((await api(`/users/${member.id}/block`, { method: 'POST', token: rootToken() })).status).toBe(201);
    expect((await git(['ls-remote', cloneUrl(project.fullPath, member.token)])).stderr).toContain('Authentication failed');
  });

  it('internal projects: any signed-in user clones; anonymous clients are asked to sign in', async () => {
    const { project } = await pushed('internal');
    const stranger = await createUser();
    expect((await git(['ls-remote', cloneUrl(project.fullPath, stranger.token)])).code).toBe(0);
    expect((await git(['ls-remote', cloneUrl(project.fullPath)])).code).not.toBe(0);
  });

  it('private projects: non-members and guests get "not found"; reporters clone but may not push; developers push', async () => {
    const { project, work } = await pushed('private');
    const stranger = await createUser();
    const strangerResult = await git(['ls-remote', cloneUrl(project.fullPath, stranger.token)]);
    expect(strangerResult.code).not.toBe(0);
    expect(strangerResult.stderr).toMatch(/not found/);
    const guest = await newMember(project, GUEST);
    expect((await git(['ls-remote', cloneUrl(project.fullPath, guest.token)])).code).not.toBe(0);

    const reporter = await newMember(project, REPORTER);
    expect((await git(['ls-remote', cloneUrl(project.fullPath, reporter.token)])).code).toBe(0);
    const refused = await git(['push', cloneUrl(project.fullPath, reporter.token), 'main:reporter'], { cwd: work });
    expect(refused.code).not.toBe(0);
    expect(refused.stderr).toContain('You are not allowed to push code to this project.');

    const developer = await newMember(project, DEVELOPER);
    expect((await git(['push', cloneUrl(project.fullPath, developer.token, developer.username), 'main:developer'], { cwd: work })).code).toBe(0);
  });

  it('answers 404 for unknown repositories and paths that are not git', async () => {
    const user = await createUser();
    const missing = await git(['ls-remote', cloneUrl(`${user.username}/${unique('nothing')}`, user.token)]);
    expect(missing.code).not.toBe(0);
    const response = await fetch(`${baseUrl()}/${user.username}/x.git/info/refs?service=git-frobnicate`);
    expect(response.status).toBe(404);
  });
});

describe('housekeeping', () => {
  it('repacks the pushed packs into one: clones stay whole and the repository does not grow', async () => {
    const { project, work } = await pushed();
    const url = cloneUrl(project.fullPath, project.owner.token);
    for (let i = 0; i < 3; i++) {
      await commitFiles(work, { 'log.txt': `line ${i}\n`.repeat(200 + i) }, `change ${i}`);
      await gitOk(['push', '-q', url, 'main'], { cwd: work });
    }
    const sizeOf = async () => (await api(`/projects/${project.id}`, { token: project.owner.token, query: { statistics: true } })).body.statistics.repository_size;
    const before = await sizeOf();

    const response = await api(`/projects/${project.id}/housekeeping`, { method: 'POST', token: project.owner.token });
    expect(response.status).toBe(201);

    // Thin pushes were completed with copies of their bases: one pack holds each object once.
    expect(await sizeOf()).toBeLessThan(before);
    const clone = join(scratch(), 'after-gc');
    await gitOk(['clone', '-q', url, clone]);
    expect(await gitOk(['fsck', '--full'], { cwd: clone })).toBe('');
    expect((await gitOk(['rev-list', '--count', 'HEAD'], { cwd: clone })).trim()).toBe('4');
  });
});

describe('forks', () => {
  it('a fork clones with its source objects and takes its own pushes', async () => {
    const { project, head } = await pushed('public');
    const forker = await createUser();
    const fork = await api(`/projects/${project.id}/fork`, { token: forker.token, body: { namespace: forker.username } });
    expect(fork.status, JSON.stringify(fork.body)).toBe(201);
    const url = cloneUrl(fork.body.path_with_namespace, forker.token);
    const clone = join(scratch(), 'fork');
    await gitOk(['clone', '-q', url, clone]);
    expect((await gitOk(['rev-parse', 'HEAD'], { cwd: clone })).trim()).toBe(head);
    await commitFiles(clone, { 'fork.txt': 'fork\n' }, 'in the fork');
    await gitOk(['push', '-q', 'origin', 'main'], { cwd: clone });
    // The source does not see the fork's branch move.
    expect((await gitOk(['ls-remote', cloneUrl(project.fullPath), 'refs/heads/main'])).split('\t')[0]).toBe(head);
  });

  it('a fork keeps the objects it shares when its source is deleted', async () => {
    const { project, head } = await pushed('public');
    const forker = await createUser();
    const fork = await api(`/projects/${project.id}/fork`, { token: forker.token, body: { namespace: forker.username } });
    expect(fork.status).toBe(201);
    expect((await api(`/projects/${project.id}`, { method: 'DELETE', token: project.owner.token })).status).toBe(202);

    const clone = join(scratch(), 'orphan');
    await gitOk(['clone', '-q', cloneUrl(fork.body.path_with_namespace, forker.token), clone]);
    expect((await gitOk(['rev-parse', 'HEAD'], { cwd: clone })).trim()).toBe(head);
    expect(await gitOk(['fsck', '--full'], { cwd: clone })).toBe('');
  });

  it("a project created again at a deleted project's path starts with an empty repository", async () => {
    const { project } = await pushed('private');
    const [, path] = project.fullPath.split('/');
    expect((await api(`/projects/${project.id}`, { method: 'DELETE', token: project.owner.token })).status).toBe(202);
    const again = await eventually(async () => {
      const created = await api('/projects', { token: project.owner.token, body: { name: path, path } });
      expect(created.status, JSON.stringify(created.body)).toBe(201);
      return created;
    });
    expect(again.status).toBe(201);
    expect(await gitOk(['ls-remote', cloneUrl(project.fullPath, project.owner.token)])).toBe('');
  });
});
