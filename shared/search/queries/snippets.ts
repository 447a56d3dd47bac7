/**
 * Scope `snippet_titles` of the instance (GitLab's `SnippetSearchResults`, entity `Snippet`): the
 * snippets the caller may read whose title, description or file name match (GitLab's rule,
 * `shared/platform/search.ts`), newest first. Only project snippets exist on this service, and no
 * index spans projects: the snippets of the projects the caller is a member of are read (each
 * project's list, `GET /projects/:id/snippets`, with its visibility rules; at most
 * `GROUP_ISSUES_PROJECT_LIMIT` projects and {@link SNIPPETS_READ} snippets in all, 400 beyond).
 */
import { can, type ProjectSubject } from '../../auth';
import { ParamError } from '../../platform/http/errors';
import { collectionStream } from '../../platform/http/pagination';
import { matchesSearch, parseSearch } from '../../platform/search';
import { presentSnippet, snippetAuthors, snippetList, type Snippet } from '../../snippets';
import type { SearchInput, SearchLevel, SearchPage } from '../search';
import { emptyPage, memberProjects, pageOf } from './pages';

/** Most snippets a search reads across the caller's projects. */
export const SNIPPETS_READ = 2_000;

export async function searchSnippetTitles(_level: SearchLevel, input: SearchInput): Promise<SearchPage> {
  const query = parseSearch(input.search);
  if (!query) return emptyPage(input);
  const projects = (await memberProjects(input.user, 'snippets')).filter((subject) => can(input.user, 'read_snippets', subject));
  let read = 0;
  const perProject = await Promise.all(
    projects.map(async (subject) => {
      const found: Array<{ snippet: Snippet; subject: ProjectSubject }> = [];
      for await (const entry of collectionStream(snippetList(subject, input.user)).read(undefined, 100)) {
        if (++read > SNIPPETS_READ) throw new ParamError(`your projects hold more than ${SNIPPETS_READ} snippets; list the snippets of a project instead`);
        const snippet = entry.value;
        if (snippet && matchesSearch(query, snippet.title, snippet.description, ...snippet.files.map((file) => file.path))) found.push({ snippet, subject });
      }
      return found;
    }),
  );
  const sign = input.ascending ? 1 : -1;
  const all = perProject.flat().sort((a, b) => sign * (a.snippet.createdAt.localeCompare(b.snippet.createdAt) || a.snippet.id - b.snippet.id));
  const page = await pageOf(input, all);
  const authorOf = await snippetAuthors(page.items.map((entry) => entry.snippet));
  return { items: page.items.map(({ snippet, subject }) => presentSnippet(snippet, subject, authorOf(snippet.authorId))), headers: page.headers };
}
