/**
 * What the repository gives merge requests, end to end on the local runtime's DynamoDB and S3:
 * `onBranchesPushed` listeners hear a real `git push` (served in this test's process by the web
 * handler, so that the listeners registered here are the ones called), a merge made by
 * `mergeCommits` lands through `moveBranch` (compare-and-swap: `stale` when the branch moved) and
 * reads back through git, and a fork's commits are readable from its upstream (shared pool) or
 * copied there (`fetchCommits`, separate pools).
 */
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { api, isLocalRuntime } from '../support/api';
import { createUser, ownedProject, type OwnedProject } from '../support/fixtures';
import { cloneUrl, commitFiles, git, gitOk, localRepository, pushNewRepository } from '../support/git';
import { logger } from '../../shared/platform/logger';
import { getProject } from '../../shared/projects';
import { getUser, type User } from '../../shared/users';
import { canMergeCleanly, fetchCommits, keepMergeRequestHead, mergeCommits, moveBranch, onBranchesPushed, openRepository, ZERO_OID, type BranchesPushed } from '../../shared/repository';


/** The git URL of a project on the server this test runs. */
const localUrl = (server: Server, fullPath: string, token: string) => {
  const url = new URL(cloneUrl(fullPath, token));
  url.port = String((server.address() as AddressInfo).port);
  return url.toString();
};

async function projectAndUser(projectId: number, userId: number): Promise<{ repository: Awaited<ReturnType<typeof openRepository>>; user: User }> {
  const project = await getProject(projectId);
  const user = await getUser(userId);
  if (!project || !user) throw new Error('fixture missing');
  return { repository: await openRepository(project), user };
}

describe.skipIf(!isLocalRuntime())('the repository for merge requests', () => {
  let server: Server;
  const heard: BranchesPushed[] = [];
  const unregister: Array<() => void> = [];
  const logged = vi.spyOn(logger, 'error').mockImplementation(() => undefined);

  beforeAll(async () => {
    // The web function (git's smart HTTP) in this process, on the runtime's table and bucket.
    const { installStreamingRuntime } = await import('../../infra/local/lambda-streaming');
    installStreamingRuntime();
    const { createApiServer } = await import('../../infra/local/api-gateway');
    const { handler } = await import('../../functions/web/handler');
    server = createApiServer({ handlers: { web: handler as Parameters<typeof createApiServer>[0]['handlers']['web'] } });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    unregister.push(
      onBranchesPushed(() => {
        throw new Error('a failing listener');
      }),
      onBranchesPushed((event) => {
        heard.push(event);
      }),
    );
  });

  afterAll(async () => {
    logged.mockRestore();
    for (const remove of unregister) remove();
    await new Promise((resolve) => server?.close(resolve));
  });

  let project: OwnedProject;
  let work: string;

  it('calls the listeners after a git push with every branch it changed; a failing listener fails nothing', async () => {
    project = await ownedProject('public');
    work = await localRepository({ 'f.txt': 'one\ntwo\nthree\nfour\nfive\nsix\nseven\n' }, 'base');
    const url = localUrl(server, project.fullPath, project.owner.token);
    const first = (await gitOk(['rev-parse', 'HEAD'], { cwd: work })).trim();
    await gitOk(['push', '-q', url, 'main'], { cwd: work });
    await gitOk(['checkout', '-q', '-b', 'feature'], { cwd: work });
    const feature = await commitFiles(work, { 'f.txt': 'one\ntwo\nthree\nfour\nfive\nsix\nSEVEN\n' }, 'feature change');
    await gitOk(['checkout', '-q', 'main'], { cwd: work });
    const main = await commitFiles(work, { 'f.txt': 'ONE\ntwo\nthree\nfour\nfive\nsix\nseven\n' }, 'main change');
    const pushed = await git(['push', '-q', url, 'main', 'feature'], { cwd: work });
    expect(pushed.code, pushed.stderr).toBe(0);

    const mine = heard.filter((event) => event.project.id === project.id);
    expect(mine.map((event) => ({ user: event.user.id, updates: event.updates }))).toEqual([
      { user: project.owner.id, updates: [{ branch: 'main', before: ZERO_OID, after: first }] },
      {
        user: project.owner.id,
        updates: [
          { branch: 'main', before: first, after: main },
          { branch: 'feature', before: ZERO_OID, after: feature },
        ],
      },
    ]);
  });

  it('merges through mergeCommits and moveBranch: stale when the branch moved, then moved, with the push effects', async () => {
    const { repository, user } = await projectAndUser(project.id, project.owner.id);
    const main = (await repository.ref('refs/heads/main'))!.oid;
    const feature = (await repository.ref('refs/heads/feature'))!.oid;
    expect(await canMergeCleanly(repository, main, feature)).toBe(true);
    const outcome = await mergeCommits(repository, { ours: main, theirs: feature, message: "Merge branch 'feature' into 'main'\n", author: user });
    if (!('commit' in outcome)) throw new Error(`conflicts: ${outcome.conflicts.join(', ')}`);

    heard.length = 0;
    expect(await moveBranch(repository, user, 'main', feature, outcome.commit)).toBe('stale');
    expect(heard).toEqual([]);
    expect(await moveBranch(repository, user, 'main', main, outcome.commit)).toBe('moved');
    expect(heard.map((event) => event.updates)).toEqual([[{ branch: 'main', before: main, after: outcome.commit }]]);
    expect(await moveBranch(repository, user, 'main', main, outcome.commit)).toBe('stale');

    const branch = await api(`/projects/${project.id}/repository/branches/main`, { token: project.owner.token });
    expect(branch.body.commit).toMatchObject({ id: outcome.commit, parent_ids: [main, feature], author_name: user.name, committer_email: user.email });
    // The push event of the merge, as a push by the merging user.
    const events = await api(`/projects/${project.id}/events`, { token: project.owner.token });
    expect(events.body[0]).toMatchObject({ action_name: 'pushed to', author_id: user.id, push_data: { ref: 'main', commit_to: outcome.commit } });

    // git reads the merge back, with the tree git itself merges.
    await gitOk(['fetch', '-q', cloneUrl(project.fullPath, project.owner.token), 'main'], { cwd: work });
    expect((await gitOk(['rev-parse', 'FETCH_HEAD'], { cwd: work })).trim()).toBe(outcome.commit);
    const gitTree = (await gitOk(['merge-tree', '--write-tree', main, feature], { cwd: work })).trim();
    expect((await gitOk(['rev-parse', 'FETCH_HEAD^{tree}'], { cwd: work })).trim()).toBe(gitTree);
    expect((await gitOk(['show', 'FETCH_HEAD:f.txt'], { cwd: work }))).toBe('ONE\ntwo\nthree\nfour\nfive\nsix\nSEVEN\n');
  });

  it('reports conflicts without storing a commit', async () => {
    const url = localUrl(server, project.fullPath, project.owner.token);
    await gitOk(['checkout', '-q', '-b', 'clash', 'FETCH_HEAD'], { cwd: work });
    const clash = await commitFiles(work, { 'f.txt': 'ONE!\ntwo\nthree\nfour\nfive\nsix\nSEVEN\n' }, 'clash');
    await gitOk(['checkout', '-q', '--detach', 'FETCH_HEAD'], { cwd: work });
    const other = await commitFiles(work, { 'f.txt': 'ONE?\ntwo\nthree\nfour\nfive\nsix\nSEVEN\n' }, 'other');
    await gitOk(['push', '-q', url, 'clash', `${other}:refs/heads/other`], { cwd: work });
    const { repository, user } = await projectAndUser(project.id, project.owner.id);
    expect(await canMergeCleanly(repository, other, clash)).toBe(false);
    expect(await mergeCommits(repository, { ours: other, theirs: clash, message: 'x', author: user })).toEqual({ conflicts: ['f.txt'] });
  });

  it("reads a fork's pushed commits from the upstream repository (one pool): nothing to copy", async () => {
    const forker = await createUser();
    const fork = await api(`/projects/${project.id}/fork`, { token: forker.token, body: { namespace_path: forker.username } });
    expect(fork.status, JSON.stringify(fork.body)).toBe(201);
    const forkWork = await localRepository({ 'fork.txt': 'from the fork\n' }, 'unrelated start');
    await gitOk(['fetch', '-q', cloneUrl(fork.body.path_with_namespace, forker.token), 'main'], { cwd: forkWork });
    await gitOk(['checkout', '-q', '-B', 'main', 'FETCH_HEAD'], { cwd: forkWork });
    const forkCommit = await commitFiles(forkWork, { 'fork.txt': 'from the fork\n' }, 'fork work');
    await gitOk(['push', '-q', cloneUrl(fork.body.path_with_namespace, forker.token), 'main:fork-feature'], { cwd: forkWork });

    const upstream = await projectAndUser(project.id, project.owner.id);
    const forked = await projectAndUser(fork.body.id, forker.id);
    expect(forked.repository.pool).toBe(upstream.repository.pool);
    expect((await upstream.repository.read(forkCommit))?.type).toBe('commit');
    expect(await fetchCommits(upstream.repository, forked.repository, forkCommit)).toBe(0);
  });

  it("copies a fork's commits into the upstream repository when their pools differ", async () => {
    // Forked while the upstream had no repository: the fork made its own pool with its first push.
    const upstreamProject = await ownedProject('public');
    const forker = await createUser();
    const fork = await api(`/projects/${upstreamProject.id}/fork`, { token: forker.token, body: { namespace_path: forker.username } });
    expect(fork.status, JSON.stringify(fork.body)).toBe(201);
    const base = await pushNewRepository(upstreamProject.fullPath, upstreamProject.owner.token, { 'f.txt': 'a\nb\nc\nd\ne\n' }, 'base');
    const forkCommit = await commitFiles(base, { 'f.txt': 'a\nb\nc\nd\nE\n', 'new.txt': 'new\n' }, 'fork change');
    await gitOk(['push', '-q', cloneUrl(fork.body.path_with_namespace, forker.token), 'main:feature'], { cwd: base });

    const upstream = await projectAndUser(upstreamProject.id, upstreamProject.owner.id);
    const forked = await projectAndUser(fork.body.id, forker.id);
    expect(forked.repository.pool).not.toBe(upstream.repository.pool);
    expect(await upstream.repository.read(forkCommit)).toBeUndefined();
    // The fork's pack holds the base commit too (its first push), which the upstream has: only the new objects are copied.
    expect(await fetchCommits(upstream.repository, forked.repository, forkCommit)).toBe(4);
    expect((await upstream.repository.read(forkCommit))?.type).toBe('commit');
    expect(await fetchCommits(upstream.repository, forked.repository, forkCommit)).toBe(0);
    const main = (await upstream.repository.ref('refs/heads/main'))!.oid;
    expect(await canMergeCleanly(upstream.repository, main, forkCommit)).toBe(true);
  });

  it('keeps a merge request head ref that clients fetch but pushes neither see nor change', async () => {
    const target = await ownedProject('public');
    const repo = await localRepository({ 'f.txt': 'one\n' }, 'base');
    const url = cloneUrl(target.fullPath, target.owner.token);
    await gitOk(['push', '-q', url, 'main'], { cwd: repo });
    const head = await commitFiles(repo, { 'f.txt': 'two\n' }, 'feature');
    await gitOk(['push', '-q', url, 'HEAD:feature'], { cwd: repo });
    const { repository } = await projectAndUser(target.id, target.owner.id);

    await keepMergeRequestHead(repository, 1, head);
    await keepMergeRequestHead(repository, 1, head);

    const listed = await gitOk(['ls-remote', url], { cwd: repo });
    expect(listed).toContain(`${head}\trefs/merge-requests/1/head`);
    await gitOk(['fetch', '-q', url, 'refs/merge-requests/1/head:refs/remotes/mr/1'], { cwd: repo });
    expect((await gitOk(['rev-parse', 'refs/remotes/mr/1'], { cwd: repo })).trim()).toBe(head);
    const pushed = await git(['push', url, 'HEAD~1:refs/merge-requests/1/head'], { cwd: repo });
    expect(pushed.code).not.toBe(0);
    expect(pushed.stderr).toContain('deny updating a hidden ref');
    expect((await repository.ref('refs/merge-requests/1/head'))?.oid).toBe(head);
  });
});
