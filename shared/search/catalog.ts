/**
 * The search feature's slice of the route catalog, by endpoint group (`shared/catalog.ts`
 * assembles the whole). `GET /search` is served by the meta function (the API root's `shared`
 * gateway subtree), a project's and a group's search by their functions (the `/projects/{id}` and
 * `/groups/{id}` subtrees): no API Gateway resource of their own.
 */
export const catalog = {
  meta: ['GET /search'],
  projects: ['GET /projects/:id/search'],
  groups: ['GET /groups/:id/search'],
} as const;
