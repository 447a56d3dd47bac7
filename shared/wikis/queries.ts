/**
 * Reading a project's wiki: its pages at the wiki branch's tip (or at a commit, `version`), and a
 * page's content. The git code is loaded on first use (`import()`), so the projects function's
 * cold start holds none of it.
 */
import { NotFoundError } from '../platform/http/errors';
import type { Project } from '../projects';
import type { WikiTree } from '../repository';
import { findPage, pagesOf, type WikiPageFile } from './pages';

export const repository = () => import('../repository');

/** A page with its content (UTF-8 text, as GitLab's entity shows it). */
export interface WikiPageContent extends WikiPageFile {
  content: string;
}

/** The wiki's files and pages (none for a wiki never written). */
export async function readWiki(project: Project, version?: string): Promise<{ tree: WikiTree; pages: WikiPageFile[] } | undefined> {
  const tree = await (await repository()).readWikiTree(project, version);
  return tree && { tree, pages: pagesOf(tree.files) };
}

/** Every page in path order, with its content when asked (`with_content`). */
export async function listPages(project: Project, withContent: boolean): Promise<Array<WikiPageFile | WikiPageContent>> {
  const wiki = (await readWiki(project))!;
  if (!withContent) return wiki.pages;
  const { readWikiBlob } = await repository();
  return Promise.all(wiki.pages.map(async (page) => ({ ...page, content: (await readWikiBlob(wiki.tree, page.oid)).toString('utf8') })));
}

/** The page a slug names, with its content; GitLab's `404 Wiki Page Not Found` otherwise (or when `version` names no commit). */
export async function findPageOrNotFound(project: Project, slug: string, version?: string): Promise<WikiPageContent> {
  const wiki = await readWiki(project, version);
  const page = wiki && findPage(wiki.pages, slug);
  if (!wiki || !page) throw new NotFoundError('Wiki Page');
  const { readWikiBlob } = await repository();
  return { ...page, content: (await readWikiBlob(wiki.tree, page.oid)).toString('utf8') };
}
