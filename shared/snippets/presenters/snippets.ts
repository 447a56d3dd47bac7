/**
 * GitLab's `Entities::ProjectSnippet` and `Entities::PersonalSnippet` (`BasicSnippet` + `Snippet`):
 * one shape, a personal snippet's `project_id` null and its URLs at `/-/snippets/<id>`. Cost: the snippet item gives
 * everything but the author, read for a whole page at once (one BatchGetItem, `snippetAuthors`).
 * `ssh_url_to_repo`/`http_url_to_repo` are left out, as GitLab leaves them out of a snippet
 * without a repository: snippets are not git repositories here.
 */
import type { ProjectSubject } from '../../auth';
import { config } from '../../platform/config';
import { projectFullPath } from '../../projects';
import { presentUserPublic, type User } from '../../users';
import type { Snippet } from '../store/snippets';

/** The branch GitLab commits snippet files to (the instance's default branch name). */
export const SNIPPET_REF = 'main';

/** Internal: each segment of a path percent-encoded, its slashes kept. */
const encodePath = (path: string) => path.split('/').map(encodeURIComponent).join('/');

/** A snippet's page: under its project's path, or (a personal snippet: `subject` null) at the root. */
export function snippetWebUrl(snippet: Snippet, subject: ProjectSubject | null): string {
  const owner = subject ? `/${projectFullPath(subject.namespace, subject.project)}` : '';
  return `${config().externalUrl}${owner}/-/snippets/${snippet.id}`;
}

export function presentSnippet(snippet: Snippet, subject: ProjectSubject | null, author: User | undefined) {
  const webUrl = snippetWebUrl(snippet, subject);
  return {
    id: snippet.id,
    title: snippet.title,
    description: snippet.description,
    visibility: snippet.visibility,
    author: author ? presentUserPublic(author) : null,
    created_at: snippet.createdAt,
    updated_at: snippet.updatedAt,
    project_id: snippet.projectId,
    web_url: webUrl,
    raw_url: `${webUrl}/raw`,
    file_name: snippet.files[0]?.path ?? '',
    files: snippet.files.map((file) => ({ path: file.path, raw_url: `${webUrl}/raw/${SNIPPET_REF}/${encodePath(file.path)}` })),
    imported: false,
    imported_from: 'none',
  };
}
