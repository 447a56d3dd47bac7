/**
 * The badges feature's slice of the route catalog, by endpoint group (`shared/catalog.ts`
 * assembles the whole). A project's badges are served by the projects function and a group's by
 * the groups function: both sit under those groups' `shared` gateway subtrees
 * (`/projects/{id}`, `/groups/{id}`), so they add no API Gateway resource.
 */
export const catalog = {
  projects: [
    'GET /projects/:id/badges',
    'POST /projects/:id/badges',
    /** A preview of a badge's URLs, placeholders rendered (declared before `:badge_id`: a static segment wins). */
    'GET /projects/:id/badges/render',
    'GET /projects/:id/badges/:badge_id',
    'PUT /projects/:id/badges/:badge_id',
    'DELETE /projects/:id/badges/:badge_id',
  ],
  groups: [
    'GET /groups/:id/badges',
    'POST /groups/:id/badges',
    'GET /groups/:id/badges/render',
    'GET /groups/:id/badges/:badge_id',
    'PUT /groups/:id/badges/:badge_id',
    'DELETE /groups/:id/badges/:badge_id',
  ],
} as const;
