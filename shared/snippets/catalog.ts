/**
 * The snippets feature's slice of the route catalog, by endpoint group (`shared/catalog.ts`
 * assembles the whole). A project's snippets are served by the projects function, under its
 * `shared` gateway subtree (`/projects/{id}`), personal snippets (`/snippets`) by the meta
 * function, under the API root's: no API Gateway resource of their own.
 */
export const catalog = {
  projects: [
    'GET /projects/:id/snippets',
    'POST /projects/:id/snippets',
    'GET /projects/:id/snippets/:snippet_id',
    'PUT /projects/:id/snippets/:snippet_id',
    'DELETE /projects/:id/snippets/:snippet_id',
    'GET /projects/:id/snippets/:snippet_id/raw',
    'GET /projects/:id/snippets/:snippet_id/files/:ref/:file_path/raw',
    'GET /projects/:id/snippets/:snippet_id/user_agent_detail',
  ],
  meta: [
    'GET /snippets',
    'POST /snippets',
    'GET /snippets/public',
    'GET /snippets/all',
    'GET /snippets/:id',
    'PUT /snippets/:id',
    'DELETE /snippets/:id',
    'GET /snippets/:id/raw',
    'GET /snippets/:id/files/:ref/:file_path/raw',
    'GET /snippets/:id/user_agent_detail',
  ],
} as const;
