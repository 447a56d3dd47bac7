/**
 * The hooks feature's slice of the route catalog, by endpoint group (`shared/catalog.ts` assembles
 * the whole). System hooks (`/hooks`, admins) are top-level paths: served by the meta function,
 * under the API root's subtree, with no API Gateway resource of their own; a project's hooks by
 * the hooks function (its subtree `/projects/{id}/hooks`).
 */
export const catalog = {
  meta: [
    'GET /hooks',
    'POST /hooks',
    'GET /hooks/:hook_id',
    'PUT /hooks/:hook_id',
    'DELETE /hooks/:hook_id',
    'POST /hooks/:hook_id',
  ],
  hooks: [
    'GET /projects/:id/hooks',
    'POST /projects/:id/hooks',
    'GET /projects/:id/hooks/:hook_id',
    'PUT /projects/:id/hooks/:hook_id',
    'DELETE /projects/:id/hooks/:hook_id',
    'POST /projects/:id/hooks/:hook_id/test/:trigger',
  ],
} as const;
