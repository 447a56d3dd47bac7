/**
 * The handlers of the personal snippets routes (`routes/personal.ts` declares them and loads this
 * module on their first request, so the meta function's cold start does not load the snippets'
 * commands, queries and S3 code). Each: find the snippet among those the caller may read, or for
 * an edit or deletion among the caller's own (404 `Snippet Not Found`, never revealing it) →
 * command or query → presenter; the commands, file actions and presenter are the project
 * snippets' (`projectId` null).
 */
import type * as z from 'zod';
import { authorize } from '../../auth';
import type { Caller, RouteRequest } from '../../platform/http/context';
import { ForbiddenError, NotFoundError, RecordNotFoundError } from '../../platform/http/errors';
import { paginate, type ListSource } from '../../platform/http/pagination';
import { created, noContent, ok } from '../../platform/http/response';
import { createSnippet, editSnippet, removeSnippet } from '../commands/snippets';
import { canCreatePersonalSnippet } from '../policy';
import { authoredSnippetList, findOwnSnippetOrNotFound, findPersonalSnippetOrNotFound, publicSnippetList, readableSnippetList } from '../queries/personal';
import { getSnippet, type Snippet } from '../store/snippets';
import { fileAt, present, presentPage, rawFile, snippetInput } from './helpers';
import type { personalCreateParams, personalFileParams, personalListParams, personalSnippetParams, personalUpdateParams } from './snippets.params';

type Request<S extends z.ZodType, U extends Caller | null = Caller> = RouteRequest<z.output<S>, U>;

/** A page of a list of personal snippets, presented. */
async function listed({ params, link }: Request<typeof personalListParams>, list: ListSource<Snippet>) {
  const page = await paginate(params, link, list);
  return ok(await presentPage(page.items, null), page.headers);
}

export const handlers = {
  mine: (request: Request<typeof personalListParams>) => listed(request, authoredSnippetList(request.user)),
  public: (request: Request<typeof personalListParams>) => listed(request, publicSnippetList()),
  all: (request: Request<typeof personalListParams>) => listed(request, readableSnippetList(request.user)),
  async create({ params, user }: Request<typeof personalCreateParams>) {
    if (!canCreatePersonalSnippet(user)) throw new ForbiddenError();
    const snippet = await createSnippet(null, user.id, { ...snippetInput(params), title: params.title, visibility: params.visibility ?? 'internal' });
    return created(await present(snippet, null));
  },
  read: async ({ params, user }: Request<typeof personalSnippetParams, Caller | null>) => ok(await present(await findPersonalSnippetOrNotFound(user, params.id), null)),
  async update({ params, user }: Request<typeof personalUpdateParams>) {
    const snippet = await findOwnSnippetOrNotFound(user, params.id);
    return ok(await present(await editSnippet(snippet, snippetInput(params)), null));
  },
  async remove({ params, user }: Request<typeof personalSnippetParams>) {
    await removeSnippet(await findOwnSnippetOrNotFound(user, params.id));
    return noContent();
  },
  raw: async ({ params, user }: Request<typeof personalSnippetParams, Caller | null>) => rawFile((await findPersonalSnippetOrNotFound(user, params.id)).files[0]),
  fileRaw: async ({ params, user }: Request<typeof personalFileParams, Caller | null>) =>
    rawFile(fileAt(await findPersonalSnippetOrNotFound(user, params.id), params.ref, params.file_path)),
  async userAgentDetail({ params, user }: Request<typeof personalSnippetParams>): Promise<never> {
    authorize(user, 'admin_projects');
    if (!(await getSnippet(null, params.id))) throw new RecordNotFoundError();
    // No user agent is recorded with a snippet here (spam checking is not served): GitLab's answer without one.
    throw new NotFoundError('UserAgentDetail');
  },
};
