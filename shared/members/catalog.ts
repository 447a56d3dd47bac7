/** The members feature's slice of the route catalog, by endpoint group (`shared/catalog.ts` assembles the whole). */
export const catalog = {
  members: [
    'GET /groups/:id/members',
    'POST /groups/:id/members',
    'GET /groups/:id/members/:user_id',
    'GET /groups/:id/members/all',
    'GET /groups/:id/members/all/:user_id',
    'PUT /groups/:id/members/:user_id',
    'DELETE /groups/:id/members/:user_id',
    'GET /projects/:id/members',
    'POST /projects/:id/members',
    'GET /projects/:id/members/:user_id',
    'GET /projects/:id/members/all',
    'GET /projects/:id/members/all/:user_id',
    'PUT /projects/:id/members/:user_id',
    'DELETE /projects/:id/members/:user_id',
    // Project access tokens: their bots are project members (`access-tokens.ts`).
    'GET /projects/:id/access_tokens',
    'POST /projects/:id/access_tokens',
    'GET /projects/:id/access_tokens/:token_id',
    'DELETE /projects/:id/access_tokens/:token_id',
    'POST /projects/:id/access_tokens/:token_id/rotate',
  ],
  /**
   * A group's access tokens (their bots are group members, `access-tokens.ts`) and access
   * requests. Served by the groups function, under its `shared` gateway subtree (`/groups/{id}`): no API Gateway resource
   * of their own.
   */
  groups: [
    'GET /groups/:id/access_tokens',
    'POST /groups/:id/access_tokens',
    'GET /groups/:id/access_tokens/:token_id',
    'DELETE /groups/:id/access_tokens/:token_id',
    'POST /groups/:id/access_tokens/:token_id/rotate',
    // A group's access requests (`access-requests.ts`).
    'GET /groups/:id/access_requests',
    'POST /groups/:id/access_requests',
    'PUT /groups/:id/access_requests/:user_id/approve',
    'DELETE /groups/:id/access_requests/:user_id',
  ],
  /** A project's access requests: served by the projects function, under its `shared` gateway subtree (`/projects/{id}`). */
  projects: [
    'GET /projects/:id/access_requests',
    'POST /projects/:id/access_requests',
    'PUT /projects/:id/access_requests/:user_id/approve',
    'DELETE /projects/:id/access_requests/:user_id',
  ],
  /** A user's memberships (in the users endpoint group). */
  users: ['GET /users/:id/memberships'],
} as const;
