/** The deploy tokens feature's slice of the route catalog, by endpoint group (`shared/catalog.ts` assembles the whole). */
export const catalog = {
  /** A project's deploy tokens (served with the project: no API Gateway resource of their own). */
  projects: [
    'GET /projects/:id/deploy_tokens',
    'POST /projects/:id/deploy_tokens',
    'GET /projects/:id/deploy_tokens/:token_id',
    'DELETE /projects/:id/deploy_tokens/:token_id',
  ],
  /** A group's deploy tokens (served with the group). */
  groups: [
    'GET /groups/:id/deploy_tokens',
    'POST /groups/:id/deploy_tokens',
    'GET /groups/:id/deploy_tokens/:token_id',
    'DELETE /groups/:id/deploy_tokens/:token_id',
  ],
} as const;
