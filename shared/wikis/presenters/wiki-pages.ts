/** GitLab's `WikiPageBasic`, `WikiPage` and `WikiAttachment` entities. */
import type { WikiPageFile } from '../pages';

export function presentWikiPageBasic(page: Pick<WikiPageFile, 'format' | 'slug' | 'title'>) {
  return { format: page.format, slug: page.slug, title: page.title };
}

const escapeHtml = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&#39;');

/**
 * `render_html`: the content as HTML. Markup is not rendered here (a deliberate difference): each
 * paragraph (text between blank lines) becomes an escaped `<p>`.
 */
export function renderedContent(content: string): string {
  return content
    .split(/\n\s*\n/)
    .map((paragraph) => paragraph.trim())
    .filter(Boolean)
    .map((paragraph) => `<p>${escapeHtml(paragraph)}</p>`)
    .join('\n');
}

export function presentWikiPage(page: Pick<WikiPageFile, 'format' | 'slug' | 'title'> & { content: string }, options: { renderHtml?: boolean } = {}) {
  return { ...presentWikiPageBasic(page), content: options.renderHtml ? renderedContent(page.content) : page.content, encoding: 'UTF-8' };
}

const IMAGE = /\.(png|jpe?g|gif|bmp|tiff?|ico|webp|svg)$/i;

export function presentWikiAttachment(attachment: { fileName: string; filePath: string; branch: string }) {
  const alt = attachment.fileName.replace(/\.[^.]*$/, '');
  const markdown = IMAGE.test(attachment.fileName) ? `![${alt}](${attachment.filePath})` : `[${attachment.fileName}](${attachment.filePath})`;
  return { file_name: attachment.fileName, file_path: attachment.filePath, branch: attachment.branch, link: { url: attachment.filePath, markdown } };
}
