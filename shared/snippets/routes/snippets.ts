/**
 * Project snippets (GitLab's `lib/api/project_snippets.rb`): list (newest first, paginated), read,
 * create, edit (with file actions), delete, the first file raw, a file raw by ref and path, and
 * the admins' user agent details. Each route: find the project (404 when the caller cannot see
 * it) → the snippets feature open to the caller (403, GitLab's `check_snippets_enabled`) → find the
 * snippet among those the caller may read (404) → authorize (403) → command or query → presenter.
 */
import { authorize, can, type ProjectSubject } from '../../auth';
import type { Caller } from '../../platform/http/context';
import { ForbiddenError, NotFoundError, RecordNotFoundError } from '../../platform/http/errors';
import { paginate } from '../../platform/http/pagination';
import { created, noContent, ok, type HttpResult } from '../../platform/http/response';
import { route, type RoutesOf } from '../../platform/http/route';
import { findProjectOrNotFound } from '../../projects';
import type { catalog } from '../catalog';
import { createSnippet, editSnippet, removeSnippet, type SnippetInput } from '../commands/snippets';
import type { SnippetFile } from '../files';
import { canDeleteSnippet, canUpdateSnippet } from '../policy';
import { presentSnippet, SNIPPET_REF } from '../presenters/snippets';
import { fileContent, findSnippetOrNotFound, snippetAuthors, snippetList } from '../queries/snippets';
import { getSnippet, type Snippet } from '../store/snippets';
import { createParams, fileParams, listParams, snippetParams, updateParams } from './snippets.params';

/** The project, once its snippets feature is open to the caller (else 403, even anonymous: GitLab's `forbidden!`). */
async function snippetsOf(idOrPath: string, user: Caller | null): Promise<ProjectSubject> {
  const subject = await findProjectOrNotFound(idOrPath, user);
  if (!can(user, 'read_snippets', subject)) throw new ForbiddenError();
  return subject;
}

/** What `POST` and `PUT` give, in the commands' terms (`SnippetInput`; a create's title and visibility stay required). */
function snippetInput<P extends Pick<SnippetInput, 'title' | 'description' | 'visibility' | 'content'> & { file_name?: string; files?: SnippetInput['files'] }>(params: P): SnippetInput & Pick<P, 'title' | 'visibility'> {
  return { title: params.title, description: params.description, visibility: params.visibility, fileName: params.file_name, content: params.content, files: params.files };
}

/** One snippet presented with its author. */
async function present(snippet: Snippet, subject: ProjectSubject) {
  return presentSnippet(snippet, subject, (await snippetAuthors([snippet]))(snippet.authorId));
}

/** A file's content as GitLab's `send_git_blob` answers it: text, shown inline under its name. */
async function rawFile(file: SnippetFile): Promise<HttpResult<never>> {
  const name = file.path.slice(file.path.lastIndexOf('/') + 1);
  return {
    statusCode: 200,
    binary: { data: await fileContent(file), contentType: 'text/plain; charset=utf-8' },
    headers: { 'Content-Disposition': `inline; filename="${name.replace(/["\\\r\n]/g, '_')}"; filename*=UTF-8''${encodeURIComponent(name)}`, 'X-Content-Type-Options': 'nosniff' },
  };
}

export const projectSnippetRoutes = {
  'GET /projects/:id/snippets': route({
    params: listParams,
    handler: async ({ params, user, link }) => {
      const subject = await snippetsOf(params.id, user);
      const page = await paginate(params, link, snippetList(subject, user));
      const authorOf = await snippetAuthors(page.items);
      return ok(page.items.map((snippet) => presentSnippet(snippet, subject, authorOf(snippet.authorId))), page.headers);
    },
  }),
  'POST /projects/:id/snippets': route({
    params: createParams,
    handler: async ({ params, user }) => {
      const subject = await snippetsOf(params.id, user);
      authorize(user, 'create_snippet', subject);
      const snippet = await createSnippet(subject.project.id, user.id, snippetInput(params));
      return created(await present(snippet, subject));
    },
  }),
  'GET /projects/:id/snippets/:snippet_id': route({
    params: snippetParams,
    anonymous: true,
    handler: async ({ params, user }) => {
      const subject = await snippetsOf(params.id, user);
      return ok(await present(await findSnippetOrNotFound(subject, user, params.snippet_id, true), subject));
    },
  }),
  'PUT /projects/:id/snippets/:snippet_id': route({
    params: updateParams,
    handler: async ({ params, user }) => {
      const subject = await snippetsOf(params.id, user);
      const snippet = await findSnippetOrNotFound(subject, user, params.snippet_id);
      if (!canUpdateSnippet(user, subject, snippet)) throw new ForbiddenError();
      const edited = await editSnippet(snippet, snippetInput(params));
      return ok(await present(edited, subject));
    },
  }),
  'DELETE /projects/:id/snippets/:snippet_id': route({
    params: snippetParams,
    handler: async ({ params, user }) => {
      const subject = await snippetsOf(params.id, user);
      const snippet = await findSnippetOrNotFound(subject, user, params.snippet_id);
      if (!canDeleteSnippet(user, subject, snippet)) throw new ForbiddenError();
      await removeSnippet(snippet);
      return noContent();
    },
  }),
  'GET /projects/:id/snippets/:snippet_id/raw': route({
    params: snippetParams,
    anonymous: true,
    handler: async ({ params, user }) => {
      const subject = await snippetsOf(params.id, user);
      const snippet = await findSnippetOrNotFound(subject, user, params.snippet_id);
      return rawFile(snippet.files[0]);
    },
  }),
  'GET /projects/:id/snippets/:snippet_id/files/:ref/:file_path/raw': route({
    params: fileParams,
    anonymous: true,
    handler: async ({ params, user }) => {
      const subject = await snippetsOf(params.id, user);
      const snippet = await findSnippetOrNotFound(subject, user, params.snippet_id);
      // The snippet's one branch (GitLab's default branch name); anything else names no commit here.
      if (params.ref !== SNIPPET_REF && params.ref !== 'HEAD') throw new NotFoundError('Reference');
      const file = snippet.files.find((candidate) => candidate.path === params.file_path);
      if (!file) throw new NotFoundError('File');
      return rawFile(file);
    },
  }),
  'GET /projects/:id/snippets/:snippet_id/user_agent_detail': route({
    params: snippetParams,
    handler: async ({ params, user }) => {
      authorize(user, 'admin_projects');
      const project = await findProjectOrNotFound(params.id, user);
      if (!(await getSnippet(project.project.id, params.snippet_id))) throw new RecordNotFoundError();
      // No user agent is recorded with a snippet here (spam checking is not served): GitLab's answer without one.
      throw new NotFoundError('UserAgentDetail');
    },
  }),
} satisfies RoutesOf<typeof catalog.projects>;
