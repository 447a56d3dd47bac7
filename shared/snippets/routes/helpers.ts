/**
 * What the project and personal snippets routes share: a request's snippet fields in the commands'
 * terms, one snippet presented with its author, and a file's content answered raw.
 */
import type { ProjectSubject } from '../../auth';
import { NotFoundError } from '../../platform/http/errors';
import type { HttpResult } from '../../platform/http/response';
import type { SnippetInput } from '../commands/snippets';
import type { SnippetFile } from '../files';
import { presentSnippet, SNIPPET_REF } from '../presenters/snippets';
import { fileContent, snippetAuthors } from '../queries/snippets';
import type { Snippet } from '../store/snippets';

/** What `POST` and `PUT` give, in the commands' terms (`SnippetInput`; a create's title and visibility stay as declared). */
export function snippetInput<P extends Pick<SnippetInput, 'title' | 'description' | 'visibility' | 'content'> & { file_name?: string; files?: SnippetInput['files'] }>(params: P): SnippetInput & Pick<P, 'title' | 'visibility'> {
  return { title: params.title, description: params.description, visibility: params.visibility, fileName: params.file_name, content: params.content, files: params.files };
}

/** One snippet presented with its author (a personal snippet: `subject` null). */
export async function present(snippet: Snippet, subject: ProjectSubject | null) {
  return presentSnippet(snippet, subject, (await snippetAuthors([snippet]))(snippet.authorId));
}

/** A page of snippets presented with their authors (one batch read). */
export async function presentPage(snippets: readonly Snippet[], subject: ProjectSubject | null) {
  const authorOf = await snippetAuthors(snippets);
  return snippets.map((snippet) => presentSnippet(snippet, subject, authorOf(snippet.authorId)));
}

/** A file's content as GitLab's `send_git_blob` answers it: text, shown inline under its name. */
export async function rawFile(file: SnippetFile): Promise<HttpResult<never>> {
  const name = file.path.slice(file.path.lastIndexOf('/') + 1);
  return {
    statusCode: 200,
    binary: { data: await fileContent(file), contentType: 'text/plain; charset=utf-8' },
    headers: { 'Content-Disposition': `inline; filename="${name.replace(/["\\\r\n]/g, '_')}"; filename*=UTF-8''${encodeURIComponent(name)}`, 'X-Content-Type-Options': 'nosniff' },
  };
}

/** The file at `ref` and `path`: the snippet's one branch (GitLab's default branch name, or `HEAD`); anything else names no commit here. */
export function fileAt(snippet: Snippet, ref: string, path: string): SnippetFile {
  if (ref !== SNIPPET_REF && ref !== 'HEAD') throw new NotFoundError('Reference');
  const file = snippet.files.find((candidate) => candidate.path === path);
  if (!file) throw new NotFoundError('File');
  return file;
}
