/**
 * Reads of project snippets (GitLab's `SnippetsFinder` for a project): the list, newest first
 * (`id_desc`), of what the caller may read; one snippet the caller may read (else 404, never
 * revealing it); its authors; a file's content.
 */
import type { ProjectSubject } from '../../auth';
import { getMany } from '../../platform/dynamo/batch';
import type { Caller } from '../../platform/http/context';
import { NotFoundError, RecordNotFoundError } from '../../platform/http/errors';
import type { CollectionSource } from '../../platform/http/pagination';
import { userFromItem, userKeys, withGhost, type User } from '../../users';
import type { SnippetFile } from '../files';
import { canReadSnippet } from '../policy';
import { snippetCollections } from '../store/keys';
import { getSnippet, readContent, snippetFromItem, type Snippet } from '../store/snippets';

/** The project's snippets the caller may read, newest first; the others are left out of the page. */
export function snippetList(subject: ProjectSubject, user: Caller | null): CollectionSource<Snippet> {
  return {
    collection: snippetCollections.snippets(subject.project.id),
    ascending: false,
    select: (item) => {
      const snippet = snippetFromItem(item);
      return canReadSnippet(user, subject, snippet) ? snippet : undefined;
    },
  };
}

/**
 * The project's snippet the caller may read. `GET …/:snippet_id` answers GitLab's `find` miss
 * (`404 Not found`), the other routes its `not_found!('Snippet')` (`record: false`).
 */
export async function findSnippetOrNotFound(subject: ProjectSubject, user: Caller | null, snippetId: number, record = false): Promise<Snippet> {
  const snippet = await getSnippet(subject.project.id, snippetId);
  if (!snippet || !canReadSnippet(user, subject, snippet)) throw record ? new RecordNotFoundError() : new NotFoundError('Snippet');
  return snippet;
}

/** The authors of `snippets`, in one BatchGetItem; a deleted author is the ghost user. */
export async function snippetAuthors(snippets: readonly Snippet[]): Promise<(id: number) => User | undefined> {
  const ids = [...new Set(snippets.map((snippet) => snippet.authorId))];
  const users = new Map((await getMany(ids.map((id) => userKeys.user(id)), { consistent: false })).map(userFromItem).map((user) => [user.id, user]));
  return withGhost((id) => users.get(id), ids);
}

/** A file's content; 404 when it is gone (the snippet deleted while it was read). */
export async function fileContent(file: SnippetFile): Promise<Buffer> {
  const content = await readContent(file);
  if (!content) throw new NotFoundError('File');
  return content;
}
