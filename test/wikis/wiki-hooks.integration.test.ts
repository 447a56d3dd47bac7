/**
 * What a wiki page's write records, as GitLab's `WikiPages::*Service#execute_hooks`: a `Wiki Page
 * Hook` to the hooks with `wiki_page_events` (none to the others, none for attachments), and a
 * feed event (`created`, `updated`, `destroyed` on `WikiPage::Meta`) in the project's, the user's
 * and the caller's feeds, filtered by `target_type=wiki` and shown only to who may read the wiki;
 * a `git push` to the wiki records its pages' events (no hook, as GitLab's `Git::WikiPushService`).
 */
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, isLocalRuntime } from '../support/api';
import { createUser, ownedProject, type OwnedProject, type TestUser } from '../support/fixtures';
import { cloneUrl, commitFiles, gitOk, scratch } from '../support/git';
import { WebhookReceiver, type Delivery } from '../support/webhooks';

const isWikiPage = (delivery: Delivery) => delivery.body.object_kind === 'wiki_page';

describe.skipIf(!isLocalRuntime())('wiki page hooks and events', () => {
  let receiver: WebhookReceiver;
  let project: OwnedProject;
  let stranger: TestUser;
  /** The deliveries of a page's create, update and delete, in that order, then of two pages created at once. */
  let deliveries: Delivery[];

  beforeAll(async () => {
    receiver = await WebhookReceiver.start();
    [project, stranger] = await Promise.all([ownedProject('public'), createUser()]);
    const { token } = project.owner;
    for (const [path, flags] of [
      ['/wiki', { wiki_page_events: true, push_events: false, token: 'wiki-secret' }],
      ['/other', { push_events: true, issues_events: true, note_events: true }],
    ] as const) {
      const hook = await api(`/projects/${project.id}/hooks`, { token, body: { url: receiver.url(path), ...flags } });
      expect(hook.status, JSON.stringify(hook.body)).toBe(201);
    }
    const wikis = `/projects/${project.id}/wikis`;
    expect((await api(wikis, { token, body: { title: 'docs/Hello World', content: 'Hi' } })).status).toBe(201);
    expect((await api(`${wikis}/docs%2FHello-World`, { method: 'PUT', token, body: { content: 'Hi again', format: 'asciidoc' } })).status).toBe(200);
    const form = new FormData();
    form.append('file', new Blob([Buffer.from('x')], { type: 'text/plain' }), 'a.txt');
    expect((await api(`${wikis}/attachments`, { token, form })).status).toBe(201);
    expect((await api(`${wikis}/docs%2FHello-World`, { method: 'DELETE', token })).status).toBe(204);
    // Two writes racing for the branch: the one that loses is made again, and records once.
    const racing = await Promise.all(['One', 'Two'].map((title) => api(wikis, { token, body: { title, content: title } })));
    expect(racing.map((response) => response.status)).toEqual([201, 201]);
    deliveries = await receiver.received('/wiki', isWikiPage, 5);
  });

  afterAll(async () => {
    await receiver.close();
  });

  it('sends one Wiki Page Hook per page change with GitLab’s payload, and none to hooks without wiki_page_events', async () => {
    const { owner } = project;
    expect(deliveries.map((delivery) => delivery.body.object_attributes.action)).toEqual(['create', 'update', 'delete', 'create', 'create']);
    expect(deliveries.slice(3).map((delivery) => delivery.body.object_attributes.title).sort()).toEqual(['One', 'Two']);
    const [created, updated, deleted] = deliveries;
    expect(created.headers).toMatchObject({ 'x-gitlab-event': 'Wiki Page Hook', 'x-gitlab-token': 'wiki-secret' });
    const projectUrl = created.body.project.web_url as string;
    expect(projectUrl).toMatch(new RegExp(`/${project.fullPath}$`));
    expect(created.body).toEqual({
      object_kind: 'wiki_page',
      user: { id: owner.id, name: `Test ${owner.username}`, username: owner.username, avatar_url: null, email: '[REDACTED]' },
      project: expect.objectContaining({ id: project.id, path_with_namespace: project.fullPath, visibility_level: 20 }),
      wiki: {
        web_url: `${projectUrl}/-/wikis/home`,
        git_ssh_url: expect.stringMatching(new RegExp(`:${project.fullPath}\\.wiki\\.git$`)),
        git_http_url: `${projectUrl}.wiki.git`,
        path_with_namespace: `${project.fullPath}.wiki`,
        default_branch: 'main',
      },
      object_attributes: {
        title: 'Hello World',
        content: 'Hi',
        format: 'markdown',
        message: `${owner.username} created page: docs/Hello World`,
        slug: 'docs/Hello-World',
        url: `${projectUrl}/-/wikis/docs/Hello-World`,
        action: 'create',
        diff_url: `${projectUrl}/-/wikis/docs/Hello-World/diff?version_id=${created.body.object_attributes.version_id}`,
        version_id: expect.stringMatching(/^[0-9a-f]{40}$/),
      },
    });
    expect(updated.body.object_attributes).toMatchObject({ title: 'Hello World', content: 'Hi again', format: 'asciidoc', message: `${owner.username} updated page: Hello World` });
    // A deletion shows the page as it was.
    expect(deleted.body.object_attributes).toMatchObject({ slug: 'docs/Hello-World', content: 'Hi again', format: 'asciidoc', message: `${owner.username} deleted page: Hello World` });
    expect(new Set(deliveries.map((delivery) => delivery.body.object_attributes.version_id)).size).toBe(5);
    // The other hook was sent nothing (delivery sends an event to all its hooks at once), nor was a Push Hook.
    expect(receiver.deliveries.filter((delivery) => delivery.path === '/other')).toEqual([]);
  });

  it('records created, updated and destroyed events in the feeds, filtered by target_type=wiki and shown only to who may read the wiki', async () => {
    const { owner } = project;
    const feed = await api(`/projects/${project.id}/events`, { query: { target_type: 'wiki', per_page: 3, sort: 'asc' } });
    const mine = await api('/events', { token: owner.token, query: { target_type: 'wiki', sort: 'asc' } });
    const users = await api(`/users/${owner.id}/events`, { token: stranger.token, query: { target_type: 'wiki', action: 'updated' } });
    const issuesOnly = await api(`/projects/${project.id}/events`, { query: { target_type: 'issue' } });

    expect(feed.status).toBe(200);
    expect(feed.body.map((event: { action_name: string }) => event.action_name)).toEqual(['created', 'updated', 'destroyed']);
    expect(feed.body[0]).toMatchObject({
      project_id: project.id,
      action_name: 'created',
      target_id: null,
      target_type: 'WikiPage::Meta',
      target_title: 'Hello World',
      author_id: owner.id,
      author_username: owner.username,
      wiki_page: { format: 'markdown', slug: 'docs/Hello-World', title: 'Hello World' },
    });
    expect(feed.body[1].wiki_page).toEqual({ format: 'asciidoc', slug: 'docs/Hello-World', title: 'Hello World' });
    // GitLab looks the page up when presenting: a deleted page is null.
    expect(feed.body[2]).toMatchObject({ action_name: 'destroyed', target_type: 'WikiPage::Meta', target_title: 'Hello World', wiki_page: null });
    expect(mine.body.map((event: { action_name: string }) => event.action_name)).toEqual(['created', 'updated', 'destroyed', 'created', 'created']);
    expect(mine.body.slice(3).map((event: { target_title: string }) => event.target_title).sort()).toEqual(['One', 'Two']);
    expect(users.body.map((event: { action_name: string }) => event.action_name)).toEqual(['updated']);
    expect(issuesOnly.body).toEqual([]);

    // A wiki only members may read: its events are hidden from everyone else.
    expect((await api(`/projects/${project.id}`, { method: 'PUT', token: owner.token, body: { wiki_access_level: 'private' } })).status).toBe(200);
    const hidden = await api(`/projects/${project.id}/events`, { token: stranger.token, query: { target_type: 'wiki' } });
    const shown = await api(`/projects/${project.id}/events`, { token: owner.token, query: { target_type: 'wiki' } });
    expect(hidden.body).toEqual([]);
    expect(shown.body).toHaveLength(5);
  });

  it('records the events of the pages a git push to the wiki created, changed and deleted, and sends no hook', async () => {
    const pushed = await ownedProject('private');
    const { token } = pushed.owner;
    const hook = await api(`/projects/${pushed.id}/hooks`, { token, body: { url: receiver.url('/pushed'), wiki_page_events: true } });
    expect(hook.status).toBe(201);
    for (const title of ['Kept', 'Edited', 'Dropped']) expect((await api(`/projects/${pushed.id}/wikis`, { token, body: { title, content: title } })).status).toBe(201);
    await receiver.received('/pushed', isWikiPage, 3);

    const clone = join(scratch(), 'wiki');
    await gitOk(['clone', '-q', cloneUrl(pushed.fullPath, token).replace(/\.git$/, '.wiki.git'), clone]);
    rmSync(join(clone, 'Dropped.md'));
    await commitFiles(clone, { 'Edited.md': 'changed', 'guides/New-Page.md': 'new', 'notes.bin': 'not a page' }, 'push pages');
    await gitOk(['push', '-q', 'origin', 'HEAD:main'], { cwd: clone });

    const feed = await api(`/projects/${pushed.id}/events`, { token, query: { target_type: 'wiki', per_page: 3 } });
    expect(feed.body.map((event: Record<string, unknown>) => [event.action_name, event.target_title, event.wiki_page])).toEqual([
      ['created', 'New Page', { format: 'markdown', slug: 'guides/New-Page', title: 'New Page' }],
      ['updated', 'Edited', { format: 'markdown', slug: 'Edited', title: 'Edited' }],
      ['destroyed', 'Dropped', null],
    ]);
    expect(feed.body[0]).toMatchObject({ author_id: pushed.owner.id, target_type: 'WikiPage::Meta' });
    // Only the API's writes were delivered (their deliveries arrived before the push).
    expect(receiver.deliveries.filter((delivery) => delivery.path === '/pushed')).toHaveLength(3);
  });
});
