/**
 * The notification settings feature's slice of the route catalog, by endpoint group
 * (`shared/catalog.ts` assembles the whole). The global settings are a top-level path, served by
 * the meta function under the API root's `shared` subtree; a group's and a project's by the groups
 * and projects functions under theirs: no API Gateway resource of their own.
 */
export const catalog = {
  meta: ['GET /notification_settings', 'PUT /notification_settings'],
  groups: ['GET /groups/:id/notification_settings', 'PUT /groups/:id/notification_settings'],
  projects: ['GET /projects/:id/notification_settings', 'PUT /projects/:id/notification_settings'],
} as const;
