/** The issues feature's slice of the route catalog, by endpoint group (`shared/catalog.ts` assembles the whole). */
export const catalog = {
  issues: [
    'GET /issues',
    'GET /projects/:id/issues',
    'POST /projects/:id/issues',
    'GET /projects/:id/issues/:issue_iid',
    'PUT /projects/:id/issues/:issue_iid',
    'DELETE /projects/:id/issues/:issue_iid',
    'POST /projects/:id/issues/:issue_iid/move',
    'GET /projects/:id/issues/:issue_iid/participants',
    'GET /groups/:id/issues',
  ],
  notes: [
    'GET /projects/:id/issues/:issue_iid/notes',
    'POST /projects/:id/issues/:issue_iid/notes',
    'GET /projects/:id/issues/:issue_iid/notes/:note_id',
    'PUT /projects/:id/issues/:issue_iid/notes/:note_id',
    'DELETE /projects/:id/issues/:issue_iid/notes/:note_id',
  ],
  /** What a user does to an issue besides editing it: subscriptions, todos, time tracking. */
  issue_actions: [
    'POST /projects/:id/issues/:issue_iid/subscribe',
    'POST /projects/:id/issues/:issue_iid/unsubscribe',
    'POST /projects/:id/issues/:issue_iid/todo',
    'POST /projects/:id/issues/:issue_iid/time_estimate',
    'POST /projects/:id/issues/:issue_iid/reset_time_estimate',
    'POST /projects/:id/issues/:issue_iid/add_spent_time',
    'POST /projects/:id/issues/:issue_iid/reset_spent_time',
    'GET /projects/:id/issues/:issue_iid/time_stats',
  ],
  labels: [
    'GET /projects/:id/labels',
    'POST /projects/:id/labels',
    'PUT /projects/:id/labels',
    'DELETE /projects/:id/labels',
    'GET /projects/:id/labels/:label_id',
    'PUT /projects/:id/labels/:label_id',
    'DELETE /projects/:id/labels/:label_id',
  ],
  milestones: [
    'GET /projects/:id/milestones',
    'POST /projects/:id/milestones',
    'GET /projects/:id/milestones/:milestone_id',
    'PUT /projects/:id/milestones/:milestone_id',
    'DELETE /projects/:id/milestones/:milestone_id',
    'GET /projects/:id/milestones/:milestone_id/issues',
  ],
  /** The caller's todo list (GitLab's `API::Todos`; creating a todo is an issue action). */
  todos: [
    'GET /todos',
    'POST /todos/:id/mark_as_done',
    'POST /todos/mark_as_done',
  ],
} as const;
