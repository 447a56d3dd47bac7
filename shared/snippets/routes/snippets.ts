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
import { created, noContent, ok } from '../../platform/http/response';
import { route, type RoutesOf } from '../../platform/http/route';
import { findProjectOrNotFound } from '../../projects';
import type { catalog } from '../catalog';
import { createSnippet, editSnippet, removeSnippet } from '../commands/snippets';
import { canDeleteSnippet, canUpdateSnippet } from '../policy';
import { findSnippetOrNotFound, snippetList } from '../queries/snippets';
import { getSnippet } from '../store/snippets';
import { fileAt, present, presentPage, rawFile, snippetInput } from './helpers';
import { createParams, fileParams, listParams, snippetParams, updateParams } from './snippets.params';

/** The project, once its snippets feature is open to the caller (else 403, even anonymous: GitLab's `forbidden!`). */
async function snippetsOf(idOrPath: string, user: Caller | null): Promise<ProjectSubject> {
  const subject = await findProjectOrNotFound(idOrPath, user);
  if (!can(user, 'read_snippets', subject)) throw new ForbiddenError();
  return subject;
}

export const projectSnippetRoutes = {
  'GET /projects/:id/snippets': route({
    params: listParams,
    handler: async ({ params, user, link }) => {
      const subject = await snippetsOf(params.id, user);
      const page = await paginate(params, link, snippetList(subject, user));
      return ok(await presentPage(page.items, subject), page.headers);
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
      return rawFile(fileAt(snippet, params.ref, params.file_path));
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
