/**
 * Wiki pages as GitLab's `Wiki` model finds them in the wiki repository (pure: no I/O): a page is a
 * file of the wiki's branch whose extension names a markup (`home.md`, `dir/Sub-Page.asciidoc`);
 * its slug is its path without the extension, its title the file's name without the extension,
 * dashes read as spaces. A title becomes a path as GitLab's `sluggified_title` does: trimmed,
 * `.` and `..` resolved within the wiki, spaces written as dashes; slashes make directories.
 */

/** GitLab's markups (`Wiki::MARKUPS`): the four a page may be written in, and those only read. */
const MARKUPS = [
  { format: 'markdown', extension: 'md', pattern: 'md|mkdn?|mdown|markdown', writable: true },
  { format: 'rdoc', extension: 'rdoc', pattern: 'rdoc', writable: true },
  { format: 'asciidoc', extension: 'asciidoc', pattern: 'adoc|asciidoc', writable: true },
  { format: 'org', extension: 'org', pattern: 'org', writable: true },
  { format: 'textile', extension: 'textile', pattern: 'textile', writable: false },
  { format: 'creole', extension: 'creole', pattern: 'creole', writable: false },
  { format: 'rest', extension: 'rst', pattern: 're?st(\\.txt)?', writable: false },
  { format: 'mediawiki', extension: 'mediawiki', pattern: '(media)?wiki', writable: false },
  { format: 'pod', extension: 'pod', pattern: 'pod', writable: false },
  { format: 'plaintext', extension: 'txt', pattern: 'txt', writable: false },
] as const;

/** The formats a page may be created or edited in (the API's `format`). */
export const WIKI_FORMATS = ['markdown', 'rdoc', 'asciidoc', 'org'] as const;
export type WikiFormat = (typeof WIKI_FORMATS)[number];

const EXTENSIONS = MARKUPS.map((markup) => markup.pattern).join('|');
const PAGE_FILE = new RegExp(`\\.(${EXTENSIONS})$`, 'i');

/** A page of the wiki: its file, and what the API shows of it. */
export interface WikiPageFile {
  /** The file's path in the wiki repository (`dir/Sub-Page.md`). */
  path: string;
  oid: string;
  /** The path without its extension (`dir/Sub-Page`). */
  slug: string;
  /** The file's name without extension, dashes as spaces (`Sub Page`). */
  title: string;
  format: string;
}

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** The markup of a file's extension (GitLab's `find_page_format`). */
function formatOf(path: string): string | undefined {
  const dot = path.lastIndexOf('.');
  const extension = path.slice(dot + 1);
  return MARKUPS.find((markup) => new RegExp(`^(${markup.pattern})$`, 'i').test(extension))?.format;
}

/** GitLab's `canonicalize_filename`: the base name without its extension, dashes read as spaces. */
export function canonicalTitle(path: string): string {
  const base = path.slice(path.lastIndexOf('/') + 1);
  const dot = base.lastIndexOf('.');
  return (dot > 0 ? base.slice(0, dot) : base).replace(/-/g, ' ');
}

/** A file as a page, or undefined when its extension is no markup's. */
export function pageOf(file: { path: string; oid: string }): WikiPageFile | undefined {
  if (!PAGE_FILE.test(file.path)) return undefined;
  const format = formatOf(file.path);
  if (!format) return undefined;
  return { path: file.path, oid: file.oid, slug: file.path.replace(/\.[^.]+$/, ''), title: canonicalTitle(file.path), format };
}

/** The wiki's pages, in path order (GitLab's `list_pages`). */
export function pagesOf(files: ReadonlyArray<{ path: string; oid: string }>): WikiPageFile[] {
  return files
    .map(pageOf)
    .filter((page): page is WikiPageFile => page !== undefined)
    .sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
}

/**
 * GitLab's `sluggified_title`: trimmed, resolved as a path under the root (`.`, `..` and doubled
 * slashes gone; nothing escapes the wiki), spaces as dashes.
 */
export function sluggifiedTitle(title: string): string {
  const segments: string[] = [];
  for (const segment of title.trim().split('/')) {
    if (segment === '' || segment === '.') continue;
    if (segment === '..') segments.pop();
    else segments.push(segment);
  }
  return segments.join('/').replace(/ /g, '-');
}

/** The file a new page of `title` in `format` is written to. */
export function pagePath(title: string, extension: string): string {
  return `${sluggifiedTitle(title)}.${extension}`;
}

/** The default extension of a writable format. */
export function extensionOf(format: WikiFormat): string {
  return MARKUPS.find((markup) => markup.format === format)!.extension;
}

/**
 * The page a title or slug names (GitLab's `find_matched_file`): a page file whose path is the
 * title, then the sluggified title, followed by a markup's extension, in any case.
 */
export function findPage(pages: readonly WikiPageFile[], title: string): WikiPageFile | undefined {
  if (title.trim() === '') return undefined;
  const matching = (name: string) => {
    const pattern = new RegExp(`^${escapeRegExp(name)}\\.(${EXTENSIONS})$`, 'i');
    return pages.find((page) => pattern.test(page.path));
  };
  return matching(title) ?? matching(sluggifiedTitle(title));
}

/**
 * The title an edit gives a page (GitLab's `WikiPage#process_title`): a plain name stays in the
 * page's directory, a leading slash moves it to the root, a path is taken as it is.
 */
export function editedTitle(page: WikiPageFile, title: string): string {
  const trimmed = title.trim();
  if (trimmed.startsWith('/')) return trimmed.replace(/^\/+/, '');
  if (trimmed.includes('/')) return trimmed;
  const directory = page.path.includes('/') ? page.path.slice(0, page.path.lastIndexOf('/')) : '';
  return directory ? `${directory}/${trimmed}` : trimmed;
}
