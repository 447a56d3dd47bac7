/**
 * A project's wiki as python-gitlab (`project.wikis`) and gitbeaker call it, stored as GitLab
 * stores it: pages are files of the separate git repository `<namespace>/<project>.wiki.git`, which
 * the real `git` CLI clones and pushes to. CRUD, slugs with spaces and directories, listing with
 * and without content, GitLab's validation answers (which change nothing), permissions, concurrent
 * creates, attachments, and the wiki repository removed with its project.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { getItem } from '../../shared/platform/dynamo/query';
import { repositoryKeys } from '../../shared/repository/store/keys';
import { api, isLocalRuntime } from '../support/api';
import { eventually } from '../support/eventually';
import { newMember, ownedProject, type OwnedProject } from '../support/fixtures';
import { cloneUrl, commitFiles, git, gitOk, localRepository, scratch } from '../support/git';

const GUEST = 10;
const DEVELOPER = 30;

const wikiUrl = (fullPath: string, token?: string) => cloneUrl(fullPath, token).replace(/\.git$/, '.wiki.git');

describe('project wikis', () => {
  let project: OwnedProject;
  const wikis = () => `/projects/${project.id}/wikis`;
  const page = (slug: string) => `${wikis()}/${encodeURIComponent(slug)}`;

  beforeAll(async () => {
    project = await ownedProject('private');
  });

  it('creates, reads, lists, edits and deletes pages, with slugs from titles with spaces and directories', async () => {
    const token = project.owner.token;
    const empty = await api(wikis(), { token });
    const home = await api(wikis(), { token, body: { title: 'Home Page', content: '# Welcome\n\nHello & bye' } });
    const nested = await api(wikis(), { token, body: { title: 'guides/Getting Started', content: '= Start', format: 'asciidoc' } });
    const read = await api(page('guides/Getting-Started'), { token });
    const byTitle = await api(page('home page'), { token });
    const html = await api(page('Home-Page'), { token, query: { render_html: true } });
    const listed = await api(wikis(), { token });
    const withContent = await api(wikis(), { token, query: { with_content: true } });

    expect(empty.status).toBe(200);
    expect(empty.body).toEqual([]);
    expect(home.status, JSON.stringify(home.body)).toBe(201);
    expect(home.body).toEqual({ format: 'markdown', slug: 'Home-Page', title: 'Home Page', content: '# Welcome\n\nHello & bye', encoding: 'UTF-8' });
    expect(nested.body).toEqual({ format: 'asciidoc', slug: 'guides/Getting-Started', title: 'Getting Started', content: '= Start', encoding: 'UTF-8' });
    expect(read.body).toEqual(nested.body);
    expect(byTitle.body.slug).toBe('Home-Page');
    expect(html.body.content).toBe('<p># Welcome</p>\n<p>Hello &amp; bye</p>');
    expect(listed.body).toEqual([
      { format: 'markdown', slug: 'Home-Page', title: 'Home Page' },
      { format: 'asciidoc', slug: 'guides/Getting-Started', title: 'Getting Started' },
    ]);
    expect(withContent.body).toEqual([home.body, nested.body]);

    // Edits: content alone; a new title (the file moves, in its directory) and format.
    const edited = await api(page('Home-Page'), { method: 'PUT', token, body: { content: 'v2' } });
    const renamed = await api(page('guides/Getting-Started'), { method: 'PUT', token, body: { title: 'Setup', format: 'markdown' } });
    const moved = await api(page('guides/Getting-Started'), { token });
    expect(edited.body).toEqual({ ...home.body, content: 'v2' });
    expect(renamed.status, JSON.stringify(renamed.body)).toBe(200);
    expect(renamed.body).toEqual({ format: 'markdown', slug: 'guides/Setup', title: 'Setup', content: '= Start', encoding: 'UTF-8' });
    expect(moved.status).toBe(404);
    expect(moved.body).toEqual({ message: '404 Wiki Page Not Found' });

    // An older version of a page, by commit (the wiki's log, read through git).
    const clone = join(scratch(), 'wiki');
    await gitOk(['clone', '-q', wikiUrl(project.fullPath, token), clone]);
    const log = (await gitOk(['log', '--format=%H %an <%ae> %s'], { cwd: clone })).trim().split('\n');
    expect(log.map((line) => line.slice(41))).toEqual([
      `Test ${project.owner.username} <${project.owner.email}> ${project.owner.username} updated page: guides/Setup`,
      `Test ${project.owner.username} <${project.owner.email}> ${project.owner.username} updated page: Home Page`,
      `Test ${project.owner.username} <${project.owner.email}> ${project.owner.username} created page: guides/Getting Started`,
      `Test ${project.owner.username} <${project.owner.email}> ${project.owner.username} created page: Home Page`,
    ]);
    const old = await api(page('Home-Page'), { token, query: { version: log[3].slice(0, 40) } });
    const noVersion = await api(page('Home-Page'), { token, query: { version: 'f'.repeat(40) } });
    expect(old.body.content).toBe('# Welcome\n\nHello & bye');
    expect(noVersion.status).toBe(404);

    const deleted = await api(page('guides/Setup'), { method: 'DELETE', token });
    const after = await api(wikis(), { token });
    const again = await api(page('guides/Setup'), { method: 'DELETE', token });
    expect(deleted.status).toBe(204);
    expect(after.body.map((entry: { slug: string }) => entry.slug)).toEqual(['Home-Page']);
    expect(again.body).toEqual({ message: '404 Wiki Page Not Found' });
  });

  it("answers GitLab's validation errors and changes nothing", async () => {
    const token = project.owner.token;
    await api(wikis(), { token, body: { title: 'Rules', content: 'x' } });
    const before = await api(wikis(), { token, query: { with_content: true } });

    const noContent = await api(wikis(), { token, body: { title: 'Other' } });
    const noTitle = await api(wikis(), { token, body: { content: 'x' } });
    const badFormat = await api(wikis(), { token, body: { title: 'Other', content: 'x', format: 'textile' } });
    const duplicate = await api(wikis(), { token, body: { title: 'rules', content: 'y', format: 'org' } });
    const noEdit = await api(page('Rules'), { method: 'PUT', token, body: {} });
    const missing = await api(page('Nope'), { method: 'PUT', token, body: { content: 'x' } });

    expect(noContent.status).toBe(400);
    expect(noContent.body).toEqual({ error: 'content is missing' });
    expect(noTitle.body).toEqual({ error: 'title is missing' });
    expect(badFormat.body).toEqual({ error: 'format does not have a valid value' });
    expect(duplicate.status).toBe(400);
    expect(duplicate.body).toEqual({ message: { base: ['Duplicate page: A page with that title already exists in the file rules.org'] } });
    expect(noEdit.body).toEqual({ error: 'content, title, format are missing, at least one parameter must be provided' });
    expect(missing.status).toBe(404);
    expect(await api(wikis(), { token, query: { with_content: true } })).toMatchObject({ body: before.body });
  });

  it('lets guests read, developers write and maintainers delete; a disabled wiki is closed', async () => {
    const [guest, developer] = await Promise.all([newMember(project, GUEST), newMember(project, DEVELOPER)]);
    const created = await api(wikis(), { token: developer.token, body: { title: 'Dev notes', content: 'n' } });
    const edited = await api(page('Dev-notes'), { method: 'PUT', token: developer.token, body: { content: 'm' } });
    const guestRead = await api(page('Dev-notes'), { token: guest.token });
    const guestWrite = await api(wikis(), { token: guest.token, body: { title: 'G', content: 'g' } });
    const developerDelete = await api(page('Dev-notes'), { method: 'DELETE', token: developer.token });
    const anonymous = await api(wikis());
    const guestClone = await git(['ls-remote', wikiUrl(project.fullPath, guest.token)]);
    const guestPush = await git(['push', wikiUrl(project.fullPath, guest.token), 'HEAD:main'], { cwd: scratch() });

    expect(created.status).toBe(201);
    expect(edited.body.content).toBe('m');
    expect(guestRead.body.content).toBe('m');
    expect(guestWrite.status).toBe(403);
    expect(developerDelete.status).toBe(403);
    expect(anonymous.status).toBe(404);
    expect(guestClone.code).not.toBe(0);
    expect(guestClone.stderr).toContain('You are not allowed to download files from this wiki.');
    expect(guestPush.code).not.toBe(0);

    const open = await ownedProject('public');
    await api(`/projects/${open.id}/wikis`, { token: open.owner.token, body: { title: 'Public', content: 'p' } });
    const anonymousRead = await api(`/projects/${open.id}/wikis/Public`);
    const anonymousClone = await git(['ls-remote', wikiUrl(open.fullPath)]);
    await api(`/projects/${open.id}`, { method: 'PUT', token: open.owner.token, body: { wiki_access_level: 'disabled' } });
    const disabled = await api(`/projects/${open.id}/wikis`, { token: open.owner.token });
    expect(anonymousRead.body.content).toBe('p');
    expect(anonymousClone.code, anonymousClone.stderr).toBe(0);
    expect(anonymousClone.stdout).toMatch(/refs\/heads\/main/);
    expect(disabled.status).toBe(403);
  });

  it('keeps both of two pages created at once', async () => {
    const token = project.owner.token;
    const titles = ['Race A', 'Race B', 'Race C'];
    const created = await Promise.all(titles.map((title) => api(wikis(), { token, body: { title, content: title } })));
    const listed = await api(wikis(), { token });
    expect(created.map((response) => response.status)).toEqual([201, 201, 201]);
    expect(listed.body.map((entry: { title: string }) => entry.title)).toEqual(expect.arrayContaining(titles));
  });

  it('clones the wiki with git, and pages pushed with git appear in the API; attachments are committed under uploads/', async () => {
    const owner = await ownedProject('private');
    const token = owner.owner.token;
    await api(`/projects/${owner.id}/wikis`, { token, body: { title: 'home', content: 'from the API' } });
    const attachment = await api(`/projects/${owner.id}/wikis/attachments`, {
      token,
      form: (() => {
        const form = new FormData();
        form.append('file', new Blob([Buffer.from('PNGDATA')], { type: 'image/png' }), 'my diagram.png');
        return form;
      })(),
    });
    expect(attachment.status, JSON.stringify(attachment.body)).toBe(201);
    expect(attachment.body).toMatchObject({ file_name: 'my_diagram.png', branch: 'main' });
    expect(attachment.body.file_path).toMatch(/^uploads\/[0-9a-f]{32}\/my_diagram\.png$/);
    expect(attachment.body.link).toEqual({ url: attachment.body.file_path, markdown: `![my_diagram](${attachment.body.file_path})` });

    const clone = join(scratch(), 'wiki');
    await gitOk(['clone', '-q', wikiUrl(owner.fullPath, token), clone]);
    expect(readFileSync(join(clone, 'home.md'), 'utf8')).toBe('from the API');
    expect(readFileSync(join(clone, attachment.body.file_path), 'utf8')).toBe('PNGDATA');
    const code = await git(['ls-remote', cloneUrl(owner.fullPath, token)]);
    expect(code.stdout).toBe('');

    await commitFiles(clone, { 'docs/Pushed-Page.md': '# pushed', 'notes.txt': 'not a page?' }, 'add pages');
    const pushed = await git(['push', 'origin', 'HEAD:main'], { cwd: clone });
    expect(pushed.code, pushed.stderr).toBe(0);
    const read = await api(`/projects/${owner.id}/wikis/${encodeURIComponent('docs/Pushed-Page')}`, { token });
    const listed = await api(`/projects/${owner.id}/wikis`, { token });
    expect(read.body).toEqual({ format: 'markdown', slug: 'docs/Pushed-Page', title: 'Pushed Page', content: '# pushed', encoding: 'UTF-8' });
    expect(listed.body.map((entry: { slug: string }) => entry.slug)).toEqual(['docs/Pushed-Page', 'home', 'notes']);
    // The project's own repository is untouched by the wiki's push.
    expect((await git(['ls-remote', cloneUrl(owner.fullPath, token)])).stdout).toBe('');

    // A project whose path ends in `.wiki` is served as itself (GitLab tries the project first).
    const named = await api('/projects', { token, body: { name: 'docs', path: 'docs.wiki' } });
    expect(named.status, JSON.stringify(named.body)).toBe(201);
    const plain = await localRepository({ 'README.md': 'code' });
    const pushedCode = await git(['push', cloneUrl(named.body.path_with_namespace, token), 'HEAD:main'], { cwd: plain });
    expect(pushedCode.code, pushedCode.stderr).toBe(0);
    expect((await api(`/projects/${named.body.id}/repository/files/README.md/raw`, { token, query: { ref: 'main' } })).body).toBe('code');

    const removed = await api(`/projects/${owner.id}`, { method: 'DELETE', token });
    expect(removed.status).toBe(202);
    if (isLocalRuntime()) {
      await eventually(async () => {
        expect(await getItem(repositoryKeys.pool(`wiki-${owner.id}`))).toBeUndefined();
        expect(await getItem(repositoryKeys.repository(owner.id, 'wiki'))).toBeUndefined();
      });
    }
  });
});
