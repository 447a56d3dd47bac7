/**
 * Issue Hook and Note Hook payloads and headers, in the shapes GitLab documents
 * (doc/user/project/integrations/webhook_events.md, webhooks.md "Delivery headers"): the issues
 * feature's payloads (`shared/issues/webhooks/`) with the hooks feature's shared parts and headers.
 */
import { describe, expect, it } from 'vitest';
import { config } from '../../shared/platform/config';
import type { Issue } from '../../shared/issues/store/issues';
import type { Label } from '../../shared/issues/store/labels';
import type { Milestone } from '../../shared/issues/store/milestones';
import type { Namespace } from '../../shared/namespaces/store/namespaces';
import type { Note } from '../../shared/issues/store/notes';
import { discussionIdOf } from '../../shared/issues/store/discussions';
import type { Project } from '../../shared/projects/store/projects';
import type { User } from '../../shared/users/store/users';
import { hookHeaders, hookTime } from '../../shared/hooks/presenters/webhooks';
import type { HookEventOf } from '../../shared/hooks/store/hook-events';
import { issueHookEventName, issueHookPayloads } from '../../shared/issues/webhooks/builders';
import { issueHookPayload, noteHookPayload, type IssueHookContext } from '../../shared/issues/webhooks/payloads';
import { issueRecord } from '../support/records';
import { withEnvironment } from '../support/environment';

withEnvironment({ EXTERNAL_URL: 'https://git.example.com/', SSH_HOST: undefined });

const user = (id: number, username: string, name: string) => ({ id, username, name, email: `${username}@example.com` }) as unknown as User;
const root = user(1, 'root', 'Administrator');
const jane = user(2, 'jdoe', 'Jane Doe');
const alice = user(3, 'asmith', 'Alice Smith');

const label = (id: number, name: string, color: string, description: string | null) =>
  ({ id, projectId: 5, name, color, description, createdAt: '2026-01-01T10:00:00.000Z', updatedAt: '2026-01-02T11:00:00.000Z' }) as Label;
const bug = label(11, 'bug', '#d9534f', 'Something is broken');
const api = label(12, 'api', '#428bca', null);

const ctx: IssueHookContext = {
  project: { id: 5, name: 'Diaspora', path: 'diaspora', description: 'A social network', defaultBranch: 'main', visibility: 'internal' } as Project,
  namespace: { id: 3, kind: 'group', name: 'Mike Group', path: 'mike', fullPath: 'mike' } as Namespace,
  actor: root,
  users: new Map([root, jane, alice].map((u) => [u.id, u])),
  labels: new Map([bug, api].map((l) => [l.id, l])),
  milestones: new Map([[21, { id: 21, iid: 1, projectId: 5, title: 'v1' } as Milestone]]),
};

const opened: Issue = issueRecord({
  title: 'Crash on start',
  description: 'It crashes',
  authorId: 2,
  assigneeIds: [3],
  milestoneId: 21,
  dueDate: '2026-02-01',
  createdAt: '2026-01-05T08:30:00.123Z',
  updatedAt: '2026-01-05T08:30:00.123Z',
  version: 1,
});

const PROJECT = {
  id: 5,
  name: 'Diaspora',
  description: 'A social network',
  web_url: 'https://git.example.com/mike/diaspora',
  avatar_url: null,
  git_ssh_url: 'git@git.example.com:mike/diaspora.git',
  git_http_url: 'https://git.example.com/mike/diaspora.git',
  namespace: 'Mike Group',
  visibility_level: 10,
  path_with_namespace: 'mike/diaspora',
  default_branch: 'main',
  ci_config_path: null,
  homepage: 'https://git.example.com/mike/diaspora',
  url: 'git@git.example.com:mike/diaspora.git',
  ssh_url: 'git@git.example.com:mike/diaspora.git',
  http_url: 'https://git.example.com/mike/diaspora.git',
};

const REPOSITORY = {
  name: 'Diaspora',
  url: 'git@git.example.com:mike/diaspora.git',
  description: 'A social network',
  homepage: 'https://git.example.com/mike/diaspora',
};

const ROOT = { id: 1, name: 'Administrator', username: 'root', avatar_url: null, email: '[REDACTED]' };
const ALICE = { id: 3, name: 'Alice Smith', username: 'asmith', avatar_url: null, email: '[REDACTED]' };

const labelJson = (l: Label) => ({
  id: l.id,
  title: l.name,
  color: l.color,
  project_id: 5,
  created_at: '2026-01-01 10:00:00 UTC',
  updated_at: '2026-01-02 11:00:00 UTC',
  template: false,
  description: l.description,
  type: 'ProjectLabel',
  group_id: null,
});
const API = labelJson(api);
const BUG = labelJson(bug);

/** `object_attributes` of `opened`, before any change. */
const OPENED_ATTRIBUTES = {
  author_id: 2,
  closed_at: null,
  confidential: false,
  created_at: '2026-01-05 08:30:00 UTC',
  description: 'It crashes',
  discussion_locked: null,
  due_date: '2026-02-01',
  id: 70,
  iid: 3,
  last_edited_at: null,
  last_edited_by_id: null,
  milestone_id: 21,
  moved_to_id: null,
  duplicated_to_id: null,
  project_id: 5,
  relative_position: null,
  state_id: 1,
  time_estimate: 0,
  title: 'Crash on start',
  updated_at: '2026-01-05 08:30:00 UTC',
  updated_by_id: null,
  type: 'Issue',
  url: 'https://git.example.com/mike/diaspora/issues/3',
  total_time_spent: 0,
  time_change: 0,
  human_total_time_spent: null,
  human_time_change: null,
  human_time_estimate: null,
  assignee_ids: [3],
  assignee_id: 3,
  labels: [API, BUG],
  state: 'opened',
  severity: 'unknown',
};

describe('hookTime', () => {
  it('writes timestamps as GitLab hook data does, in UTC without fractions', () => {
    expect(hookTime('2013-12-03T17:15:43.999Z')).toBe('2013-12-03 17:15:43 UTC');
    expect(hookTime('2013-12-03T19:15:43+02:00')).toBe('2013-12-03 17:15:43 UTC');
    expect(hookTime(null)).toBeNull();
  });
});

describe('issueHookPayload', () => {
  it('open: the issue with its labels and assignees, and its creation values as changes', () => {
    const payload = issueHookPayload(ctx, opened, null, 'open');

    expect(payload).toEqual({
      object_kind: 'issue',
      event_type: 'issue',
      user: ROOT,
      project: PROJECT,
      object_attributes: { ...OPENED_ATTRIBUTES, action: 'open' },
      labels: [API, BUG],
      changes: {
        author_id: { previous: null, current: 2 },
        created_at: { previous: null, current: '2026-01-05 08:30:00 UTC' },
        description: { previous: null, current: 'It crashes' },
        due_date: { previous: null, current: '2026-02-01' },
        id: { previous: null, current: 70 },
        iid: { previous: null, current: 3 },
        milestone_id: { previous: null, current: 21 },
        project_id: { previous: null, current: 5 },
        time_estimate: { previous: null, current: 0 },
        title: { previous: null, current: 'Crash on start' },
        updated_at: { previous: null, current: '2026-01-05 08:30:00 UTC' },
      },
      repository: REPOSITORY,
      assignees: [ALICE],
    });
  });

  it('update: only what differs, labels and assignees as objects; no `assignees` key once there are none', () => {
    const edited: Issue = {
      ...opened,
      title: 'Crash on startup',
      labelIds: [12],
      assigneeIds: [],
      updatedAt: '2026-01-06T09:00:00.000Z',
      version: 2,
      ...{ timeEstimate: 3600 },
    };

    const payload = issueHookPayload(ctx, edited, opened, 'update');

    expect(payload).toEqual({
      object_kind: 'issue',
      event_type: 'issue',
      user: ROOT,
      project: PROJECT,
      object_attributes: {
        ...OPENED_ATTRIBUTES,
        title: 'Crash on startup',
        updated_at: '2026-01-06 09:00:00 UTC',
        time_estimate: 3600,
        human_time_estimate: '1h',
        assignee_ids: [],
        assignee_id: null,
        labels: [API],
        action: 'update',
      },
      labels: [API],
      changes: {
        time_estimate: { previous: 0, current: 3600 },
        title: { previous: 'Crash on start', current: 'Crash on startup' },
        updated_at: { previous: '2026-01-05 08:30:00 UTC', current: '2026-01-06 09:00:00 UTC' },
        assignees: { previous: [ALICE], current: [] },
        labels: { previous: [API, BUG], current: [API] },
      },
      repository: REPOSITORY,
    });
  });

  it('update: spent time is reported with the change it made', () => {
    const before = { ...opened, totalTimeSpent: 1800 } as Issue;
    const after = { ...opened, totalTimeSpent: 5400, updatedAt: '2026-01-06T09:00:00.000Z' } as Issue;

    const payload = issueHookPayload(ctx, after, before, 'update');

    expect(payload.object_attributes).toMatchObject({ total_time_spent: 5400, human_total_time_spent: '1h30m', time_change: 3600, human_time_change: '1h' });
    expect(payload.changes).toEqual({
      updated_at: { previous: '2026-01-05 08:30:00 UTC', current: '2026-01-06 09:00:00 UTC' },
      total_time_spent: { previous: 1800, current: 5400 },
      time_change: { previous: 0, current: 3600 },
    });
  });

  it('close: state, closed_at and updated_at change', () => {
    const closed: Issue = { ...opened, state: 'closed', closedAt: '2026-01-07T12:00:00.000Z', updatedAt: '2026-01-07T12:00:00.000Z', version: 2 };

    const payload = issueHookPayload(ctx, closed, opened, 'close');

    expect(payload.object_attributes).toEqual({
      ...OPENED_ATTRIBUTES,
      closed_at: '2026-01-07 12:00:00 UTC',
      updated_at: '2026-01-07 12:00:00 UTC',
      state_id: 2,
      state: 'closed',
      action: 'close',
    });
    expect(payload.changes).toEqual({
      closed_at: { previous: null, current: '2026-01-07 12:00:00 UTC' },
      state_id: { previous: 1, current: 2 },
      updated_at: { previous: '2026-01-05 08:30:00 UTC', current: '2026-01-07 12:00:00 UTC' },
    });
    expect(payload.assignees).toEqual([ALICE]);
  });

  it('reopen: the reverse changes', () => {
    const closed: Issue = { ...opened, state: 'closed', closedAt: '2026-01-07T12:00:00.000Z', updatedAt: '2026-01-07T12:00:00.000Z' };
    const reopened: Issue = { ...opened, updatedAt: '2026-01-08T12:00:00.000Z' };

    const payload = issueHookPayload(ctx, reopened, closed, 'reopen');

    expect(payload.changes).toEqual({
      closed_at: { previous: '2026-01-07 12:00:00 UTC', current: null },
      state_id: { previous: 2, current: 1 },
      updated_at: { previous: '2026-01-07 12:00:00 UTC', current: '2026-01-08 12:00:00 UTC' },
    });
    expect(payload.object_attributes).toMatchObject({ action: 'reopen', state: 'opened', state_id: 1 });
  });

  it('marks a confidential issue with event_type confidential_issue', () => {
    const secret: Issue = { ...opened, confidential: true };

    const payload = issueHookPayload(ctx, secret, null, 'open');

    expect(payload).toMatchObject({ object_kind: 'issue', event_type: 'confidential_issue', object_attributes: { confidential: true } });
    expect(payload.changes).toMatchObject({ confidential: { previous: false, current: true } });
  });

  it('leaves out labels, assignees and milestones that no longer exist', () => {
    const dangling: Issue = { ...opened, labelIds: [11, 99], assigneeIds: [3, 404], milestoneId: 77 };

    const payload = issueHookPayload(ctx, dangling, null, 'open');

    expect(payload.labels).toEqual([BUG]);
    expect(payload.assignees).toEqual([ALICE]);
    expect(payload.object_attributes).toMatchObject({ milestone_id: null, assignee_ids: [3, 404] });
  });
});

describe('noteHookPayload', () => {
  const note: Note = {
    id: 900,
    projectId: 5,
    issueIid: 3,
    issueId: 70,
    body: 'Looks like a race',
    authorId: 1,
    system: false,
    createdAt: '2026-01-06T10:00:00.000Z',
    updatedAt: '2026-01-06T10:00:00.000Z',
  };

  it('a comment on an issue: the note, its URL, and the issue', () => {
    const payload = noteHookPayload(ctx, note, opened);

    expect(payload).toEqual({
      object_kind: 'note',
      event_type: 'note',
      user: ROOT,
      project_id: 5,
      project: PROJECT,
      object_attributes: {
        id: 900,
        note: 'Looks like a race',
        noteable_type: 'Issue',
        author_id: 1,
        created_at: '2026-01-06 10:00:00 UTC',
        updated_at: '2026-01-06 10:00:00 UTC',
        project_id: 5,
        attachment: null,
        line_code: null,
        commit_id: '',
        noteable_id: 70,
        system: false,
        st_diff: null,
        action: 'create',
        url: 'https://git.example.com/mike/diaspora/issues/3#note_900',
        // An individual note: its own discussion, whose id is derived from the note's.
        type: null,
        discussion_id: discussionIdOf(note),
      },
      repository: REPOSITORY,
      issue: OPENED_ATTRIBUTES,
    });
  });

  it('marks a comment on a confidential issue with event_type confidential_note', () => {
    const payload = noteHookPayload(ctx, note, { ...opened, confidential: true });

    expect(payload).toMatchObject({ object_kind: 'note', event_type: 'confidential_note', issue: { confidential: true } });
  });
});

describe('hookHeaders', () => {
  it('with a token: the event, its UUID as idempotency key, the instance and the token', () => {
    const headers = hookHeaders(issueHookEventName('issue', false), { token: 'tok\r\nen', eventUuid: 'e-1', webhookUuid: 'w-1' });

    expect(headers).toEqual({
      'Content-Type': 'application/json',
      'User-Agent': `GitLab/${config().version}`,
      'Idempotency-Key': 'e-1',
      'X-Gitlab-Event': 'Issue Hook',
      'X-Gitlab-Event-UUID': 'e-1',
      'X-Gitlab-Webhook-UUID': 'w-1',
      'X-Gitlab-Instance': 'https://git.example.com',
      'X-Gitlab-Token': 'token',
    });
  });

  it('without a token: no X-Gitlab-Token (nor a webhook UUID when none is given)', () => {
    const headers = hookHeaders(issueHookEventName('note', false), { eventUuid: 'e-2' });

    expect(headers).toEqual({
      'Content-Type': 'application/json',
      'User-Agent': `GitLab/${config().version}`,
      'Idempotency-Key': 'e-2',
      'X-Gitlab-Event': 'Note Hook',
      'X-Gitlab-Event-UUID': 'e-2',
      'X-Gitlab-Instance': 'https://git.example.com',
    });
  });

  it.each([
    ['issue', 'Confidential Issue Hook'],
    ['note', 'Confidential Note Hook'],
  ] as const)('names the confidential %s event %j', (kind, event) => {
    expect(hookHeaders(issueHookEventName(kind, true), { eventUuid: 'e-3' })['X-Gitlab-Event']).toBe(event);
  });
});

describe('issueHookPayloads (how delivery sends issue and note events)', () => {
  const note = { id: 900, projectId: 5, issueIid: 3, issueId: 70, body: 'Hi', authorId: 4, system: false, createdAt: '', updatedAt: '' };
  const fields = { id: 1, projectId: 5, actorId: 1, createdAt: '' };

  it.each([
    [false, 'issuesEvents', 'Issue Hook'],
    [true, 'confidentialIssuesEvents', 'Confidential Issue Hook'],
  ] as const)('an issue event (confidential: %s) goes to hooks with %s, as %s', (confidential, trigger, eventName) => {
    const event: HookEventOf<'issue'> = { ...fields, kind: 'issue', action: 'update', issue: { ...opened, confidential }, previous: { ...opened, assigneeIds: [2] } };

    expect(issueHookPayloads.issue.trigger(event)).toBe(trigger);
    expect(issueHookPayloads.issue.eventName(event)).toBe(eventName);
    expect(issueHookPayloads.issue.userIds(event)).toEqual([2, 3, 2]);
  });

  it.each([
    [false, 'noteEvents', 'Note Hook'],
    [true, 'confidentialNoteEvents', 'Confidential Note Hook'],
  ] as const)('a note event (confidential issue: %s) goes to hooks with %s, as %s', (confidential, trigger, eventName) => {
    const event: HookEventOf<'note'> = { ...fields, kind: 'note', action: 'create', note, issue: { ...opened, confidential } };

    expect(issueHookPayloads.note.trigger(event)).toBe(trigger);
    expect(issueHookPayloads.note.eventName(event)).toBe(eventName);
    expect(issueHookPayloads.note.userIds(event)).toEqual([2, 3, 4]);
  });
});
