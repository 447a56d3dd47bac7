/**
 * Personal snippets (GitLab's `lib/api/snippets.rb`), served by the meta function under the API
 * root's subtree: the caller's list, the public ones, every one the caller may see (admins: all),
 * read, raw (the first file) and a file raw by ref and path, create, edit (with file actions),
 * delete, and the admins' user agent details. Reads take anonymous callers (public snippets
 * only); the lists and writes need a token (401).
 *
 * Only the declarations are loaded with the meta function: each handler loads
 * `personal-handlers.ts` (the snippets' commands, queries, presenter and S3 code) on its first
 * request (`lazily`).
 */
import { lazily } from '../../platform/lazy';
import { route, type RoutesOf } from '../../platform/http/route';
import type { catalog } from '../catalog';
import { personalCreateParams, personalFileParams, personalListParams, personalSnippetParams, personalUpdateParams } from './snippets.params';

const load = () => import('./personal-handlers');

export const personalSnippetRoutes = {
  'GET /snippets': route({ params: personalListParams, handler: lazily(load, (m) => m.handlers.mine) }),
  'GET /snippets/public': route({ params: personalListParams, handler: lazily(load, (m) => m.handlers.public) }),
  'GET /snippets/all': route({ params: personalListParams, handler: lazily(load, (m) => m.handlers.all) }),
  'POST /snippets': route({ params: personalCreateParams, handler: lazily(load, (m) => m.handlers.create) }),
  'GET /snippets/:id': route({ params: personalSnippetParams, anonymous: true, handler: lazily(load, (m) => m.handlers.read) }),
  'PUT /snippets/:id': route({ params: personalUpdateParams, handler: lazily(load, (m) => m.handlers.update) }),
  'DELETE /snippets/:id': route({ params: personalSnippetParams, handler: lazily(load, (m) => m.handlers.remove) }),
  'GET /snippets/:id/raw': route({ params: personalSnippetParams, anonymous: true, handler: lazily(load, (m) => m.handlers.raw) }),
  'GET /snippets/:id/files/:ref/:file_path/raw': route({ params: personalFileParams, anonymous: true, handler: lazily(load, (m) => m.handlers.fileRaw) }),
  'GET /snippets/:id/user_agent_detail': route({ params: personalSnippetParams, handler: lazily(load, (m) => m.handlers.userAgentDetail) }),
} satisfies RoutesOf<typeof catalog.meta>;
