/**
 * The deploy keys feature's slice of the route catalog, by endpoint group (`shared/catalog.ts`
 * assembles the whole). A project's deploy keys are served by the projects function (under its
 * `shared` gateway subtree `/projects/{id}`), the instance's list by the meta function (the API
 * root's subtree) and a user's by the users function (`/users/{id}`): none adds an API Gateway
 * resource.
 */
export const catalog = {
  /** The instance's deploy keys (admins). */
  meta: [
    'GET /deploy_keys',
    'POST /deploy_keys',
  ],
  projects: [
    'GET /projects/:id/deploy_keys',
    'POST /projects/:id/deploy_keys',
    'GET /projects/:id/deploy_keys/:key_id',
    'PUT /projects/:id/deploy_keys/:key_id',
    'DELETE /projects/:id/deploy_keys/:key_id',
    'POST /projects/:id/deploy_keys/:key_id/enable',
  ],
  /**
   * The deploy keys of the projects a user and the caller both maintain; and a key by fingerprint
   * (admins), a deploy key's or, through the users feature, a user's SSH key.
   */
  users: [
    'GET /users/:id/project_deploy_keys',
    'GET /keys',
  ],
} as const;
