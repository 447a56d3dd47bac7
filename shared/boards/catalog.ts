/**
 * The boards feature's slice of the route catalog, by endpoint group (`shared/catalog.ts`
 * assembles the whole). A project's boards are served by the projects function and a group's by
 * the groups function: both sit under those groups' `shared` gateway subtrees (`/projects/{id}`,
 * `/groups/{id}`), so they add no API Gateway resource.
 */
export const catalog = {
  projects: [
    'GET /projects/:id/boards',
    'POST /projects/:id/boards',
    'GET /projects/:id/boards/:board_id',
    'PUT /projects/:id/boards/:board_id',
    'DELETE /projects/:id/boards/:board_id',
    'GET /projects/:id/boards/:board_id/lists',
    'POST /projects/:id/boards/:board_id/lists',
    'GET /projects/:id/boards/:board_id/lists/:list_id',
    'PUT /projects/:id/boards/:board_id/lists/:list_id',
    'DELETE /projects/:id/boards/:board_id/lists/:list_id',
  ],
  groups: [
    'GET /groups/:id/boards',
    'POST /groups/:id/boards',
    'GET /groups/:id/boards/:board_id',
    'PUT /groups/:id/boards/:board_id',
    'DELETE /groups/:id/boards/:board_id',
    'GET /groups/:id/boards/:board_id/lists',
    'POST /groups/:id/boards/:board_id/lists',
    'GET /groups/:id/boards/:board_id/lists/:list_id',
    'PUT /groups/:id/boards/:board_id/lists/:list_id',
    'DELETE /groups/:id/boards/:board_id/lists/:list_id',
  ],
} as const;
