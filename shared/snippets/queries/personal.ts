/**
 * Reads of personal snippets (GitLab's `SnippetsFinder` without a project, and `lib/api/snippets.rb`'s
 * lists), each list newest first (`id_desc`) and read a Query page at a time from an index
 * partition that holds only what it lists (ACCESS_PATTERNS.md): the caller's own; the public ones;
 * every one an admin may see, or for anyone else the public ones, the internal ones (not for
 * external users) and the caller's private ones, merged by id.
 */
import { isAdmin } from '../../auth';
import type { Caller } from '../../platform/http/context';
import { NotFoundError } from '../../platform/http/errors';
import { mergedCollections, type CollectionSource, type ListSource } from '../../platform/http/pagination';
import { canReadPersonalSnippet } from '../policy';
import { isSnippetSortKey, snippetCollections } from '../store/keys';
import { getSnippet, snippetFromItem, type Snippet } from '../store/snippets';

const newestFirst = (collection: CollectionSource<Snippet>['collection']): CollectionSource<Snippet> => ({ collection, ascending: false, select: snippetFromItem });

/** `GET /snippets`: the caller's personal snippets. */
export const authoredSnippetList = (user: Caller): ListSource<Snippet> => newestFirst(snippetCollections.authored(user.id));

/** `GET /snippets/public`: every public personal snippet. */
export const publicSnippetList = (): ListSource<Snippet> => newestFirst(snippetCollections.visible('public'));

/** `GET /snippets/all`: every personal snippet for admins; for anyone else those they may read. */
export function readableSnippetList(user: Caller): ListSource<Snippet> {
  const admin: boolean = isAdmin(user);
  if (admin) return newestFirst(snippetCollections.all());
  const partitions = [snippetCollections.visible('public'), ...(user.external ? [] : [snippetCollections.visible('internal')]), snippetCollections.visible('private', user.id)];
  return mergedCollections(partitions, { ascending: false, isSortKey: isSnippetSortKey, select: snippetFromItem });
}

/** The personal snippet the caller may read, else GitLab's `404 Snippet Not Found` (never revealing it). */
export async function findPersonalSnippetOrNotFound(user: Caller | null, snippetId: number): Promise<Snippet> {
  const snippet = await getSnippet(null, snippetId);
  if (!snippet || !canReadPersonalSnippet(user, snippet)) throw new NotFoundError('Snippet');
  return snippet;
}

/** The caller's own personal snippet (GitLab edits and deletes through the author's snippets), else 404. */
export async function findOwnSnippetOrNotFound(user: Caller, snippetId: number): Promise<Snippet> {
  const snippet = await getSnippet(null, snippetId);
  if (!snippet || snippet.authorId !== user.id) throw new NotFoundError('Snippet');
  return snippet;
}
