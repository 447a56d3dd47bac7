/**
 * Push Hook and Tag Push Hook payloads (doc/user/project/integrations/webhook_events.md, "Push
 * events", "Tag events"; `Gitlab::DataBuilder::Push`), their builders and stored form, and the
 * feed events of a push with the `push_data` the projects feature's presenter shows for them
 * (`API::Entities::PushEventPayload`).
 */
import { describe, expect, it } from 'vitest';
import type { HookDeliveryContext } from '../../../shared/hooks/deliver';
import { HOOK_EVENT_MAX_BYTES, type HookEventOf } from '../../../shared/hooks/store/hook-events';
import type { Namespace } from '../../../shared/namespaces/store/namespaces';
import { presentEvent } from '../../../shared/projects/presenters/events';
import type { ContributionEvent } from '../../../shared/projects/store/events';
import type { Project } from '../../../shared/projects/store/projects';
import type { User } from '../../../shared/users/store/users';
import type { PushCommit } from '../../../shared/repository/push/commits';
import { bulkPushEvent, pushEvent } from '../../../shared/repository/push/feed';
import { pushHookPayloads } from '../../../shared/repository/push';
import { pushHookEventForms } from '../../../shared/repository/push/webhooks/events';
import { pushHookPayload } from '../../../shared/repository/push/webhooks/payloads';
import { withEnvironment } from '../../support/environment';

withEnvironment({ EXTERNAL_URL: 'https://git.example.com/', SSH_HOST: undefined });

const ZERO = '0'.repeat(40);
const BEFORE = '95790bf891e76fee5e1747ab589903a6a1f80f22';
const AFTER = 'da1560886d4f094c3e6c9ef40349f7d38b5d27d7';
const OLDER = 'b6568db1bc1dcd7f8b4d5a946b0b91f9dacd7327';

const john = { id: 4, username: 'jsmith', name: 'John Smith', email: 'john@example.com' } as unknown as User;
const project = { id: 15, name: 'Diaspora', path: 'diaspora', description: 'A social network', defaultBranch: 'master', visibility: 'private' } as Project;
const namespace = { id: 3, kind: 'user', name: 'Mike', path: 'mike', fullPath: 'mike' } as Namespace;
const ctx: HookDeliveryContext = { project, namespace, actor: john, users: new Map([[john.id, john]]) };

const older: PushCommit = {
  id: OLDER,
  message: 'Update Catalan translation to e38cb41.\n\nSee https://gitlab.com/gitlab-org/gitlab for more information\n',
  title: 'Update Catalan translation to e38cb41.',
  timestamp: '2011-12-12T14:27:31+02:00',
  author: { name: 'Jordi Mallach', email: 'jordi@softcatala.org' },
  added: ['CHANGELOG'],
  modified: ['app/controller/application.rb'],
  removed: [],
};
const newest: PushCommit = {
  id: AFTER,
  message: 'fixed readme\n',
  title: 'fixed readme',
  timestamp: '2012-01-03T23:36:29+02:00',
  author: { name: 'GitLab dev user', email: 'gitlabdev@dv6700.(none)' },
  added: [],
  modified: ['README.md'],
  removed: ['old.txt'],
};

const pushHookEvent = (fields: Partial<HookEventOf<'push'>> = {}): HookEventOf<'push'> => ({
  id: 9,
  projectId: 15,
  actorId: 4,
  kind: 'push',
  action: 'pushed',
  createdAt: '2026-01-05T08:30:00.000Z',
  ref: 'refs/heads/master',
  before: BEFORE,
  after: AFTER,
  refProtected: true,
  checkoutSha: AFTER,
  message: null,
  commits: [older, newest],
  totalCommitsCount: 4,
  ...fields,
});

const PROJECT = {
  id: 15,
  name: 'Diaspora',
  description: 'A social network',
  web_url: 'https://git.example.com/mike/diaspora',
  avatar_url: null,
  git_ssh_url: 'git@git.example.com:mike/diaspora.git',
  git_http_url: 'https://git.example.com/mike/diaspora.git',
  namespace: 'Mike',
  visibility_level: 0,
  path_with_namespace: 'mike/diaspora',
  default_branch: 'master',
  ci_config_path: null,
  homepage: 'https://git.example.com/mike/diaspora',
  url: 'git@git.example.com:mike/diaspora.git',
  ssh_url: 'git@git.example.com:mike/diaspora.git',
  http_url: 'https://git.example.com/mike/diaspora.git',
};

describe('Push Hook payload', () => {
  it("has GitLab's fields, in GitLab's order", () => {
    const payload = pushHookPayload(ctx, pushHookEvent());
    expect(payload).toEqual({
      object_kind: 'push',
      event_name: 'push',
      before: BEFORE,
      after: AFTER,
      ref: 'refs/heads/master',
      ref_protected: true,
      checkout_sha: AFTER,
      message: null,
      user_id: 4,
      user_name: 'John Smith',
      user_username: 'jsmith',
      user_email: '[REDACTED]',
      user_avatar: null,
      project_id: 15,
      project: PROJECT,
      commits: [
        {
          id: OLDER,
          message: older.message,
          title: 'Update Catalan translation to e38cb41.',
          timestamp: '2011-12-12T14:27:31+02:00',
          url: `https://git.example.com/mike/diaspora/-/commit/${OLDER}`,
          author: { name: 'Jordi Mallach', email: 'jordi@softcatala.org' },
          added: ['CHANGELOG'],
          modified: ['app/controller/application.rb'],
          removed: [],
        },
        {
          id: AFTER,
          message: 'fixed readme\n',
          title: 'fixed readme',
          timestamp: '2012-01-03T23:36:29+02:00',
          url: `https://git.example.com/mike/diaspora/-/commit/${AFTER}`,
          author: { name: 'GitLab dev user', email: 'gitlabdev@dv6700.(none)' },
          added: [],
          modified: ['README.md'],
          removed: ['old.txt'],
        },
      ],
      total_commits_count: 4,
      push_options: {},
      repository: {
        name: 'Diaspora',
        url: 'git@git.example.com:mike/diaspora.git',
        description: 'A social network',
        homepage: 'https://git.example.com/mike/diaspora',
        git_http_url: 'https://git.example.com/mike/diaspora.git',
        git_ssh_url: 'git@git.example.com:mike/diaspora.git',
        visibility_level: 0,
      },
    });
    expect(Object.keys(payload).slice(0, 8)).toEqual(['object_kind', 'event_name', 'before', 'after', 'ref', 'ref_protected', 'checkout_sha', 'message']);
    expect(Object.keys((payload.commits as object[])[0])).toEqual(['id', 'message', 'title', 'timestamp', 'url', 'author', 'added', 'modified', 'removed']);
  });

  it('shows a deleted branch with no checkout_sha and no commits', () => {
    const payload = pushHookPayload(ctx, pushHookEvent({ action: 'removed', after: ZERO, checkoutSha: null, commits: [], totalCommitsCount: 0, refProtected: false }));
    expect(payload).toMatchObject({ before: BEFORE, after: ZERO, checkout_sha: null, ref_protected: false, commits: [], total_commits_count: 0 });
  });

  it('is built by the push builder for hooks with push_events, as "Push Hook"', async () => {
    const event = pushHookEvent();
    expect(pushHookPayloads.push.trigger()).toBe('pushEvents');
    expect(pushHookPayloads.push.eventName()).toBe('Push Hook');
    expect(await pushHookPayloads.push.build(event, ctx)).toEqual(pushHookPayload(ctx, event));
  });
});

describe('Tag Push Hook payload', () => {
  const tagEvent = (fields: Partial<HookEventOf<'tag_push'>> = {}): HookEventOf<'tag_push'> => ({
    ...pushHookEvent(),
    kind: 'tag_push',
    action: 'created',
    ref: 'refs/tags/v1.0.0',
    before: ZERO,
    after: '82b3d5ae55f7080f1e6022629cdb57bfae7cccc7',
    refProtected: false,
    checkoutSha: AFTER,
    message: 'Release 1.0.0\n',
    commits: [newest],
    totalCommitsCount: 1,
    ...fields,
  });

  it('names its kind tag_push, and carries the tag message and the commit it leads to', () => {
    const payload = pushHookPayload(ctx, tagEvent());
    expect(payload).toMatchObject({
      object_kind: 'tag_push',
      event_name: 'tag_push',
      before: ZERO,
      after: '82b3d5ae55f7080f1e6022629cdb57bfae7cccc7',
      ref: 'refs/tags/v1.0.0',
      checkout_sha: AFTER,
      message: 'Release 1.0.0\n',
      total_commits_count: 1,
      project: PROJECT,
    });
    expect((payload.commits as Array<{ id: string }>).map((commit) => commit.id)).toEqual([AFTER]);
  });

  it('is built by the tag push builder for hooks with tag_push_events, as "Tag Push Hook"', async () => {
    const event = tagEvent({ action: 'removed', after: ZERO, checkoutSha: null, message: null, commits: [], totalCommitsCount: 0 });
    expect(pushHookPayloads.tag_push.trigger()).toBe('tagPushEvents');
    expect(pushHookPayloads.tag_push.eventName()).toBe('Tag Push Hook');
    expect(await pushHookPayloads.tag_push.build(event, ctx)).toMatchObject({ object_kind: 'tag_push', checkout_sha: null, message: null, commits: [] });
  });
});

describe('stored form', () => {
  it('stores an ordinary push as given, and reads it back', () => {
    const event = pushHookEvent();
    const stored = pushHookEventForms.push.toStored(event);
    expect(stored).toEqual(event);
    expect(pushHookEventForms.push.fromStored(stored as never)).toEqual(event);
  });

  it('shortens a push too large for one outbox item until it fits', () => {
    const huge = (i: number): PushCommit => ({
      ...newest,
      id: String(i).padStart(40, '0'),
      message: 'x'.repeat(50_000),
      added: Array.from({ length: 5_000 }, (_, n) => `generated/${i}/file-${n}.txt`),
    });
    const event = pushHookEvent({ commits: Array.from({ length: 20 }, (_, i) => huge(i)), totalCommitsCount: 20 });
    const stored = pushHookEventForms.push.toStored(event) as unknown as HookEventOf<'push'>;
    expect(Buffer.byteLength(JSON.stringify(stored))).toBeLessThanOrEqual(HOOK_EVENT_MAX_BYTES);
    expect(stored.totalCommitsCount).toBe(20);
    expect(stored.commits.length).toBeGreaterThan(0);
    // The newest commits are the ones kept.
    expect(stored.commits.at(-1)!.id).toBe(event.commits.at(-1)!.id);
  });
});

describe('feed events', () => {
  const attributes = { id: newest.id, message: newest.message, title: newest.title, timestamp: newest.timestamp, author: newest.author };
  const asEvent = (input: ReturnType<typeof pushEvent>, id = 1): ContributionEvent => ({
    id,
    title: null,
    note: null,
    targetId: null,
    targetType: null,
    targetTitle: null,
    data: null,
    createdAt: '2026-01-05T08:30:00.000Z',
    ...input,
  });

  it("records an update as `pushed to`, with the spec's data (the newest commit only)", () => {
    const event = pushEvent({ project, namespace, user: john, action: 'pushed', ref: 'refs/heads/master', before: BEFORE, after: AFTER, newest: attributes, totalCommitsCount: 4 });
    expect(event).toEqual({
      projectId: 15,
      authorId: 4,
      actionName: 'pushed to',
      data: {
        before: BEFORE,
        after: AFTER,
        ref: 'refs/heads/master',
        user_id: 4,
        user_name: 'John Smith',
        repository: {
          name: 'Diaspora',
          url: 'git@git.example.com:mike/diaspora.git',
          description: 'A social network',
          homepage: 'https://git.example.com/mike/diaspora',
        },
        commits: [
          {
            id: AFTER,
            message: 'fixed readme\n',
            timestamp: '2012-01-03T23:36:29+02:00',
            url: `https://git.example.com/mike/diaspora/-/commit/${AFTER}`,
            author: { name: 'GitLab dev user', email: 'gitlabdev@dv6700.(none)' },
          },
        ],
        total_commits_count: 4,
      },
    });
  });

  it('shows push_data for an update: the short ref, both ids, the commit title', () => {
    const event = asEvent(pushEvent({ project, namespace, user: john, action: 'pushed', ref: 'refs/heads/master', before: BEFORE, after: AFTER, newest: attributes, totalCommitsCount: 4 }));
    const presented = presentEvent(event, john);
    expect(presented.action_name).toBe('pushed to');
    expect(presented.push_data).toEqual({
      commit_count: 4,
      action: 'pushed',
      ref_type: 'branch',
      commit_from: BEFORE,
      commit_to: AFTER,
      ref: 'master',
      commit_title: 'fixed readme',
      ref_count: null,
    });
    expect(Object.keys(presented).slice(-3)).toEqual(['author', 'push_data', 'author_username']);
  });

  it('shows push_data for a new branch (`pushed new`) and a deleted tag (`deleted`)', () => {
    const created = asEvent(pushEvent({ project, namespace, user: john, action: 'created', ref: 'refs/heads/feature', before: ZERO, after: AFTER, newest: undefined, totalCommitsCount: 0 }));
    expect(presentEvent(created, john)).toMatchObject({
      action_name: 'pushed new',
      push_data: { commit_count: 0, action: 'created', ref_type: 'branch', commit_from: null, commit_to: AFTER, ref: 'feature', commit_title: null, ref_count: null },
    });
    const deleted = asEvent(pushEvent({ project, namespace, user: john, action: 'removed', ref: 'refs/tags/v1.0', before: BEFORE, after: ZERO, newest: undefined, totalCommitsCount: 0 }));
    expect(presentEvent(deleted, john)).toMatchObject({
      action_name: 'deleted',
      push_data: { commit_count: 0, action: 'removed', ref_type: 'tag', commit_from: BEFORE, commit_to: null, ref: 'v1.0', commit_title: null, ref_count: null },
    });
  });

  it('cuts the commit title of push_data to 70 characters', () => {
    const message = `  ${'a'.repeat(80)}  \nbody\n`;
    const event = asEvent(
      pushEvent({ project, namespace, user: john, action: 'pushed', ref: 'refs/heads/master', before: BEFORE, after: AFTER, newest: { ...attributes, message }, totalCommitsCount: 1 }),
    );
    expect((presentEvent(event, john).push_data as { commit_title: string }).commit_title).toBe(`${'a'.repeat(67)}...`);
  });

  it('records a bulk push as one event with the ref count', () => {
    const event = bulkPushEvent(project, john, 'created', 'branch', 5);
    expect(event).toEqual({ projectId: 15, authorId: 4, actionName: 'pushed new', data: { action: 'created', ref_count: 5, ref_type: 'branch' } });
    expect(presentEvent(asEvent(event), john).push_data).toEqual({
      commit_count: 0,
      action: 'created',
      ref_type: 'branch',
      commit_from: null,
      commit_to: null,
      ref: null,
      commit_title: null,
      ref_count: 5,
    });
  });

  it('shows no push_data on other events', () => {
    const opened = asEvent({ projectId: 15, authorId: 4, actionName: 'opened', targetId: 1, targetType: 'Issue', targetTitle: 'Bug' });
    expect(Object.keys(presentEvent(opened, john))).not.toContain('push_data');
  });
});
