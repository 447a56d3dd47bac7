/**
 * The wikis feature's slice of the route catalog, by endpoint group (`shared/catalog.ts`
 * assembles the whole). A project's wiki is served by the projects function, under its `shared`
 * gateway subtree (`/projects/{id}`): no API Gateway resource of its own.
 */
export const catalog = {
  projects: [
    'GET /projects/:id/wikis',
    'POST /projects/:id/wikis',
    /** Declared before `:slug`: a static segment wins. */
    'POST /projects/:id/wikis/attachments',
    'GET /projects/:id/wikis/:slug',
    'PUT /projects/:id/wikis/:slug',
    'DELETE /projects/:id/wikis/:slug',
  ],
} as const;
