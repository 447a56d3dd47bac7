/** The hooks feature's slice of the route catalog, by endpoint group (`shared/catalog.ts` assembles the whole). */
export const catalog = {
  hooks: [
    'GET /projects/:id/hooks',
    'POST /projects/:id/hooks',
    'GET /projects/:id/hooks/:hook_id',
    'PUT /projects/:id/hooks/:hook_id',
    'DELETE /projects/:id/hooks/:hook_id',
  ],
} as const;
