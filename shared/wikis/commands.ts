/**
 * Writing a project's wiki as GitLab's `WikiPages::CreateService`, `UpdateService` and
 * `DestroyService` do: each write is one commit on the wiki's branch, authored by the caller, with
 * GitLab's default message (`<username> created page: <title>`). A commit lands only if the
 * branch still points where the write read it (compare-and-swap); when another write landed first,
 * the write is made again on the new tip (its checks too), so concurrent writes of different pages
 * all land and none is lost.
 *
 * A page's write records what GitLab's `execute_hooks` does, in the transaction that moves the
 * branch (so they exist exactly when the commit does): the feed event (`created`, `updated`,
 * `destroyed` with target `WikiPage::Meta`, GitLab's `EventCreateService#wiki_event`) and the
 * `wiki_page` webhook event (`webhooks.ts`). Attachments record neither, as on GitLab.
 */
import { randomBytes } from 'node:crypto';
import { prepareHookEvent } from '../hooks';
import { NotFoundError, ValidationError } from '../platform/http/errors';
import { prepareEvent, type Project } from '../projects';
import type { User } from '../users';
import type { WikiChange, WikiTree } from '../repository';
import { editedTitle, extensionOf, findPage, pageOf, pagePath, sluggifiedTitle, type WikiFormat, type WikiPageFile } from './pages';
import { readWiki, repository } from './queries';
// Also the `wiki_page` kind's declaration, and the registration of how its events are stored (loading it registers).
import { WIKI_EVENT_ACTIONS, type WikiPageHookAction } from './webhooks';

/** How many times a write is made again after other writes moved the branch under it. */
const ATTEMPTS = 8;

const duplicate = (path: string) => new ValidationError({ base: [`Duplicate page: A page with that title already exists in the file ${path}`] });

/**
 * A planned write: its changes, the commit's message, the path of the page it leaves (or removes),
 * and for a page's write what it records: the action and the page's content after it (before it,
 * for a deletion).
 */
type Plan = { changes: WikiChange[]; message: string; path: string; recorded?: { action: WikiPageHookAction; content: string } } | { error: Error };

/**
 * Internal: the feed event and the webhook event of a page's write, for the commit's transaction.
 * The event keeps the page's format, slug and title (its `wiki_page`); its target is GitLab's
 * `WikiPage::Meta` (no id here: pages have no records of their own).
 */
async function pageRecords(project: Project, user: User, planned: Extract<Plan, { path: string }>, commitId: string, branch: string) {
  const { action, content } = planned.recorded!;
  const page = pageOf({ path: planned.path, oid: '' })!;
  const shown = { format: page.format, slug: page.slug, title: page.title };
  const [event, hook] = await Promise.all([
    prepareEvent({ projectId: project.id, authorId: user.id, actionName: WIKI_EVENT_ACTIONS[action], targetType: 'WikiPage::Meta', targetTitle: page.title, wikiPage: shown }),
    prepareHookEvent({ projectId: project.id, actorId: user.id, kind: 'wiki_page', action, page: { ...shown, content, message: planned.message }, versionId: commitId, branch }),
  ]);
  return { event: event.put, hook: hook.put };
}

/** A page as a write left it: what the API answers (the page's file is known from the write, not read again). */
export type WrittenPage = Pick<WikiPageFile, 'format' | 'slug' | 'title'> & { content: string };

/**
 * Reads the wiki, plans the change on what it read, commits it; again while the branch moved
 * meanwhile. Answers the plan that landed.
 */
async function write(project: Project, user: User, plan: (tree: WikiTree, pages: WikiPageFile[]) => Plan | Promise<Plan>): Promise<Extract<Plan, { path: string }>> {
  const { commitWikiChanges, WIKI_BRANCH } = await repository();
  for (let attempt = 0; ; attempt++) {
    const wiki = (await readWiki(project))!;
    const planned = await plan(wiki.tree, wiki.pages);
    if ('error' in planned) throw planned.error;
    const extras = planned.recorded && (({ id }: { id: string }) => pageRecords(project, user, planned, id, WIKI_BRANCH));
    const outcome = await commitWikiChanges(wiki.tree, { name: user.name, email: user.email }, planned.message, planned.changes, extras);
    if (outcome.status === 'committed') return planned;
    if (outcome.status === 'project_gone') throw new NotFoundError('Project');
    if (attempt + 1 >= ATTEMPTS) throw new ValidationError({ base: ['Could not update refs/heads/main. Please refresh and try again.'] });
  }
}

/** Internal: the page a write left at `path`, with the content it wrote. */
function writtenPage(planned: Extract<Plan, { path: string }>): WrittenPage {
  const { format, slug, title } = pageOf({ path: planned.path, oid: '' })!;
  return { format, slug, title, content: planned.recorded!.content };
}

/** Creates a page; a page of the same title (any case, any format) is GitLab's duplicate error. Answers the page as written. */
export async function createPage(project: Project, user: User, input: { title: string; content: string; format: WikiFormat }): Promise<WrittenPage> {
  return writtenPage(await write(project, user, (_tree, pages) => {
    const path = pagePath(input.title, extensionOf(input.format));
    if (sluggifiedTitle(input.title) === '') return { error: new ValidationError({ title: ["can't be blank"] }) };
    if (findPage(pages, input.title)) return { error: duplicate(path) };
    const content = Buffer.from(input.content, 'utf8');
    // What is shown is what was stored (text that is not valid UTF-16 is stored with U+FFFD, as read back).
    return { path, message: `${user.username} created page: ${input.title}`, changes: [{ action: 'create', path, content }], recorded: { action: 'create', content: content.toString('utf8') } };
  }));
}

/**
 * Edits a page found by its slug: its content (kept when not given), its format (the extension
 * follows it) and its title (the file moves; a plain title keeps the page's directory). Answers
 * the page as the edit left it.
 */
export async function updatePage(project: Project, user: User, slug: string, input: { title?: string; content?: string; format?: WikiFormat }): Promise<WrittenPage> {
  return writtenPage(await write(project, user, async (tree, pages) => {
    const page = findPage(pages, slug);
    if (!page) return { error: new NotFoundError('Wiki Page') };
    const format = input.format ?? (page.format as WikiFormat);
    const extension = format !== page.format ? extensionOf(format) : page.path.slice(page.path.lastIndexOf('.') + 1).toLowerCase();
    const title = input.title?.trim() ? editedTitle(page, input.title) : page.slug;
    const path = pagePath(title, extension);
    const other = path !== page.path ? findPage(pages, title) : undefined;
    if (other && other.path !== page.path) return { error: duplicate(path) };
    const content = input.content === undefined ? await (await repository()).readWikiBlob(tree, page.oid) : Buffer.from(input.content, 'utf8');
    const change: WikiChange = path === page.path ? { action: 'update', path, content } : { action: 'move', path, previousPath: page.path, content };
    return { path, message: `${user.username} updated page: ${input.title?.trim() ? title : page.title}`, changes: [change], recorded: { action: 'update', content: content.toString('utf8') } };
  }));
}

/** Deletes a page found by its slug (`404 Wiki Page Not Found` when there is none). */
export async function deletePage(project: Project, user: User, slug: string): Promise<void> {
  await write(project, user, async (tree, pages) => {
    const page = findPage(pages, slug);
    if (!page) return { error: new NotFoundError('Wiki Page') };
    // The hook shows the page as it was (GitLab's payload of a deleted page carries its content).
    const content = (await (await repository()).readWikiBlob(tree, page.oid)).toString('utf8');
    return { path: page.path, message: `${user.username} deleted page: ${page.title}`, changes: [{ action: 'delete', path: page.path }], recorded: { action: 'delete', content } };
  });
}

/** A file name as GitLab's attachment service keeps it: its base name, characters other than letters, digits, `.`, `-` and `_` as `_`. */
const safeFileName = (name: string) => (name.split(/[\\/]/).pop() ?? '').replace(/[^\w.-]/g, '_') || 'file';

/**
 * Stores an uploaded file in the wiki repository under `uploads/<32 hex digits>/<file name>`
 * (GitLab's `Wikis::CreateAttachmentService`), one commit `Upload attachment <file name>`.
 */
export async function createAttachment(project: Project, user: User, file: { filename: string; data: Buffer }): Promise<{ fileName: string; filePath: string; branch: string }> {
  const { WIKI_BRANCH } = await repository();
  const fileName = safeFileName(file.filename);
  const filePath = `uploads/${randomBytes(16).toString('hex')}/${fileName}`;
  await write(project, user, () => ({ path: filePath, message: `Upload attachment ${fileName}`, changes: [{ action: 'create', path: filePath, content: file.data }] }));
  return { fileName, filePath, branch: WIKI_BRANCH };
}
