/**
 * `afterPush` end to end against a mocked table (the writes it makes: the project's activity, feed
 * events, outbox items) and real repositories read in memory: which events and hook events a push
 * makes (GitLab's limits of three refs per kind and action), what they carry, that a short push
 * reads little, and that failures never escape.
 */
import { PutCommand, TransactWriteCommand, UpdateCommand, type UpdateCommandInput } from '@aws-sdk/lib-dynamodb';
import { marshall } from '@aws-sdk/util-dynamodb';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { resetConfig } from '../../../shared/platform/config';
import { logger } from '../../../shared/platform/logger';
import { hookEventFromImage } from '../../../shared/hooks/store/hook-events';
import type { Namespace } from '../../../shared/namespaces/store/namespaces';
import type { Project } from '../../../shared/projects/store/projects';
import type { User } from '../../../shared/users/store/users';
import type { Repository } from '../../../shared/repository/repository';
import type { Ref } from '../../../shared/repository/store/refs';
import { afterPush, onBranchesPushed, pushHookPayloads, type BranchesPushed, type PushedRef } from '../../../shared/repository/push';
import { useMockedTable } from '../../support/mocked-table';
import { linearHistory, repoFactory, type CountingReader, type TestRepo } from './repo';
import { idsEndAt } from '../../support/ids';

const table = useMockedTable('push-test-table');
const ZERO = '0'.repeat(40);
const savedUrl = process.env.EXTERNAL_URL;

beforeAll(() => {
  process.env.EXTERNAL_URL = 'https://git.example.com';
  resetConfig();
});
afterAll(() => {
  if (savedUrl === undefined) delete process.env.EXTERNAL_URL;
  else process.env.EXTERNAL_URL = savedUrl;
  resetConfig();
});

const newRepo = repoFactory();

const user = { id: 4, username: 'jsmith', name: 'John Smith', email: 'john@example.com' } as unknown as User;
const namespace = { id: 3, kind: 'user', name: 'John', path: 'jsmith', fullPath: 'jsmith' } as Namespace;
const project = (fields: Partial<Project> = {}) => ({ id: 15, name: 'Site', path: 'site', description: null, defaultBranch: 'main', visibility: 'private', ...fields }) as Project;

let counter = 0;
beforeEach(() => {
  counter = 0;
  table.on(UpdateCommand).callsFake((input: UpdateCommandInput) =>
    String(input.Key?.PK).startsWith('COUNTER') ? idsEndAt(() => ++counter)(input) : 'ReturnValues' in input ? { Attributes: { value: ++counter } } : {},
  );
  table.on(PutCommand).resolves({});
  table.on(TransactWriteCommand).resolves({});
});

/** Items put, alone or in a transaction (an event is put with checks of its project and author). */
const puts = (type: string) =>
  [
    ...table.commandCalls(PutCommand).map((call) => call.args[0].input.Item),
    ...table.commandCalls(TransactWriteCommand).flatMap((call) => (call.args[0].input.TransactItems ?? []).map((item) => item.Put?.Item)),
  ].filter((item): item is Record<string, unknown> => item?.type === type);
const events = () => puts('Event');
const hookEvents = () => puts('HookEvent');
/** The project updates (`recordPushActivity`), not the id sequences. */
const activityUpdates = () => table.commandCalls(UpdateCommand).map((call) => call.args[0].input).filter((input) => !('ReturnValues' in input));

function push(repo: TestRepo, reader: CountingReader, refs: PushedRef[], previousRefs: Ref[], fields: Partial<Project> = {}, isProtected?: (ref: string) => boolean) {
  const repository = { project: project(fields), read: reader.read } as unknown as Repository;
  return afterPush({ repository, namespace, user, refs, previousRefs, isProtected });
}

describe('afterPush', () => {
  it('records one event and one push hook event for a one-commit push to a long branch, reading a few objects', async () => {
    const repo = newRepo();
    repo.fastImport(linearHistory('main', 2000));
    repo.git(['reset', '-q', '--hard', 'main']);
    const before = repo.head();
    const after = repo.commit('Add the news\n\nWith a body.', { 'news.txt': 'news\n' });
    const reader = repo.reader();

    await push(repo, reader, [{ name: 'refs/heads/main', before, after }], [{ name: 'refs/heads/main', oid: before }], {}, (ref) => ref === 'refs/heads/main');

    // The walk's seven commits, the parent once more (for its tree), the two root trees of the diff.
    expect(reader.log).toHaveLength(10);
    expect(activityUpdates()).toHaveLength(1);
    expect(activityUpdates()[0]).toMatchObject({ UpdateExpression: 'SET lastActivityAt = :now' });

    expect(events()).toHaveLength(1);
    expect(events()[0]).toMatchObject({
      projectId: 15,
      authorId: 4,
      actionName: 'pushed to',
      data: {
        before,
        after,
        ref: 'refs/heads/main',
        user_id: 4,
        user_name: 'John Smith',
        commits: [{ id: after, message: 'Add the news\n\nWith a body.\n', url: `https://git.example.com/jsmith/site/-/commit/${after}` }],
        total_commits_count: 1,
      },
    });

    expect(hookEvents()).toHaveLength(1);
    expect(hookEvents()[0]).toMatchObject({
      projectId: 15,
      actorId: 4,
      kind: 'push',
      action: 'pushed',
      ref: 'refs/heads/main',
      before,
      after,
      refProtected: true,
      checkoutSha: after,
      message: null,
      totalCommitsCount: 1,
      commits: [{ id: after, title: 'Add the news', added: ['news.txt'], modified: [], removed: [], author: { name: 'Ada Author', email: 'ada@example.com' } }],
    });

    // As delivery reads the outbox item from the stream and builds the payload.
    const event = hookEventFromImage(marshall(hookEvents()[0], { removeUndefinedValues: true }));
    expect(event.kind).toBe('push');
    const payload = await pushHookPayloads.push.build(event as never, { project: project(), namespace, actor: user, users: new Map() });
    expect(payload).toMatchObject({
      object_kind: 'push',
      ref: 'refs/heads/main',
      ref_protected: true,
      checkout_sha: after,
      user_username: 'jsmith',
      total_commits_count: 1,
      commits: [{ id: after, url: `https://git.example.com/jsmith/site/-/commit/${after}`, timestamp: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\+02:00$/), added: ['news.txt'] }],
    });
  });

  it('makes the first branch pushed to an empty repository the default branch, with its whole history as pushed', async () => {
    const repo = newRepo();
    repo.fastImport(linearHistory('trunk', 30));
    const tip = repo.rev('trunk');
    await push(repo, repo.reader(), [{ name: 'refs/heads/trunk', before: ZERO, after: tip }], [], { defaultBranch: 'master' });

    expect(activityUpdates()[0]).toMatchObject({ ExpressionAttributeValues: expect.objectContaining({ ':branch': 'trunk' }) });
    expect(events()[0]).toMatchObject({ actionName: 'pushed new', data: { total_commits_count: 30, commits: [{ id: tip }] } });
    const hook = hookEvents()[0] as { commits: Array<{ id: string }>; totalCommitsCount: number; refProtected: boolean };
    expect(hook.totalCommitsCount).toBe(30);
    expect(hook.refProtected).toBe(false);
    // The newest 20, oldest first.
    expect(hook.commits.map((commit) => commit.id)).toEqual(repo.revList(['--max-count=20', tip]).reverse());
  });

  it('counts only the commits off the default branch for a new branch', async () => {
    const repo = newRepo();
    const main = repo.commit('main', { a: '1' });
    repo.checkout('topic', true);
    const topic = repo.commit('topic', { t: '1' });
    await push(repo, repo.reader(), [{ name: 'refs/heads/topic', before: ZERO, after: topic }], [{ name: 'refs/heads/main', oid: main }]);
    expect(activityUpdates()[0]).toMatchObject({ UpdateExpression: 'SET lastActivityAt = :now' });
    expect(events()[0]).toMatchObject({ actionName: 'pushed new', data: { total_commits_count: 1 } });
    expect(hookEvents()[0]).toMatchObject({ kind: 'push', action: 'created', totalCommitsCount: 1, commits: [{ id: topic }] });
  });

  it('makes one bulk event and no hook for more than three refs of a kind and action, and goes on with the others', async () => {
    const repo = newRepo();
    const main = repo.commit('main', { a: '1' });
    const next = repo.commit('next', { a: '2' });
    repo.git(['tag', '-a', '-m', 'first release', 'v1']);
    const tag = repo.rev('v1');
    const created = ['a', 'b', 'c', 'd'].map((name) => ({ name: `refs/heads/${name}`, before: ZERO, after: next }));
    await push(
      repo,
      repo.reader(),
      [...created, { name: 'refs/heads/main', before: main, after: next }, { name: 'refs/tags/v1', before: ZERO, after: tag }, { name: 'refs/notes/commits', before: ZERO, after: next }],
      [{ name: 'refs/heads/main', oid: main }],
    );

    expect(events().map((event) => [event.actionName, event.data])).toEqual([
      ['pushed new', { action: 'created', ref_count: 4, ref_type: 'branch' }],
      ['pushed to', expect.objectContaining({ ref: 'refs/heads/main', total_commits_count: 1 })],
      ['pushed new', expect.objectContaining({ ref: 'refs/tags/v1', total_commits_count: 1 })],
    ]);
    expect(hookEvents().map((event) => [event.kind, event.ref])).toEqual([
      ['push', 'refs/heads/main'],
      ['tag_push', 'refs/tags/v1'],
    ]);
    expect(hookEvents()[1]).toMatchObject({ action: 'created', checkoutSha: next, message: 'first release\n', totalCommitsCount: 1, commits: [{ id: next }] });
  });

  it('records deletions without reading anything', async () => {
    const repo = newRepo();
    const main = repo.commit('main', { a: '1' });
    const reader = repo.reader();
    await push(repo, reader, [{ name: 'refs/heads/old', before: main, after: ZERO }], [{ name: 'refs/heads/main', oid: main }, { name: 'refs/heads/old', oid: main }]);
    expect(reader.log).toEqual([]);
    expect(events()[0]).toMatchObject({ actionName: 'deleted', data: { before: main, after: ZERO, commits: [], total_commits_count: 0 } });
    expect(hookEvents()[0]).toMatchObject({ kind: 'push', action: 'removed', checkoutSha: null, commits: [], totalCommitsCount: 0 });
  });

  it('writes nothing for refs that are not branches or tags, or did not change', async () => {
    const repo = newRepo();
    const main = repo.commit('main', { a: '1' });
    await push(repo, repo.reader(), [{ name: 'refs/notes/commits', before: ZERO, after: main }, { name: 'refs/heads/main', before: main, after: main }], [{ name: 'refs/heads/main', oid: main }]);
    expect(table.commandCalls(PutCommand)).toHaveLength(0);
    expect(table.commandCalls(TransactWriteCommand)).toHaveLength(0);
    expect(table.commandCalls(UpdateCommand)).toHaveLength(0);
  });

  it('never throws: a failed write or an unreadable object is logged, and the other effects go on', async () => {
    const repo = newRepo();
    const main = repo.commit('main', { a: '1' });
    const next = repo.commit('next', { a: '2' });
    const logged = vi.spyOn(logger, 'error').mockImplementation(() => undefined);
    table.on(PutCommand).rejects(new Error('throttled'));
    table.on(TransactWriteCommand).rejects(new Error('throttled'));
    table.on(UpdateCommand, { UpdateExpression: 'SET lastActivityAt = :now' }).rejects(new Error('throttled'));
    const missing = '1'.repeat(40);
    await expect(
      push(
        repo,
        repo.reader(),
        [{ name: 'refs/heads/main', before: main, after: next }, { name: 'refs/heads/broken', before: ZERO, after: missing }],
        [{ name: 'refs/heads/main', oid: main }],
      ),
    ).resolves.toBeUndefined();
    // Both refs' event and hook event were still attempted (and failed).
    expect(events()).toHaveLength(2);
    expect(hookEvents()).toHaveLength(2);

    const broken = { read: () => Promise.reject(new Error('S3 is down')) } as unknown as CountingReader;
    await expect(push(repo, broken, [{ name: 'refs/heads/main', before: main, after: next }], [{ name: 'refs/heads/main', oid: main }])).resolves.toBeUndefined();
    expect(logged.mock.calls.map(([message]) => message)).toEqual([
      'after push: could not record the push activity',
      'after push: could not record the push event',
      'after push: could not queue the push hook event',
      'after push: could not record the push event',
      'after push: could not queue the push hook event',
      'after push: could not record the push activity',
      'after push: could not read what the push brought; no event or hook for this ref',
    ]);
    logged.mockRestore();
  });
});

describe('afterPush: the onBranchesPushed listeners', () => {
  it('hear the branch changes and, apart, the tag changes with the commit each tag points at', async () => {
    const repo = newRepo();
    const main = repo.commit('main', { a: '1' });
    const next = repo.commit('next', { a: '2' });
    repo.git(['tag', '-a', '-m', 'release', 'v2']);
    const annotated = repo.rev('v2');
    const heard: BranchesPushed[] = [];
    const remove = onBranchesPushed((event) => heard.push(event));
    try {
      await push(
        repo,
        repo.reader(),
        [
          { name: 'refs/heads/main', before: main, after: next },
          { name: 'refs/tags/v2', before: ZERO, after: annotated },
          { name: 'refs/tags/v1', before: main, after: ZERO },
          { name: 'refs/tags/light', before: ZERO, after: main },
        ],
        [{ name: 'refs/heads/main', oid: main }, { name: 'refs/tags/v1', oid: main }],
      );
      // A push of tags alone is heard too, with no branch change.
      await push(repo, repo.reader(), [{ name: 'refs/tags/only', before: ZERO, after: next }], [{ name: 'refs/heads/main', oid: next }]);
    } finally {
      remove();
    }

    expect(heard.map(({ updates, tags }) => ({ updates, tags }))).toEqual([
      {
        updates: [{ branch: 'main', before: main, after: next }],
        tags: [
          { tag: 'v2', before: ZERO, after: annotated, commit: next },
          { tag: 'v1', before: main, after: ZERO, commit: null },
          { tag: 'light', before: ZERO, after: main, commit: main },
        ],
      },
      { updates: [], tags: [{ tag: 'only', before: ZERO, after: next, commit: next }] },
    ]);
  });
});
