/**
 * The releases feature's slice of the route catalog, by endpoint group (`shared/catalog.ts`
 * assembles the whole). Served by the repository's function: a release reads and creates tags
 * and presents their commits, from the same packs.
 */
export const catalog = {
  repository: [
    'GET /projects/:id/releases',
    'POST /projects/:id/releases',
    'GET /projects/:id/releases/:tag_name',
    'PUT /projects/:id/releases/:tag_name',
    'DELETE /projects/:id/releases/:tag_name',
    'GET /projects/:id/releases/permalink/latest',
    'GET /projects/:id/releases/permalink/latest/:suffix_path+',
    'GET /projects/:id/releases/:tag_name/downloads/:direct_asset_path+',
    'GET /projects/:id/releases/:tag_name/assets/links',
    'POST /projects/:id/releases/:tag_name/assets/links',
    'GET /projects/:id/releases/:tag_name/assets/links/:link_id',
    'PUT /projects/:id/releases/:tag_name/assets/links/:link_id',
    'DELETE /projects/:id/releases/:tag_name/assets/links/:link_id',
  ],
} as const;
