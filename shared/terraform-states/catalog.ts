/**
 * The Terraform states feature's slice of the route catalog, by endpoint group (`shared/catalog.ts`
 * assembles the whole). Served by the projects function, under its `shared` gateway subtree
 * (`/projects/{id}`): no API Gateway resource of their own, no function of their own.
 */
export const catalog = {
  projects: [
    'GET /projects/:id/terraform/state/:name',
    'POST /projects/:id/terraform/state/:name',
    'DELETE /projects/:id/terraform/state/:name',
    'POST /projects/:id/terraform/state/:name/lock',
    'DELETE /projects/:id/terraform/state/:name/lock',
    'GET /projects/:id/terraform/state/:name/versions/:serial',
    'DELETE /projects/:id/terraform/state/:name/versions/:serial',
  ],
} as const;
