/**
 * The packages feature's slice of the route catalog, by endpoint group (`shared/catalog.ts`
 * assembles the whole). A project's packages are served by the projects function, under its
 * `shared` gateway subtree (`/projects/{id}`), a group's by the groups function under its own
 * (`/groups/{id}`): no API Gateway resource of their own.
 */
export const catalog = {
  projects: [
    'PUT /projects/:id/packages/generic/:package_name/:package_version/:file_name',
    'GET /projects/:id/packages/generic/:package_name/:package_version/:file_name',
    'GET /projects/:id/packages',
    'GET /projects/:id/packages/:package_id',
    'GET /projects/:id/packages/:package_id/package_files',
    'DELETE /projects/:id/packages/:package_id',
    'DELETE /projects/:id/packages/:package_id/package_files/:package_file_id',
  ],
  groups: ['GET /groups/:id/packages'],
} as const;
