/** The projects feature's slice of the route catalog, by endpoint group (`shared/catalog.ts` assembles the whole). */
export const catalog = {
  /** Project topics: top-level routes, served by the meta function under the API root's subtree. */
  meta: ['GET /topics', 'GET /topics/:id', 'POST /topics', 'PUT /topics/:id', 'DELETE /topics/:id'],
  /** A user's contribution feed and personal projects (in the users endpoint group). */
  users: [
    'GET /events',
    'GET /users/:id/events',
    'GET /users/:id/projects',
    'GET /users/:id/starred_projects',
    'GET /users/:id/contributed_projects',
  ],
  projects: [
    'GET /projects',
    'POST /projects',
    'GET /projects/search/:query',
    'POST /projects/user/:user_id',
    'GET /projects/:id',
    'PUT /projects/:id',
    'DELETE /projects/:id',
    'GET /projects/:id/users',
    'GET /projects/:id/events',
    'POST /projects/:id/star',
    'POST /projects/:id/unstar',
    'GET /projects/:id/starrers',
    'POST /projects/:id/archive',
    'POST /projects/:id/unarchive',
    'POST /projects/:id/fork',
    'GET /projects/:id/forks',
    'DELETE /projects/:id/fork',
    'POST /projects/:id/fork/:forked_from_id',
    'POST /projects/:id/share',
    'DELETE /projects/:id/share/:group_id',
    'PUT /projects/:id/transfer',
    'GET /projects/:id/groups',
    /** The project's avatar file (current GitLab); set with `avatar` of create and edit. */
    'GET /projects/:id/avatar',
  ],
  uploads: [
    'POST /projects/:id/uploads',
  ],
  /**
   * Outside the API: `/:namespace/:project/uploads/:secret/:filename` (uploaded files). The
   * namespace may be nested, so this is one greedy resource at the root; API Gateway also sends
   * it every GET that no other resource matches, and the handler answers those with the 404.
   */
  web: [
    'GET /:path+',
  ],
} as const;
