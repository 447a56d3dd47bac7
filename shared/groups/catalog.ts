/** The groups feature's slice of the route catalog, by endpoint group (`shared/catalog.ts` assembles the whole). */
export const catalog = {
  groups: [
    'GET /groups',
    'POST /groups',
    'GET /groups/:id',
    'PUT /groups/:id',
    'DELETE /groups/:id',
    /** The group's avatar file (current GitLab); set with `avatar` of create and edit. */
    'GET /groups/:id/avatar',
    'GET /groups/:id/projects',
    /** Transfer a project into the group (admins; GitLab's `lib/api/groups.rb`). */
    'POST /groups/:id/projects/:project_id',
    'GET /groups/:id/subgroups',
    'GET /groups/:id/descendant_groups',
    'POST /groups/:id/transfer',
    'POST /groups/:id/share',
    'DELETE /groups/:id/share/:group_id',
    'GET /namespaces',
    'GET /namespaces/:id',
  ],
} as const;
