/**
 * Wiki pages as GitLab's `Wiki` model finds them in the wiki repository: which files are pages,
 * their slugs, titles and formats, the path a title is written to, and finding a page by slug or
 * title in any case.
 */
import { describe, expect, it } from 'vitest';
import { editedTitle, findPage, pagePath, pagesOf, sluggifiedTitle } from '../../shared/wikis/pages';

const files = ['home.md', 'guides/Getting-Started.asciidoc', 'Notes.MARKDOWN', 'uploads/abc/pic.png', 'legacy.rst.txt', 'README', 'x.org'].map((path) => ({ path, oid: 'a'.repeat(40) }));

describe('wiki pages', () => {
  it('lists the files with a markup extension, in path order, with slug, title and format', () => {
    expect(pagesOf(files).map(({ path, slug, title, format }) => ({ path, slug, title, format }))).toEqual([
      { path: 'Notes.MARKDOWN', slug: 'Notes', title: 'Notes', format: 'markdown' },
      { path: 'guides/Getting-Started.asciidoc', slug: 'guides/Getting-Started', title: 'Getting Started', format: 'asciidoc' },
      { path: 'home.md', slug: 'home', title: 'home', format: 'markdown' },
      { path: 'legacy.rst.txt', slug: 'legacy.rst', title: 'legacy.rst', format: 'plaintext' },
      { path: 'x.org', slug: 'x', title: 'x', format: 'org' },
    ]);
  });

  it("writes a title where GitLab's sluggified_title does, and finds pages by slug or title in any case", () => {
    expect(sluggifiedTitle('  Getting Started ')).toBe('Getting-Started');
    expect(sluggifiedTitle('a/./b//../c d')).toBe('a/c-d');
    expect(sluggifiedTitle('../../etc/passwd')).toBe('etc/passwd');
    expect(pagePath('guides/Getting Started', 'md')).toBe('guides/Getting-Started.md');
    const pages = pagesOf(files);
    expect(findPage(pages, 'guides/getting started')?.path).toBe('guides/Getting-Started.asciidoc');
    expect(findPage(pages, 'HOME')?.path).toBe('home.md');
    expect(findPage(pages, 'uploads/abc/pic')).toBeUndefined();
    expect(findPage(pages, ' ')).toBeUndefined();
  });

  it('keeps an edited page in its directory unless the new title names another', () => {
    const [, nested] = pagesOf(files);
    expect(editedTitle(nested, 'Setup')).toBe('guides/Setup');
    expect(editedTitle(nested, '/Setup')).toBe('Setup');
    expect(editedTitle(nested, 'docs/Setup')).toBe('docs/Setup');
  });
});
